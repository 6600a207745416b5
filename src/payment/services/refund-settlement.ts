import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { Ledger } from '../../escrow/services/ledger';
import { PaymentProviders } from '../providers/payment-providers';
import { ProviderError } from '../providers/provider-error';
import type { RefundState } from '../providers/provider.types';
import { PaymentEvents } from './payment-events';
import { findOrder, type OrderRow, type RefundRow, toOrder, toRefund } from '../payment.repository';

/**
 * Where a refund ends: `completed` when the provider confirms it, `failed` when the provider refuses or fails it,
 * which returns its amount to the agent's balance (Ledger.reverseRefundToPayer) and to the order's
 * refundable amount. Each is a conditional UPDATE from `processing`, so a notification, the request itself and
 * reconciliation can all report the same outcome and it is applied once.
 */
@Injectable()
export class RefundSettlement {
  constructor(
    private readonly ds: DataSource,
    private readonly ledger: Ledger,
    private readonly events: PaymentEvents,
    private readonly providers: PaymentProviders,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * Sends the refund to the provider (idempotent by the refund id, so a repeat is safe) and applies the answer.
   * An unknown outcome leaves the refund processing for reconciliation.
   */
  async send(order: OrderRow, refund: RefundRow): Promise<void> {
    const provider = this.providers.find(order.provider);
    if (!provider) return;
    try {
      const state = await provider.refund({
        orderId: order.id,
        refundId: refund.id,
        amountCents: refund.provider_amount_cents,
        orderAmountCents: order.provider_amount_cents,
        reason: refund.reason,
      });
      await this.apply(refund.id, state);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.logger.warn({ err, refundId: refund.id }, 'provider refund request failed');
      if (!err.outcomeUnknown)
        await this.fail(refund.id, `refused by the provider: ${err.providerCode ?? err.kind}`);
    }
  }

  async apply(refundId: string, state: RefundState | null): Promise<void> {
    if (!state || state.status === 'processing') return;
    if (state.status === 'succeeded') await this.complete(refundId, state.providerRefundId);
    else await this.fail(refundId, 'failed at the provider');
  }

  async complete(refundId: string, providerRefundId: string | null): Promise<boolean> {
    return inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const rows = await sqlRows(
        em,
        `UPDATE payment_refunds
            SET status = 'completed', completed_at = $2, updated_at = $2,
                provider_refund_id = COALESCE($3, provider_refund_id)
          WHERE id = $1 AND status = 'processing' RETURNING *`,
        [refundId, now, providerRefundId],
      );
      if (rows.length === 0) return false;
      const refund = toRefund(rows[0]);
      const order = (await findOrder(em, refund.order_id))!;
      await this.events.refund(em, 'refund.completed', order, refund, now);
      return true;
    });
  }

  /** Locks the order before the refund, the same order as the request, so the two cannot deadlock. */
  async fail(refundId: string, reason: string): Promise<boolean> {
    return inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const [{ order_id }] = await sqlRows<Pick<RefundRow, 'order_id'>>(
        em,
        `SELECT order_id FROM payment_refunds WHERE id = $1`,
        [refundId],
      );
      await findOrder(em, order_id, { lock: true });
      const rows = await sqlRows(
        em,
        `UPDATE payment_refunds SET status = 'failed', failed_at = $2, updated_at = $2, failure_reason = $3
          WHERE id = $1 AND status = 'processing' RETURNING *`,
        [refundId, now, reason.slice(0, 200)],
      );
      if (rows.length === 0) return false;
      const refund = toRefund(rows[0]);
      const [orderRow] = await sqlRows(
        em,
        `UPDATE payment_orders
            SET refunded_cents = refunded_cents - $2, provider_refunded_cents = provider_refunded_cents - $3,
                status = CASE WHEN status = 'refunded' THEN 'completed' ELSE status END, updated_at = $4
          WHERE id = $1 RETURNING *`,
        [refund.order_id, refund.amount_cents, refund.provider_amount_cents, now],
      );
      const order = toOrder(orderRow);
      await this.ledger.reverseRefundToPayer(em, {
        agentId: order.agent_id,
        refundId: refund.id,
        orderId: order.id,
        amountCents: refund.provider_amount_cents,
        provider: order.provider,
      });
      await this.events.refund(em, 'refund.failed', order, refund, now);
      return true;
    });
  }
}
