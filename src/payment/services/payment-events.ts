import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sqlExec } from '../../database/sql';
import type { OrderRow, RefundRow } from '../payment.repository';

export type PaymentEventName = 'payment.created' | 'payment.completed' | 'payment.failed' | 'payment.expired';
export type RefundEventName = 'refund.created' | 'refund.completed' | 'refund.failed';

/**
 * Payment and refund events, written to the `events` outbox in the transaction of the change they describe (so an
 * event exists exactly when its change committed); the events module delivers them to webhooks and to the order's
 * callback_url, which rides along in `data` and is not part of the public payload.
 * `transaction_id` is the provider's id of the payment (or refund) once known.
 */
@Injectable()
export class PaymentEvents {
  async order(em: EntityManager, name: PaymentEventName, o: OrderRow, now: Date): Promise<void> {
    await this.write(em, name, o, now, {
      order_id: o.id,
      task_id: o.task_id,
      amount: o.amount_cents,
      currency: o.currency,
      payment_method: o.payment_method,
      status: o.status,
      transaction_id: o.provider_txn_id,
    });
  }

  async refund(
    em: EntityManager,
    name: RefundEventName,
    o: OrderRow,
    r: RefundRow,
    now: Date,
  ): Promise<void> {
    await this.write(em, name, o, now, {
      order_id: o.id,
      refund_id: r.id,
      task_id: o.task_id,
      amount: r.amount_cents,
      currency: o.currency,
      payment_method: o.payment_method,
      status: r.status,
      transaction_id: r.provider_refund_id,
    });
  }

  private async write(
    em: EntityManager,
    name: string,
    o: OrderRow,
    now: Date,
    data: Record<string, unknown>,
  ): Promise<void> {
    const withCallback = o.callback_url ? { ...data, callback_url: o.callback_url } : data;
    await sqlExec(
      em,
      `INSERT INTO events (name, agent_id, task_id, data, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [name, o.agent_id, o.task_id, JSON.stringify(withCallback), now],
    );
  }
}
