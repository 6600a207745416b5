import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { recordOperatorAction, type AuditActor } from '../../audit/operator-audit';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import type { PaymentStatusResponse } from '../dtos/payment-v1.dto';
import { orderStatusView } from '../payment-views';
import { findOrder } from '../payment.repository';
import { orderNotFound } from './payment-orders.service';
import { OrderSettlement } from './order-settlement';

/**
 * Bank transfers have no provider to notify us: an operator who sees the money arrive confirms the order, which
 * completes it exactly as a provider notification would (same conditional update, same deposit journal,
 * from the bank clearing account) and writes the operator's audit entry in that transaction. The bank's reference
 * becomes the order's transaction id.
 */
@Injectable()
export class AdminPaymentsService {
  constructor(
    private readonly ds: DataSource,
    private readonly settlement: OrderSettlement,
    private readonly clock: Clock,
  ) {}

  async confirmBankTransfer(
    who: AuditActor,
    orderId: string,
    bankReference: string,
  ): Promise<PaymentStatusResponse> {
    const order = await findOrder(this.ds, orderId);
    if (!order) throw orderNotFound();
    if (
      order.payment_method !== 'bank_transfer' ||
      (order.status !== 'pending' && order.status !== 'processing')
    ) {
      throw new ApiError('invalid_state', 'Only an open bank_transfer order can be confirmed.', {
        current_status: order.status,
      });
    }
    const used = await sqlRows(
      this.ds,
      `SELECT 1 FROM payment_orders WHERE provider = 'bank' AND provider_txn_id = $1`,
      [bankReference],
    );
    if (used.length) throw new ApiError('conflict', 'This bank reference already confirmed another order.');
    const paidAt = this.clock.now();
    await this.settlement.complete(
      order.id,
      { providerTxnId: bankReference, amountCents: order.provider_amount_cents, paidAt },
      (em, completed) =>
        recordOperatorAction(
          em,
          who,
          {
            action: 'payment_order.bank_transfer_confirmed',
            target: { type: 'payment_order', id: completed.id },
            before: { status: order.status },
            after: {
              status: completed.status,
              agent_id: completed.agent_id,
              amount_cents: completed.provider_amount_cents,
              bank_reference: bankReference,
            },
          },
          paidAt,
        ),
    );
    const after = (await findOrder(this.ds, order.id))!;
    if (after.status !== 'completed') {
      throw new ApiError('invalid_state', 'The order closed before it was confirmed.', {
        current_status: after.status,
      });
    }
    return orderStatusView(after);
  }
}
