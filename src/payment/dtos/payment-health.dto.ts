import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ProvidersResponse {
  @ApiProperty({ type: [String], example: ['alipay', 'wechat'], description: 'Enabled online providers.' })
  providers: string[];
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'alipay',
    description: 'The first enabled provider.',
  })
  default: string | null;
}

export class ProviderHealthView {
  @ApiProperty({ enum: ['available', 'unavailable'] }) status: 'available' | 'unavailable';
  @ApiPropertyOptional() error?: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Operator view: round trip of the probe.' })
  latency_ms?: number;
}

export class PaymentHealthResponse {
  @ApiProperty({
    enum: ['ok', 'degraded'],
    description: 'ok when every enabled provider answered its probe.',
  })
  status: 'ok' | 'degraded';
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/ProviderHealthView' } })
  providers: Record<string, ProviderHealthView>;
  @ApiProperty({ type: [String] }) available_providers: string[];
  @ApiProperty({ type: 'integer' }) total_providers: number;
  @ApiProperty({ type: 'integer' }) available_count: number;
  @ApiProperty({ type: String, format: 'date-time' }) checked_at: Date;
}
