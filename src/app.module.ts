import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AdminModule } from './admin/admin.module';
import { AgentModule } from './agent/agent.module';
import { WebAppsModule } from './apps/web-apps.module';
import { AuthGuard } from './auth/auth.guard';
import { AuthModule } from './auth/auth.module';
import { CommonModule } from './common/common.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { createValidationPipe } from './common/http/validation.pipe';
import type { Logger } from './common/logging/logger';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { EscrowModule } from './escrow/escrow.module';
import { EventsModule } from './events/events.module';
import { EventsGatewayModule } from './events/gateway/events-gateway.module';
import { HealthModule } from './health/health.module';
import { WorkerModule } from './worker/worker.module';
import { ledgerViolations } from './escrow/ledger-check';
import { ObservabilityModule } from './observability/observability.module';
import { StatsModule } from './stats/stats.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { interceptWrites } from './idempotency/idempotent-writes';
import { JobsModule } from './jobs/jobs.module';
import { PaymentModule } from './payment/payment.module';
import { MatchingModule } from './matching/matching.module';
import { McpModule } from './mcp/mcp.module';
import { MessagesModule } from './messages/messages.module';
import { DisputesModule } from './disputes/disputes.module';
import { NotificationsModule } from './notifications/notifications.module';
import { OAuthModule } from './oauth/oauth.module';
import { UploadModule } from './upload/upload.module';
import { SimulationModule } from './simulation/simulation.module';
import { TaskModule } from './task/task.module';
import { TaskReportsModule } from './task/task-reports.module';

/**
 * The whole application. Global pieces are registered as APP_* providers (and the Idempotency-Key interceptor on
 * every write route by interceptWrites) so that the e2e suite runs exactly the production stack. Guards run in
 * order: authentication, then rate limits (which need to know the caller).
 */
@Module({})
export class AppModule {
  static register(config: AppConfig, databaseUrl: string, logger: Logger): DynamicModule {
    const imports = [
      ConfigModule.forRoot(config),
      CommonModule.forRoot(logger),
      DatabaseModule.forRoot(databaseUrl, config.databasePoolSize),
      RateLimitModule,
      AuthModule,
      HealthModule,
      EscrowModule,
      WorkerModule,
      AgentModule,
      AdminModule,
      StatsModule,
      IdempotencyModule,
      MatchingModule,
      UploadModule,
      TaskModule,
      TaskReportsModule,
      MessagesModule,
      DisputesModule,
      PaymentModule,
      JobsModule,
      NotificationsModule,
      SimulationModule.register(config),
      EventsModule,
      EventsGatewayModule,
      McpModule,
      OAuthModule,
      WebAppsModule.register(logger),
      // The database's gauges come from the process that runs the jobs: this one only when it runs them itself.
      ObservabilityModule.register({
        databaseGauges: config.runJobsInProcess,
        ledgerCheck: ledgerViolations,
      }),
    ];
    // The Idempotency-Key interceptor on every write route, before Nest scans them (see idempotent-writes.ts).
    interceptWrites(imports);
    return {
      module: AppModule,
      imports,
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
