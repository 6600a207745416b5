import { Module } from '@nestjs/common';
import { Logger } from '../common/logging/logger';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EscrowModule } from '../escrow/escrow.module';
import { MatchingModule } from '../matching/matching.module';
import { WorkerAuthController } from './controllers/worker-auth.controller';
import { WorkerEarningsController } from './controllers/worker-earnings.controller';
import { WorkerProfileController } from './controllers/worker-profile.controller';
import { WorkerAuthService } from './services/worker-auth.service';
import { WorkerEarningsService } from './services/worker-earnings.service';
import { WorkerProfileService } from './services/worker-profile.service';
import { SandboxSmsGateway, SMS_GATEWAY, type SmsGateway, UnconfiguredSmsGateway } from './sms/sms-gateway';
import { SmsService } from './sms/sms.service';

/**
 * Sandbox mode logs codes and returns them as sandbox_code. Live mode has no SMS provider yet: it boots with a
 * gateway that answers 503 service_unavailable, so nothing else is blocked. A real provider is one more
 * SmsGateway implementation chosen here (with its credentials in AppConfig).
 */
export function createSmsGateway(config: AppConfig, logger: Logger): SmsGateway {
  if (config.paymentMode === 'sandbox') return new SandboxSmsGateway(logger);
  logger.warn({}, 'no SMS provider configured: worker SMS sends will answer 503 service_unavailable');
  return new UnconfiguredSmsGateway();
}

/** Worker accounts: SMS verification, registration, sessions, the profile and earnings (reputation is matching's). */
@Module({
  imports: [EscrowModule, MatchingModule],
  controllers: [WorkerAuthController, WorkerProfileController, WorkerEarningsController],
  providers: [
    { provide: SMS_GATEWAY, inject: [APP_CONFIG, Logger], useFactory: createSmsGateway },
    SmsService,
    WorkerAuthService,
    WorkerProfileService,
    WorkerEarningsService,
  ],
})
export class WorkerModule {}
