import { DynamicModule, Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import type { Logger } from '../common/logging/logger';
import type { AppConfig } from '../config/config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { ReadinessModule } from '../health/readiness.module';
import { SimulationModule } from '../simulation/simulation.module';
import { JobsModule } from './jobs.module';

/**
 * What the job-runner process loads: configuration, database, the jobs, the sandbox's simulated workers (sandbox mode)
 * and the readiness check (served by its health listener), no HTTP API and no credentials.
 */
@Module({})
export class JobsRunnerModule {
  static register(config: AppConfig, databaseUrl: string, logger: Logger): DynamicModule {
    return {
      module: JobsRunnerModule,
      imports: [
        ConfigModule.forRoot({ ...config, runJobsInProcess: true }),
        CommonModule.forRoot(logger),
        DatabaseModule.forRoot(databaseUrl, Math.min(config.databasePoolSize, 10)),
        JobsModule,
        SimulationModule.register(config),
        ReadinessModule,
      ],
    };
  }
}
