import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../common/idempotency/idempotency.module';
import { AccountViewsService } from './account-views.service';
import { AdminCreditService } from './admin-credit.service';
import { AgentTransactionsService } from './agent-transactions.service';
import { BalanceService } from './balance.service';
import { AdminLedgerController } from './controllers/admin-ledger.controller';
import { AgentTransactionsController } from './controllers/agent-transactions.controller';
import { PaymentBalanceController } from './controllers/payment-balance.controller';
import { ReferencePaymentController } from './controllers/reference-payment.controller';
import { WorkerBalanceController } from './controllers/worker-balance.controller';
import { LedgerReportService } from './ledger-report.service';
import { LedgerService } from './ledger.service';

/**
 * Owns money: the double-entry ledger, the fee policy and the invariant check, and the read side of it (balances
 * and transaction history) that other modules reuse through BalanceService and AgentTransactionsService.
 */
@Module({
  imports: [IdempotencyModule],
  controllers: [
    AdminLedgerController,
    PaymentBalanceController,
    ReferencePaymentController,
    AgentTransactionsController,
    WorkerBalanceController,
  ],
  providers: [
    LedgerService,
    BalanceService,
    AgentTransactionsService,
    AccountViewsService,
    AdminCreditService,
    LedgerReportService,
  ],
  exports: [LedgerService, BalanceService, AgentTransactionsService],
})
export class EscrowModule {}
