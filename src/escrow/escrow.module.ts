import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { AccountViewsService } from './services/account-views.service';
import { AdminCreditService } from './services/admin-credit.service';
import { AgentTransactions } from './services/agent-transactions';
import { Balances } from './services/balances';
import { AdminLedgerController } from './controllers/admin-ledger.controller';
import { AdminReportsController } from './controllers/admin-reports.controller';
import { AgentTransactionsController } from './controllers/agent-transactions.controller';
import { PaymentBalanceController } from './controllers/payment-balance.controller';
import { ReferenceBalanceController } from './controllers/reference-balance.controller';
import { WorkerBalanceController } from './controllers/worker-balance.controller';
import { LedgerReportService } from './services/ledger-report.service';
import { Ledger } from './services/ledger';
import { SpendCapsLedger } from './services/spend-caps';
import { WorkerIncomeReport } from './services/worker-income-report';

/**
 * Owns money: the double-entry ledger, the fee policy and the invariant check, and the read side of it (balances
 * and transaction history) that other modules reuse through Balances and AgentTransactions.
 */
@Module({
  imports: [IdempotencyModule],
  controllers: [
    AdminLedgerController,
    AdminReportsController,
    PaymentBalanceController,
    ReferenceBalanceController,
    AgentTransactionsController,
    WorkerBalanceController,
  ],
  providers: [
    Ledger,
    Balances,
    AgentTransactions,
    AccountViewsService,
    AdminCreditService,
    LedgerReportService,
    SpendCapsLedger,
    WorkerIncomeReport,
  ],
  exports: [Ledger, Balances, AgentTransactions, SpendCapsLedger],
})
export class EscrowModule {}
