import { DynamicModule, Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import type { Logger } from '../common/logging/logger';
import type { AppConfig } from '../config/config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { ReadinessModule } from '../health/readiness.module';
import { JobsModule } from './jobs.module';
import { ledgerViolations } from '../escrow/ledger-check';
import { ObservabilityModule } from '../observability/observability.module';

/**
 * What the job-runner process loads: configuration, database, the jobs and the readiness check (served by its health
 * listener), no HTTP API and no credentials; jobs.main.ts adds the sandbox's simulation in sandbox mode.
 */
@Module({})
export class JobsRunnerModule {
  /** `extra`: modules the process adds (jobs.main.ts adds the sandbox's simulation, which works a job queue). */
  static register(
    config: AppConfig,
    databaseUrl: string,
    logger: Logger,
    extra: DynamicModule[] = [],
  ): DynamicModule {
    return {
      module: JobsRunnerModule,
      imports: [
        ConfigModule.forRoot({ ...config, runJobsInProcess: true }),
        CommonModule.forRoot(logger),
        DatabaseModule.forRoot(databaseUrl, Math.min(config.databasePoolSize, 10)),
        JobsModule,
        ...extra,
        ReadinessModule,
        ObservabilityModule.register({ databaseGauges: true, ledgerCheck: ledgerViolations }),
      ],
    };
  }
}
