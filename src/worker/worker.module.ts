import { Module } from '@nestjs/common';
import { EscrowModule } from '../escrow/escrow.module';
import { MatchingModule } from '../matching/matching.module';
import { SmsModule } from '../sms/sms.module';
import { WorkerAuthController } from './controllers/worker-auth.controller';
import { WorkerEarningsController } from './controllers/worker-earnings.controller';
import { WorkerProfileController } from './controllers/worker-profile.controller';
import { WorkerPrivacyController } from './controllers/worker-privacy.controller';
import { WorkerDataExportService } from './services/worker-data-export.service';
import { WorkerDeletionService } from './services/worker-deletion.service';
import { WorkerAuthService } from './services/worker-auth.service';
import { WorkerEarningsService } from './services/worker-earnings.service';
import { WorkerProfileService } from './services/worker-profile.service';
import { SmsService } from './sms/sms.service';

/** Worker accounts: SMS verification, registration, sessions, the profile and earnings (reputation is matching's). */
@Module({
  imports: [EscrowModule, MatchingModule, SmsModule],
  controllers: [
    WorkerAuthController,
    WorkerProfileController,
    WorkerEarningsController,
    WorkerPrivacyController,
  ],
  providers: [
    SmsService,
    WorkerAuthService,
    WorkerProfileService,
    WorkerEarningsService,
    WorkerDataExportService,
    WorkerDeletionService,
  ],
})
export class WorkerModule {}
