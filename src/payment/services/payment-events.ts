import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventData, OrderEventName, RefundEventName } from '../../events/event-catalog';
import { writeEvent } from '../../events/outbox';
import type { OrderRow, RefundRow } from '../payment.repository';

/**
 * Payment and refund events for the outbox (writeEvent), in the transaction of the change they describe; the events
 * module delivers them to webhooks and to the order's callback_url, which rides along in `data` and is not part of
 * the public payload. `transaction_id` is the provider's id of the payment (or refund) once known.
 */
@Injectable()
export class PaymentEvents {
  async order(em: EntityManager, name: OrderEventName, o: OrderRow, now: Date): Promise<void> {
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

  private async write<N extends OrderEventName | RefundEventName>(
    em: EntityManager,
    name: N,
    o: OrderRow,
    now: Date,
    data: EventData[N],
  ): Promise<void> {
    const withCallback = o.callback_url ? { ...data, callback_url: o.callback_url } : data;
    await writeEvent(em, { name, agentId: o.agent_id, taskId: o.task_id, data: withCallback, at: now });
  }
}
