import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { ApiError } from '../common/errors/api-error';
import { ApiErrors } from '../common/errors/api-errors.decorator';
import { VERSION } from '../common/version';
import { sqlExec } from '../database/sql';
import { HealthResponse, LivenessResponse, ReadinessResponse, ServiceInfoResponse } from './health.dto';
import { Readiness } from './readiness.service';

@ApiTags('system')
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly readinessCheck: Readiness,
  ) {}

  @Get('livez')
  @ApiOperation({
    summary: 'Liveness probe: the process runs',
    description:
      'Always 200 while the process can answer at all; it checks no dependency, so an orchestrator never restarts an ' +
      'instance because the database or Redis is down.',
  })
  @ApiOkResponse({ type: LivenessResponse })
  liveness(): LivenessResponse {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({
    summary: 'Readiness probe: this instance should receive traffic',
    description:
      'Checks the database and Redis (when configured) with a 2 s timeout each. Answers 503 from the moment the ' +
      'instance receives SIGTERM while it finishes in-flight work (see docs/scaling.md, "Draining").',
  })
  @ApiOkResponse({ type: ReadinessResponse })
  @ApiErrors({ 503: ['service_unavailable'] })
  async readiness(): Promise<ReadinessResponse> {
    const report = await this.readinessCheck.check();
    if (!report.ready) {
      const message = report.draining
        ? 'This instance is shutting down.'
        : 'A dependency of this instance is unreachable.';
      throw new ApiError('service_unavailable', message, {
        retry_after: 5,
        draining: report.draining,
        database: report.database,
        redis: report.redis,
      });
    }
    return { status: 'ready', database: 'up', redis: report.redis === 'up' ? 'up' : 'not_configured' };
  }

  @Get('health')
  @ApiOperation({
    summary: 'Load-balancer health check: the database is reachable',
    description:
      'Public. 200 while the database answers; for Kubernetes use /livez (process) and /readyz (database and Redis, 503 while draining).',
  })
  @ApiOkResponse({ type: HealthResponse })
  @ApiErrors({ 503: ['service_unavailable'] })
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
  @ApiOperation({
    summary: 'Service name, version and links',
    description:
      'Public. Names the service and its version and links this reference, the OpenAPI document and the guides. Useful as a first call to check the base URL.',
  })
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
