import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { ONLINE_PROVIDER_NAMES } from '../../common/payment-providers';
import { sqlRows } from '../../database/sql';
import { PaymentProviders } from '../providers/payment-providers';
import { ProviderError } from '../providers/provider-error';
import { findOrder, toOrder, toRefund, toWithdrawal } from '../payment.repository';
import { OrderSettlement } from './order-settlement';
import { RefundSettlement } from './refund-settlement';
import { WithdrawalSettlement } from './withdrawal-settlement';

export interface ReconcileResult {
  orders: number;
  refunds: number;
  withdrawals: number;
}

/** Items younger than this are still in their own request or notification; reconciliation leaves them alone. */
const DEFAULT_MIN_AGE_MS = 60_000;
const BATCH = 200;

/** The tables of the requests sent to a provider that can stay `processing`: refunds and payouts. */
type ProviderRequestTable = 'payment_refunds' | 'withdrawals';

/**
 * Asks the providers about everything left open: orders still pending (a lost notification), refunds and payouts
 * still processing (a timeout). Each answer goes through the same settlement services as a notification, so it is
 * applied exactly once whoever reports it first. A refund or transfer the provider has never heard of (the request
 * was lost) is sent again with the same merchant id, which the providers treat as the same request.
 * A scheduled job calls `reconcile()`; counts are of items whose state changed.
 */
@Injectable()
export class PaymentReconciliation {
  constructor(
    private readonly ds: DataSource,
    private readonly providers: PaymentProviders,
    private readonly orders: OrderSettlement,
    private readonly refunds: RefundSettlement,
    private readonly withdrawals: WithdrawalSettlement,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async reconcile(minAgeMs = DEFAULT_MIN_AGE_MS): Promise<ReconcileResult> {
    const before = new Date(this.clock.now().getTime() - minAgeMs);
    return {
      orders: await this.reconcileOrders(before),
      refunds: await this.reconcileRefunds(before),
      withdrawals: await this.reconcileWithdrawals(before),
    };
  }

  private async reconcileOrders(before: Date): Promise<number> {
    const rows = await sqlRows(
      this.ds,
      `SELECT * FROM payment_orders WHERE status IN ('pending', 'processing') AND provider = ANY($3)
          AND created_at <= $1 ORDER BY created_at LIMIT $2`,
      [before, BATCH, ONLINE_PROVIDER_NAMES],
    );
    let changed = 0;
    for (const order of rows.map(toOrder)) {
      const after = await this.orders.syncFromProvider(order);
      if (after.status !== order.status) changed += 1;
    }
    return changed;
  }

  private async reconcileRefunds(before: Date): Promise<number> {
    let changed = 0;
    for (const refund of (await this.stillProcessing('payment_refunds', 'created_at', before)).map(
      toRefund,
    )) {
      const order = (await findOrder(this.ds, refund.order_id))!;
      const provider = this.providers.find(order.provider);
      if (!provider) continue;
      changed += await this.askAgain({
        table: 'payment_refunds',
        id: refund.id,
        query: () => provider.queryRefund(order.id, refund.id),
        apply: (state) => this.refunds.apply(refund.id, state),
        resend: () => this.refunds.send(order, refund),
        onFailure: [{ refundId: refund.id }, 'refund query failed; retrying later'],
      });
    }
    return changed;
  }

  private async reconcileWithdrawals(before: Date): Promise<number> {
    let changed = 0;
    for (const w of (await this.stillProcessing('withdrawals', 'updated_at', before)).map(toWithdrawal)) {
      const provider = this.providers.find(w.provider);
      if (!provider) continue;
      changed += await this.askAgain({
        table: 'withdrawals',
        id: w.id,
        query: () => provider.queryTransfer(w.id),
        apply: (state) => this.withdrawals.apply(w.id, state),
        resend: () => this.withdrawals.transfer(w),
        onFailure: [{ withdrawalId: w.id }, 'transfer query failed; retrying later'],
      });
    }
    return changed;
  }

  /** Refunds or payouts sent to a provider and still `processing` since before `before`, oldest first. */
  private stillProcessing(
    table: ProviderRequestTable,
    since: 'created_at' | 'updated_at',
    before: Date,
  ): Promise<Record<string, unknown>[]> {
    return sqlRows(
      this.ds,
      `SELECT * FROM ${table} WHERE status = 'processing' AND ${since} <= $1 ORDER BY ${since} LIMIT $2`,
      [before, BATCH],
    );
  }

  /**
   * One refund or payout still processing: the provider's answer is applied; a request it has never heard of (it
   * was lost) is sent again with the same merchant id; a provider error leaves it for the next run. Returns 1 when
   * the item has left `processing`, whoever moved it.
   */
  private async askAgain<S>(item: {
    table: ProviderRequestTable;
    id: string;
    query: () => Promise<S | null>;
    apply: (state: S) => Promise<unknown>;
    resend: () => Promise<unknown>;
    /** What to log when the provider fails: the item's id and a message. */
    onFailure: [fields: Record<string, string>, message: string];
  }): Promise<number> {
    try {
      const state = await item.query();
      if (state) await item.apply(state);
      else await item.resend();
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      const [fields, message] = item.onFailure;
      this.logger.warn({ err, ...fields }, message);
    }
    const [row] = await sqlRows<{ status: string }>(
      this.ds,
      `SELECT status FROM ${item.table} WHERE id = $1`,
      [item.id],
    );
    return row.status === 'processing' ? 0 : 1;
  }
}
