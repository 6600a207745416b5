import { DisputesModule } from '../disputes/disputes.module';
import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { EscrowModule } from '../escrow/escrow.module';
import { EventsModule } from '../events/events.module';
import { JobsModule } from '../jobs/jobs.module';
import { MatchingModule } from '../matching/matching.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { PaymentModule } from '../payment/payment.module';
import { TaskModule } from '../task/task.module';
import { UploadModule } from '../upload/upload.module';
import { SandboxBalanceController } from './controllers/sandbox-balance.controller';
import { SandboxSmsController } from './controllers/sandbox-sms.controller';
import { SandboxWorkersController } from './controllers/sandbox-workers.controller';
import { TestClocksController } from './controllers/test-clocks.controller';
import { ClockAdvance } from './services/clock-advance';
import { ProviderSandboxClient } from './services/provider-sandbox-client';
import { SandboxFundingService } from './services/sandbox-funding.service';
import { SandboxSmsService } from './services/sandbox-sms.service';
import { SandboxWorkersService } from './services/sandbox-workers.service';
import { SimulationQueue } from './services/simulation-queue';
import { TestClocksService } from './services/test-clocks.service';
import { WorkerSimulator } from './services/worker-simulator';

/**
 * The sandbox that runs by itself (product-decisions §12): instant test funding, simulated workers and test clocks, for
 * agents on `lw_test_` keys, and the SMS outbox workers read (product-decisions §16). Loaded in sandbox mode only: in live mode nothing of it exists, so its routes answer 404
 * like any unknown path. (`src/sandbox` is the other sandbox: the payment providers' simulators, a separate server.)
 * The job-runner process loads it too (jobs.main.ts), so simulated workers act wherever jobs run.
 */
@Module({})
export class SimulationModule {
  static register(config: AppConfig): DynamicModule {
    if (config.paymentMode !== 'sandbox') return { module: SimulationModule };
    return {
      module: SimulationModule,
      imports: [
        EscrowModule,
        PaymentModule,
        TaskModule,
        DisputesModule,
        MatchingModule,
        EventsModule,
        UploadModule,
        JobsModule,
        NotificationsModule,
      ],
      controllers: [
        SandboxBalanceController,
        SandboxWorkersController,
        TestClocksController,
        SandboxSmsController,
      ],
      providers: [
        SandboxSmsService,
        ProviderSandboxClient,
        SandboxFundingService,
        SimulationQueue,
        WorkerSimulator,
        SandboxWorkersService,
        ClockAdvance,
        TestClocksService,
      ],
    };
  }
}
