import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { EscrowModule } from '../escrow/escrow.module';
import { PaymentModule } from '../payment/payment.module';
import { SandboxBalanceController } from './controllers/sandbox-balance.controller';
import { ProviderSandboxClient } from './services/provider-sandbox-client';
import { SandboxFundingService } from './services/sandbox-funding.service';

/**
 * The sandbox that runs by itself (decisions §12): instant test funding, simulated workers and test clocks, for
 * agents on `lw_test_` keys. Loaded in sandbox mode only: in live mode nothing of it exists, so its routes answer 404
 * like any unknown path. (`src/sandbox` is the other sandbox: the payment providers' simulators, a separate server.)
 */
@Module({})
export class SimulationModule {
  static register(config: AppConfig): DynamicModule {
    if (config.paymentMode !== 'sandbox') return { module: SimulationModule };
    return {
      module: SimulationModule,
      imports: [EscrowModule, PaymentModule],
      controllers: [SandboxBalanceController],
      providers: [ProviderSandboxClient, SandboxFundingService],
    };
  }
}
