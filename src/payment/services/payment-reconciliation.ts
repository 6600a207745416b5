import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
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
    @InjectDataSource() private readonly ds: DataSource,
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
    const rows = await sqlRows(
      this.ds,
      `SELECT * FROM payment_refunds WHERE status = 'processing' AND created_at <= $1 ORDER BY created_at LIMIT $2`,
      [before, BATCH],
    );
    let changed = 0;
    for (const refund of rows.map(toRefund)) {
      const order = (await findOrder(this.ds, refund.order_id))!;
      const provider = this.providers.find(order.provider);
      if (!provider) continue;
      try {
        const state = await provider.queryRefund(order.id, refund.id);
        if (state) await this.refunds.apply(refund.id, state);
        else await this.refunds.send(order, refund);
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        this.logger.warn({ err, refundId: refund.id }, 'refund query failed; retrying later');
      }
      changed += await this.changed(
        `SELECT status FROM payment_refunds WHERE id = $1`,
        refund.id,
        'processing',
      );
    }
    return changed;
  }

  private async reconcileWithdrawals(before: Date): Promise<number> {
    const rows = await sqlRows(
      this.ds,
      `SELECT * FROM withdrawals WHERE status = 'processing' AND updated_at <= $1 ORDER BY updated_at LIMIT $2`,
      [before, BATCH],
    );
    let changed = 0;
    for (const w of rows.map(toWithdrawal)) {
      const provider = this.providers.find(w.provider);
      if (!provider) continue;
      try {
        const state = await provider.queryTransfer(w.id);
        if (state) await this.withdrawals.apply(w.id, state);
        else await this.withdrawals.transfer(w);
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        this.logger.warn({ err, withdrawalId: w.id }, 'transfer query failed; retrying later');
      }
      changed += await this.changed(`SELECT status FROM withdrawals WHERE id = $1`, w.id, 'processing');
    }
    return changed;
  }

  private async changed(sql: string, id: string, from: string): Promise<number> {
    const [row] = await sqlRows<{ status: string }>(this.ds, sql, [id]);
    return row.status === from ? 0 : 1;
  }
}
