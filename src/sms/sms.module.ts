import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { Logger } from '../common/logging/logger';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { AliyunSmsGateway } from './aliyun-sms-gateway';
import { SandboxSmsGateway } from './sandbox-outbox';
import { SMS_GATEWAY, type SmsGateway, UnconfiguredSmsGateway } from './sms-gateway';
import { SmsBudgets } from './sms-budgets';

/** The gateway SMS_PROVIDER names (config/notification-config.ts says which mode allows which). */
export function createSmsGateway(
  config: AppConfig,
  ds: DataSource,
  clock: Clock,
  logger: Logger,
): SmsGateway {
  switch (config.sms.provider) {
    case 'sandbox':
      return new SandboxSmsGateway(ds, clock, logger);
    case 'aliyun':
      return new AliyunSmsGateway(config.sms.aliyun!, logger);
    case 'none':
      logger.warn(
        {},
        'SMS_PROVIDER=none: worker SMS sends answer 503 service_unavailable, offers go without SMS',
      );
      return new UnconfiguredSmsGateway();
  }
}

/**
 * Sending SMS: the gateway of the mode (the sandbox outbox, Aliyun SMS, or none) and the global hourly budgets.
 * Verification codes (WorkerModule) and offer SMS (NotificationsModule) both go through here.
 */
@Module({
  // The budgets' counters (Redis when configured); the job runner process loads no rate limits of its own.
  imports: [RateLimitModule],
  providers: [
    {
      provide: SMS_GATEWAY,
      inject: [APP_CONFIG, DataSource, Clock, Logger],
      useFactory: createSmsGateway,
    },
    SmsBudgets,
  ],
  exports: [SMS_GATEWAY, SmsBudgets],
})
export class SmsModule {}
