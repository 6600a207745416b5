import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from '../../common/logging/logger';
import { sqlRows } from '../../database/sql';
import { PaymentProviders } from '../providers/payment-providers';
import type {
  NotificationAck,
  ProviderName,
  ProviderNotification,
  RawNotification,
} from '../providers/provider.types';
import { findOrder } from '../payment.repository';
import { OrderSettlement } from './order-settlement';
import { RefundSettlement } from './refund-settlement';
import { WithdrawalSettlement } from './withdrawal-settlement';
import { paymentNotifications } from '../../observability/metrics';

/**
 * Provider notifications (Alipay form posts, WeChat Pay APIv3 JSON), verified by the provider's SDK over the raw
 * body: signature, freshness, our app or merchant id, and the amount we expect for the order, refund or transfer it
 * names. Anything that fails verification changes nothing and gets the provider's failure answer (so a genuine
 * message is redelivered); a verified one is applied through the settlement services, whose conditional updates
 * and ledger references make every redelivery a no-op, and is acknowledged.
 */
@Injectable()
export class NotificationService {
  constructor(
    private readonly ds: DataSource,
    private readonly providers: PaymentProviders,
    private readonly orders: OrderSettlement,
    private readonly refunds: RefundSettlement,
    private readonly withdrawals: WithdrawalSettlement,
    private readonly logger: Logger,
  ) {}

  async handle(name: ProviderName, raw: RawNotification): Promise<NotificationAck> {
    const provider = this.providers.find(name);
    if (!provider) return this.providers.refuser(name).refuse('provider not enabled', 404);
    const result = await provider.verifyNotification(raw, (n) => this.expectedAmount(name, n));
    if (!result.ok) {
      this.logger.warn({ provider: name, failure: result.failure }, 'provider notification refused');
      paymentNotifications.inc({ provider: name, outcome: 'refused' });
      return provider.acknowledge(result);
    }
    try {
      await this.apply(result.notification);
    } catch (err) {
      // Verified but not applied (e.g. the database is away): answer failure so the provider delivers it again.
      this.logger.error(
        { err, provider: name, notification: result.notification },
        'notification not applied',
      );
      paymentNotifications.inc({ provider: name, outcome: 'failed' });
      return provider.refuse('temporarily unable to process the notification', 500);
    }
    paymentNotifications.inc({ provider: name, outcome: 'applied' });
    return provider.acknowledge(result);
  }

  /** The amount we expect for what a notification names, from the provider it came from; null if unknown. */
  private async expectedAmount(provider: ProviderName, n: ProviderNotification): Promise<number | null> {
    const [sql, id] =
      n.kind === 'payment'
        ? [
            `SELECT provider_amount_cents AS cents FROM payment_orders WHERE id = $1 AND provider = $2`,
            n.orderId,
          ]
        : n.kind === 'refund'
          ? [
              `SELECT r.provider_amount_cents AS cents FROM payment_refunds r
                 JOIN payment_orders o ON o.id = r.order_id WHERE r.id = $1 AND o.provider = $2`,
              n.refundId,
            ]
          : [`SELECT amount_cents AS cents FROM withdrawals WHERE id = $1 AND provider = $2`, n.transferId];
    const rows = await sqlRows<{ cents: string }>(this.ds, sql, [id, provider]);
    return rows.length ? Number(rows[0].cents) : null;
  }

  private async apply(n: ProviderNotification): Promise<void> {
    if (n.kind === 'payment') {
      const order = await findOrder(this.ds, n.orderId);
      if (!order) return;
      await this.orders.apply(order, {
        orderId: n.orderId,
        providerTxnId: n.providerTxnId,
        status: n.status,
        amountCents: n.amountCents,
        paidAt: n.paidAt,
        refunded: false,
      });
      return;
    }
    if (n.kind === 'refund') {
      await this.refunds.apply(n.refundId, {
        orderId: n.orderId,
        refundId: n.refundId,
        providerRefundId: n.providerRefundId,
        amountCents: n.amountCents ?? 0,
        status: n.status,
        succeededAt: null,
      });
      return;
    }
    await this.withdrawals.apply(n.transferId, {
      transferId: n.transferId,
      providerTransferId: n.providerTransferId,
      amountCents: n.amountCents,
      status: n.status,
      failureReason: n.failureReason,
      packageInfo: null,
    });
  }
}
