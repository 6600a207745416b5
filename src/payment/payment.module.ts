import { Module } from '@nestjs/common';
import { EscrowModule } from '../escrow/escrow.module';
import { EventsModule } from '../events/events.module';
import { AdminPaymentsController } from './controllers/admin-payments.controller';
import { AgentPaymentsController } from './controllers/agent-payments.controller';
import { PaymentInfoController } from './controllers/payment-info.controller';
import { ReferenceOrdersController } from './controllers/reference-orders.controller';
import { PaymentV1Controller } from './controllers/payment-v1.controller';
import { ProviderCallbacksController } from './controllers/provider-callbacks.controller';
import { WithdrawalController } from './controllers/withdrawal.controller';
import { WorkerWithdrawalsController } from './controllers/worker-withdrawals.controller';
import { PaymentEvents } from './services/payment-events';
import { PaymentProvidersModule } from './providers/payment-providers';
import { AdminPaymentsService } from './services/admin-payments.service';
import { NotificationService } from './services/notification.service';
import { OrderCreation } from './services/order-creation';
import { OrderSettlement } from './services/order-settlement';
import { PaymentExpiry } from './services/payment-expiry';
import { PaymentHealthService } from './services/payment-health.service';
import { PaymentOrdersService } from './services/payment-orders.service';
import { PaymentReconciliation } from './services/payment-reconciliation';
import { ReferencePaymentsService } from './services/reference-payments.service';
import { SandboxBuyer } from './services/sandbox-buyer';
import { RefundSettlement } from './services/refund-settlement';
import { RefundService } from './services/refund.service';
import { WithdrawalSettlement } from './services/withdrawal-settlement';
import { WithdrawalService } from './services/withdrawal.service';

/**
 * Money in and out through the payment providers: recharge and task payment orders (Alipay, WeChat Pay, card via the
 * Alipay cashier, bank transfer confirmed by an operator), refunds to the payer, worker withdrawals, provider
 * notifications, expiry and reconciliation. Money itself moves only through the ledger (EscrowModule).
 * PaymentExpiry and PaymentReconciliation are exported for the scheduled jobs, OrderCreation and OrderSettlement
 * for the sandbox's instant funding (a real order, settled like any other).
 */
@Module({
  imports: [EscrowModule, EventsModule, PaymentProvidersModule],
  controllers: [
    PaymentV1Controller,
    AgentPaymentsController,
    ReferenceOrdersController,
    WithdrawalController,
    WorkerWithdrawalsController,
    PaymentInfoController,
    ProviderCallbacksController,
    AdminPaymentsController,
  ],
  providers: [
    PaymentEvents,
    OrderSettlement,
    SandboxBuyer,
    OrderCreation,
    PaymentOrdersService,
    ReferencePaymentsService,
    RefundSettlement,
    RefundService,
    WithdrawalSettlement,
    WithdrawalService,
    NotificationService,
    PaymentExpiry,
    PaymentReconciliation,
    PaymentHealthService,
    AdminPaymentsService,
  ],
  exports: [PaymentExpiry, PaymentReconciliation, OrderCreation, OrderSettlement],
})
export class PaymentModule {}
