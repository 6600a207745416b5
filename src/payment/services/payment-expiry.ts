import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { sqlRows } from '../../database/sql';
import { PaymentProviders } from '../providers/payment-providers';
import { ProviderError } from '../providers/provider-error';
import { type OrderRow, toOrder } from '../payment.repository';
import { OrderSettlement } from './order-settlement';

export interface ExpiryResult {
  expired: number;
  /** Orders found paid at the provider while closing them (credited instead). */
  completed: number;
  /** Orders left for the next run because the provider did not answer. */
  skipped: number;
}

/**
 * Expires unpaid orders whose link ran out (a scheduled job calls `expireDue()`). An order is first closed at the
 * provider, and only marked expired once the provider confirms it can no longer be paid; if the provider says it
 * was paid meanwhile, it is completed instead. So an order expired here never receives money afterwards.
 */
@Injectable()
export class PaymentExpiry {
  constructor(
    private readonly ds: DataSource,
    private readonly providers: PaymentProviders,
    private readonly settlement: OrderSettlement,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async expireDue(batch = 100): Promise<ExpiryResult> {
    const rows = await sqlRows(
      this.ds,
      `SELECT * FROM payment_orders WHERE status IN ('pending', 'processing') AND expires_at <= $1
        ORDER BY expires_at LIMIT $2`,
      [this.clock.now(), batch],
    );
    const result: ExpiryResult = { expired: 0, completed: 0, skipped: 0 };
    for (const order of rows.map(toOrder)) {
      const outcome = await this.expireOne(order);
      result[outcome] += 1;
    }
    return result;
  }

  private async expireOne(order: OrderRow): Promise<keyof ExpiryResult> {
    const provider = this.providers.find(order.provider);
    if (provider) {
      try {
        await provider.closeOrder(order.id);
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        if (err.kind !== 'rejected') {
          this.logger.warn({ err, orderId: order.id }, 'closing an expired order failed; retrying later');
          return 'skipped';
        }
        // Refused: already paid or already closed there. Whatever it is, apply it.
        const after = await this.settlement.syncFromProvider(order);
        if (after.status === 'completed') return 'completed';
        if (after.status === 'expired' || after.status === 'failed') return 'expired';
        return 'skipped';
      }
    }
    await this.settlement.close(order.id, 'expired', 'the payment link expired');
    return 'expired';
  }
}
