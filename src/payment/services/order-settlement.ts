import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { PAYMENT_METHOD_TABLE } from '../../common/payment-providers';
import { inTransaction } from '../../database/transaction';
import { sqlRows } from '../../database/sql';
import { Ledger } from '../../escrow/services/ledger';
import { PaymentProviders } from '../providers/payment-providers';
import { ProviderError } from '../providers/provider-error';
import type { OrderState } from '../providers/provider.types';
import { PaymentEvents } from './payment-events';
import { findOrder, type OrderRow, toOrder } from '../payment.repository';

export interface ProviderPayment {
  providerTxnId: string;
  amountCents: number;
  paidAt: Date | null;
}

/**
 * The transitions of a payment order out of pending, whoever learns of them first: a provider notification, a
 * status query, the expiry sweep or reconciliation. Each is one conditional UPDATE (`WHERE status IN ('pending',
 * 'processing')`) and, for a payment, a ledger deposit (one per order: its journal reference is the order's), in one
 * transaction: however many deliveries or sweeps race, the agent is credited once and one event is written.
 */
@Injectable()
export class OrderSettlement {
  constructor(
    private readonly ds: DataSource,
    private readonly ledger: Ledger,
    private readonly events: PaymentEvents,
    private readonly providers: PaymentProviders,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * The provider (or an operator, for a bank transfer) reports the order paid; returns true when this call completed
   * the order. The one authoritative amount check: the conditional UPDATE completes the order only when the paid
   * amount is its provider amount, in the transaction that credits it, whichever path brought the report
   * (notification, query, reconciliation, operator). A wrong amount completes nothing and is logged as an error.
   * `also` runs in the same transaction when this call completes the order (an operator's audit entry).
   */
  async complete(
    orderId: string,
    paid: ProviderPayment,
    also?: (em: EntityManager, order: OrderRow) => Promise<void>,
  ): Promise<boolean> {
    return inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const rows = await sqlRows(
        em,
        `UPDATE payment_orders
            SET status = 'completed', paid_at = $2, provider_txn_id = $3, updated_at = $4
          WHERE id = $1 AND status IN ('pending', 'processing') AND provider_amount_cents = $5
          RETURNING *`,
        [orderId, paid.paidAt ?? now, paid.providerTxnId, now, paid.amountCents],
      );
      if (rows.length === 0) {
        await this.reportUnapplied(em, orderId, paid);
        return false;
      }
      const order = toOrder(rows[0]);
      await this.ledger.deposit(em, {
        agentId: order.agent_id,
        orderId: order.id,
        amountCents: order.provider_amount_cents,
        provider: order.provider,
        taskId: order.task_id ?? undefined,
        description: describe(order),
      });
      await this.events.order(em, 'payment.completed', order, now);
      await also?.(em, order);
      return true;
    });
  }

  /**
   * A paid report that changed nothing is normally a redelivery (the order is completed already). A paid amount
   * other than the order's is never credited: the money sits at the provider and an operator must look. An order
   * closed here but paid at the provider cannot happen while orders are closed at the provider before they expire
   * here; if it ever does, an operator must settle it too. Both are logged as errors.
   */
  private async reportUnapplied(em: EntityManager, orderId: string, paid: ProviderPayment): Promise<void> {
    // On the transaction's own connection: a redelivery that lost the race must not ask the pool for a second one.
    const order = await findOrder(em, orderId);
    if (order && order.provider_amount_cents !== paid.amountCents) {
      this.logger.error(
        { orderId, expected: order.provider_amount_cents, reported: paid.amountCents },
        'provider reports a paid amount that differs from the order: not credited',
      );
    } else if (order && (order.status === 'failed' || order.status === 'expired')) {
      this.logger.error(
        { orderId, status: order.status, providerTxnId: paid.providerTxnId },
        'payment reported paid by the provider for an order closed here: operator action needed',
      );
    }
  }

  /** The order ended unpaid (`failed`: declined or refused; `expired`: its link ran out). */
  async close(orderId: string, outcome: 'failed' | 'expired', reason: string): Promise<boolean> {
    return inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const rows = await sqlRows(
        em,
        `UPDATE payment_orders SET status = $2, failure_reason = $3, closed_at = $4, updated_at = $4
          WHERE id = $1 AND status IN ('pending', 'processing') RETURNING *`,
        [orderId, outcome, reason.slice(0, 200), now],
      );
      if (rows.length === 0) return false;
      await this.events.order(
        em,
        outcome === 'failed' ? 'payment.failed' : 'payment.expired',
        toOrder(rows[0]),
        now,
      );
      return true;
    });
  }

  /**
   * Asks the provider about an open order and applies the answer. Provider trouble is logged and leaves the order
   * as it is (a later query, the expiry sweep or reconciliation will ask again). Returns the order as stored after.
   */
  async syncFromProvider(order: OrderRow): Promise<OrderRow> {
    if (order.status !== 'pending' && order.status !== 'processing') return order;
    const provider = this.providers.find(order.provider);
    if (!provider) return order;
    try {
      await this.apply(order, await provider.queryOrder(order.id));
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.logger.warn({ err, orderId: order.id }, 'payment order query failed');
    }
    return (await findOrder(this.ds, order.id)) ?? order;
  }

  /** Applies what the provider says about an order (null: the provider does not know it yet). */
  async apply(order: OrderRow, state: OrderState | null): Promise<void> {
    if (!state || state.status === 'pending') return;
    if (state.status === 'paid') {
      // A redelivery about an order already paid here changes nothing: answer it without opening a transaction
      // (a replay storm then costs one read per copy). Any other amount still goes through complete(), which
      // refuses and reports it.
      const settled = order.status === 'completed' || order.status === 'refunded';
      if (settled && order.provider_amount_cents === state.amountCents) return;
      // The amount is checked by complete(), for every path alike.
      if (!state.providerTxnId) {
        this.logger.error(
          { orderId: order.id },
          'provider reports the order paid without its transaction id',
        );
        return;
      }
      const paid = {
        providerTxnId: state.providerTxnId,
        amountCents: state.amountCents,
        paidAt: state.paidAt,
      };
      await this.complete(order.id, paid);
      return;
    }
    if (state.status === 'failed') {
      await this.close(order.id, 'failed', 'the payment failed at the provider');
      return;
    }
    const expired = this.clock.now().getTime() >= order.expires_at.getTime();
    await this.close(order.id, expired ? 'expired' : 'failed', 'closed at the provider');
  }
}

function describe(order: OrderRow): string {
  const via = PAYMENT_METHOD_TABLE[order.payment_method].label;
  const usd = order.currency === 'USD' ? ` (USD ${order.amount_cents / 100})` : '';
  return order.task_id
    ? `Payment for task ${order.task_id} via ${via}${usd}, order ${order.id}`
    : `Recharge via ${via}, order ${order.id}`;
}
