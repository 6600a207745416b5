import { ApiProperty } from '@nestjs/swagger';

export class HealthResponse {
  @ApiProperty({ example: 'ok' }) status: 'ok';
  @ApiProperty({ example: '0.1.0' }) version: string;
  @ApiProperty({ enum: ['sandbox', 'live'] }) mode: string;
  @ApiProperty({ example: 'up' }) database: 'up';
  @ApiProperty() database_latency_ms: number;
  @ApiProperty() uptime_seconds: number;
}

export class LivenessResponse {
  @ApiProperty({ example: 'ok' }) status: 'ok';
}

export class ReadinessResponse {
  @ApiProperty({ example: 'ready' }) status: 'ready';
  @ApiProperty({ example: 'up' }) database: 'up';
  @ApiProperty({
    enum: ['up', 'not_configured'],
    description: 'not_configured: REDIS_URL is unset (one instance, no Redis)',
  })
  redis: 'up' | 'not_configured';
}

export class ServiceInfoResponse {
  @ApiProperty({ example: 'Legwork' }) name: string;
  @ApiProperty() description: string;
  @ApiProperty() version: string;
  @ApiProperty({ enum: ['sandbox', 'live'] }) mode: string;
  @ApiProperty({ example: '/docs' }) docs: string;
  @ApiProperty({ example: '/openapi.json' }) openapi: string;
  @ApiProperty({ example: '/health' }) health: string;
}
