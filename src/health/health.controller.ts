import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { ApiError } from '../common/errors/api-error';
import { ErrorEnvelope } from '../common/errors/error-envelope.dto';
import { VERSION } from '../common/version';
import { sqlExec } from '../database/sql';
import { HealthResponse, ServiceInfoResponse } from './health.dto';

@ApiTags('system')
@Public()
@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('health')
  @ApiOperation({ summary: 'Load-balancer health check: the database is reachable' })
  @ApiOkResponse({ type: HealthResponse })
  @ApiServiceUnavailableResponse({
    type: ErrorEnvelope,
    description: 'service_unavailable: the database is down',
  })
  async health(): Promise<HealthResponse> {
    const started = process.hrtime.bigint();
    try {
      await sqlExec(this.ds, 'SELECT 1');
    } catch {
      throw new ApiError('service_unavailable', 'The database is unreachable.', {
        retry_after: 5,
        database: 'down',
      });
    }
    return {
      status: 'ok',
      version: VERSION,
      mode: this.config.paymentMode,
      database: 'up',
      database_latency_ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
      uptime_seconds: Math.round(process.uptime()),
    };
  }

  @Get()
  @ApiOperation({ summary: 'Service name, version and links' })
  @ApiOkResponse({ type: ServiceInfoResponse })
  info(): ServiceInfoResponse {
    return {
      name: 'Legwork',
      description: 'Agent-to-human fulfillment: software agents pay real people to do real-world tasks.',
      version: VERSION,
      mode: this.config.paymentMode,
      docs: '/docs',
      openapi: '/openapi.json',
      health: '/health',
    };
  }
}
