import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { isOnline, PAYMENT_METHOD_TABLE } from '../../common/payment-providers';
import { ApiError } from '../../common/errors/api-error';
import type { HeldClaims } from '../../idempotency/idempotency-context';
import { idempotentTransaction } from '../../idempotency/idempotent-transaction';
import { sqlRows } from '../../database/sql';
import { Accounts } from '../../escrow/accounts';
import { Ledger } from '../../escrow/services/ledger';
import { disputeReserveCents } from '../../disputes/dispute-reserve';
import type { ReferenceRefundRequest, ReferenceRefundResponse } from '../dtos/payment-reference.dto';
import type { RefundRequest, RefundResponse } from '../dtos/payment-v1.dto';
import { PaymentEvents } from './payment-events';
import { PaymentProviders } from '../providers/payment-providers';
import { referenceRefundView, refundView } from '../payment-views';
import { newRefundId, type PaymentMethod, refundProviderCents, refundReasonCode } from '../payment-rules';
import {
  findOrder,
  findRefund,
  latestRefund,
  type OrderRow,
  type RefundRow,
  toOrder,
  toRefund,
} from '../payment.repository';
import { orderNotFound } from './payment-orders.service';
import { RefundSettlement } from './refund-settlement';

export interface RefundInput {
  orderId: string;
  /** Cents of the order's currency; undefined refunds what is left. */
  amount?: number;
  reason: string;
  /** The machine-readable form names the order's method; when given it must match. */
  paymentMethod?: PaymentMethod;
  /** Name of the amount field on the calling surface (for validation errors). */
  amountField: string;
}

/**
 * Refunds of completed orders back to the payer through the provider. In one transaction, under the order's row
 * lock (so concurrent refunds queue and their sum can never pass the order): the amount is reserved on the order,
 * the refund is recorded, and the agent's available balance is debited (Ledger.refundToPayer, 402 when it does
 * not cover it: the money is already balance, and spent balance cannot be refunded), all with the request's answer
 * (idempotentTransaction). The provider is asked after commit; its answer completes or fails the refund
 * (RefundSettlement).
 */
@Injectable()
export class RefundService {
  constructor(
    private readonly ds: DataSource,
    private readonly ledger: Ledger,
    private readonly settlement: RefundSettlement,
    private readonly events: PaymentEvents,
    private readonly providers: PaymentProviders,
    private readonly clock: Clock,
  ) {}

  /** POST /v1/payment/refund */
  refundV1(agentId: string, dto: RefundRequest, claims: HeldClaims): Promise<RefundResponse> {
    const input = {
      orderId: dto.order_id,
      amount: dto.refund_amount_cents,
      reason: dto.refund_reason,
      paymentMethod: dto.payment_method,
      amountField: 'refund_amount_cents',
    };
    return this.refund(agentId, input, refundView, claims);
  }

  /** POST /api/v1/payment/refund. A completed order's money is already balance: refund_method balance is refused. */
  async refundReference(
    agentId: string,
    dto: ReferenceRefundRequest,
    claims: HeldClaims,
  ): Promise<ReferenceRefundResponse> {
    if (dto.refund_method === 'balance') {
      throw new ApiError(
        'refund_not_allowed',
        "A completed payment is already in your balance; refund_method balance has nothing to do. Use 'original'.",
      );
    }
    const input = { orderId: dto.order_id, amount: dto.amount, reason: dto.reason, amountField: 'amount' };
    return this.refund(agentId, input, referenceRefundView, claims);
  }

  /**
   * The refund commits with its answer as of the commit (`view` of a processing refund), then the provider is asked
   * and the answer given is the refund as it stands after. A process killed in between leaves the first answer,
   * which a retry with the same Idempotency-Key replays; reconciliation then sends the refund on.
   */
  private async refund<V>(
    agentId: string,
    input: RefundInput,
    view: (o: OrderRow, r: RefundRow) => V,
    claims: HeldClaims,
  ): Promise<V> {
    const { order, refund } = await idempotentTransaction(
      this.ds,
      claims,
      (em) => this.reserve(em, agentId, input),
      (reserved) => view(reserved.order, reserved.refund),
    );
    await this.settlement.send(order, refund);
    return view((await findOrder(this.ds, order.id))!, (await findRefund(this.ds, refund.id))!);
  }

  /** Under the order lock: checks the refund against what is left of the order, then records it. */
  private async reserve(
    em: EntityManager,
    agentId: string,
    input: RefundInput,
  ): Promise<{ order: OrderRow; refund: RefundRow }> {
    const order = await findOrder(em, input.orderId, { lock: true });
    if (!order || order.agent_id !== agentId) throw orderNotFound();
    if (input.paymentMethod && input.paymentMethod !== order.payment_method) {
      throw ApiError.field('payment_method', `is not the order's payment method (${order.payment_method})`);
    }
    await this.checkRefundable(em, order);
    const left = order.amount_cents - order.refunded_cents;
    const amount = input.amount ?? left;
    if (amount > left) {
      throw ApiError.field(input.amountField, `must not exceed what is left of the payment (${left})`);
    }
    const providerCents = refundProviderCents(
      {
        amountCents: order.amount_cents,
        providerAmountCents: order.provider_amount_cents,
        refundedCents: order.refunded_cents,
        providerRefundedCents: order.provider_refunded_cents,
        fxRateMicros: order.fx_rate_micros,
      },
      amount,
    );
    return this.record(em, order, input.reason, amount, providerCents);
  }

  /** The refund row, the order's reserved amounts and the balance debit (402 when short), in one transaction. */
  private async record(
    em: EntityManager,
    order: OrderRow,
    reason: string,
    amount: number,
    providerCents: number,
  ): Promise<{ order: OrderRow; refund: RefundRow }> {
    const now = this.clock.now();
    const id = newRefundId();
    const [refundRow] = await sqlRows(
      em,
      `INSERT INTO payment_refunds (id, order_id, agent_id, amount_cents, provider_amount_cents, reason_code, reason,
                                    refund_method, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'original', 'processing', $8, $8) RETURNING *`,
      [id, order.id, order.agent_id, amount, providerCents, refundReasonCode(reason), reason, now],
    );
    const [orderRow] = await sqlRows(
      em,
      `UPDATE payment_orders
          SET refunded_cents = refunded_cents + $2, provider_refunded_cents = provider_refunded_cents + $3,
              status = CASE WHEN refunded_cents + $2 = amount_cents THEN 'refunded' ELSE status END, updated_at = $4
        WHERE id = $1 RETURNING *`,
      [order.id, amount, providerCents, now],
    );
    const updated = toOrder(orderRow);
    const refund = toRefund(refundRow);
    await this.ledger.refundToPayer(em, {
      agentId: order.agent_id,
      refundId: id,
      orderId: order.id,
      amountCents: providerCents,
      provider: order.provider,
    });
    await this.keepDisputeReserve(em, order.agent_id, providerCents, now);
    await this.events.refund(em, 'refund.created', updated, refund, now);
    return { order: updated, refund };
  }

  /**
   * A refund may not take the balance below what open and still-disputable rejections could cost
   * (product-decisions §19): checked after the debit, under the lock on the agent's balance that the debit took, so
   * no concurrent spend slips between the check and the refund; a refusal rolls the whole refund back.
   */
  private async keepDisputeReserve(em: EntityManager, agentId: string, refunded: number, now: Date) {
    const reserved = await disputeReserveCents(em, agentId, now);
    if (reserved === 0) return;
    const left = await this.ledger.balance(em, Accounts.agentAvailable(agentId));
    if (left >= reserved) return;
    throw new ApiError(
      'insufficient_balance',
      `${reserved} cents of the balance are kept for rejections that may still be disputed; the refund would leave ${left}.`,
      { balance_cents: left + refunded, required_cents: refunded + reserved, reserved_cents: reserved },
    );
  }

  private async checkRefundable(em: EntityManager, order: OrderRow): Promise<void> {
    if (order.status === 'refunded') {
      const last = await latestRefund(em, order.id);
      throw new ApiError('already_refunded', 'The order is already fully refunded.', {
        refund_id: last?.id ?? null,
        refunded_at: (last?.completed_at ?? last?.created_at)?.toISOString() ?? null,
      });
    }
    if (order.status !== 'completed') {
      throw new ApiError(
        'refund_not_allowed',
        `Only completed payments can be refunded (this one is ${order.status}).`,
        {
          current_status: order.status,
        },
      );
    }
    if (!isOnline(order.provider)) {
      const method = PAYMENT_METHOD_TABLE[order.payment_method].label;
      throw new ApiError(
        'refund_not_allowed',
        `${method[0].toUpperCase()}${method.slice(1)} payments are refunded by an operator, not through the API.`,
      );
    }
    // Without the provider the refund could never be sent: refuse rather than hold the agent's money.
    if (!this.providers.find(order.provider)) {
      throw new ApiError(
        'payment_method_unavailable',
        `Refunds through ${order.provider} are not available now.`,
      );
    }
  }
}
