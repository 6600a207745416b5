import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AgentRepository } from '../../agent/agent.repository';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { Logger } from '../../common/logging/logger';
import { PAYMENT_PROVIDERS, providerOf } from '../../common/payment-providers';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { PaymentProviders } from '../providers/payment-providers';
import { ProviderError } from '../providers/provider-error';
import type { CreatedOrder, PaymentProvider } from '../providers/provider.types';
import { PaymentEvents } from './payment-events';
import {
  type Currency,
  DAILY_LIMIT_CENTS,
  LIMITS,
  newOrderId,
  type PaymentMethod,
  type PaymentType,
  utcDayStart,
} from '../payment-rules';
import { findOrder, type OrderRow, toOrder } from '../payment.repository';
import { OrderSettlement } from './order-settlement';
import { SandboxBuyer } from './sandbox-buyer';

/** Everything both surfaces decided about a new order; amounts already converted and checked against the task. */
export interface NewOrder {
  agentId: string;
  taskId: string | null;
  amountCents: number;
  currency: Currency;
  fxRateMicros: number | null;
  providerAmountCents: number;
  method: PaymentMethod;
  type: PaymentType | null;
  /** The smallest provider amount this entry point accepts (recharge 100, otherwise 1000). */
  minCents: number;
  expiresInSeconds: number;
  returnUrl: string | null;
  callbackUrl: string | null;
  metadata: Record<string, unknown>;
  openid?: string;
  clientIp?: string;
}

/**
 * Creates payment orders: checks the per-payment and daily limits, writes the order and its payment.created event
 * in one transaction, then asks the provider for the checkout (QR code, payment URL or JSAPI parameters) after
 * commit, so a slow provider never holds database locks. An order whose checkout the provider refused is failed;
 * one whose outcome is unknown stays pending and is closed at the provider by the expiry sweep.
 */
@Injectable()
export class OrderCreation {
  constructor(
    private readonly ds: DataSource,
    private readonly providers: PaymentProviders,
    private readonly settlement: OrderSettlement,
    private readonly events: PaymentEvents,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly buyer: SandboxBuyer,
  ) {}

  async create(input: NewOrder): Promise<OrderRow> {
    const provider = this.providerFor(input.method);
    this.checkAmount(input);
    const order = await inTransaction(this.ds, (em) => this.insert(em, input));
    if (!provider) return order;
    let created: CreatedOrder;
    try {
      created = await provider.createOrder(input.type!, {
        orderId: order.id,
        amountCents: order.provider_amount_cents,
        subject: input.taskId ? `Legwork task payment ${order.id}` : `Legwork balance recharge ${order.id}`,
        expiresAt: order.expires_at,
        returnUrl: order.return_url ?? undefined,
        openid: input.openid,
        clientIp: input.clientIp,
      });
    } catch (err) {
      throw await this.checkoutFailed(order, err);
    }
    await sqlExec(
      this.ds,
      `UPDATE payment_orders SET payment_url = $2, qr_code_url = $3, jsapi_params = $4 WHERE id = $1`,
      [
        order.id,
        created.paymentUrl,
        created.qrCodeUrl,
        created.jsapiParams ? JSON.stringify(created.jsapiParams) : null,
      ],
    );
    // A page or wap order reaches the provider only through a browser; in sandbox mode the buyer is simulated.
    if (created.paymentUrl && (input.type === 'page' || input.type === 'wap')) {
      await this.buyer.open(order.id, created.paymentUrl);
    }
    return (await findOrder(this.ds, order.id))!;
  }

  /** The client of the provider that takes this method's money; none where an operator confirms it (bank transfer). */
  private providerFor(method: PaymentMethod): PaymentProvider | null {
    const name = providerOf(method);
    if (!PAYMENT_PROVIDERS[name].online) return null;
    const provider = this.providers.find(name);
    if (!provider) {
      throw new ApiError('payment_method_unavailable', `Payment method ${method} is not available.`, {
        available_methods: this.providers.enabled(),
      });
    }
    return provider;
  }

  private checkAmount(input: NewOrder): void {
    const cents = input.providerAmountCents;
    const field = input.taskId ? 'amount' : 'amount_cents';
    const min = input.method === 'bank_transfer' ? LIMITS.bankTransferMinCents : input.minCents;
    if (cents < min || cents > LIMITS.paymentMaxCents) {
      throw ApiError.field(
        field,
        `must come to ${min} to ${LIMITS.paymentMaxCents} CNY cents (got ${cents})`,
      );
    }
  }

  /**
   * Serialised per agent (a transaction-scoped advisory lock) so the daily total is read and raised atomically:
   * concurrent orders cannot together pass the limit. Expired and failed orders do not count.
   */
  private async insert(em: EntityManager, input: NewOrder): Promise<OrderRow> {
    await sqlExec(em, `SELECT pg_advisory_xact_lock(hashtextextended('payment-orders:' || $1, 0))`, [
      input.agentId,
    ]);
    const tier = await AgentRepository.tier(em, input.agentId);
    if (!tier) throw new ApiError('invalid_token', 'The account of this credential no longer exists.');
    if (input.method === 'bank_transfer' && tier !== 'enterprise') {
      throw new ApiError(
        'payment_method_unavailable',
        'Bank transfer is available to enterprise agents only.',
      );
    }
    const now = this.clock.now();
    await this.checkDailyLimit(em, input, tier, now);
    const provider = providerOf(input.method);
    const expiresAt = new Date(now.getTime() + input.expiresInSeconds * 1000);
    let rows: Record<string, unknown>[];
    try {
      rows = await sqlRows(
        em,
        `INSERT INTO payment_orders (id, agent_id, task_id, amount_cents, currency, fx_rate_micros,
           provider_amount_cents, payment_method, provider, payment_type, status, return_url, callback_url, metadata,
           expires_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12, $13, $14, $15, $15) RETURNING *`,
        [
          newOrderId(),
          input.agentId,
          input.taskId,
          input.amountCents,
          input.currency,
          input.fxRateMicros,
          input.providerAmountCents,
          input.method,
          provider,
          input.type,
          input.returnUrl,
          input.callbackUrl,
          JSON.stringify(input.metadata),
          expiresAt,
          now,
        ],
      );
    } catch (err) {
      if (
        (err as { driverError?: { constraint?: string } }).driverError?.constraint ===
        'payment_orders_one_live_per_task'
      ) {
        throw new ApiError('duplicate_order', 'This task already has an open or completed payment order.');
      }
      throw err;
    }
    const order = toOrder(rows[0]);
    await this.events.order(em, 'payment.created', order, now);
    return order;
  }

  private async checkDailyLimit(em: EntityManager, input: NewOrder, tier: string, now: Date): Promise<void> {
    const limit = DAILY_LIMIT_CENTS[tier] ?? DAILY_LIMIT_CENTS.standard;
    if (limit === null) return;
    const day = utcDayStart(now);
    const [{ used }] = await sqlRows<{ used: string }>(
      em,
      `SELECT COALESCE(sum(provider_amount_cents), 0)::text AS used FROM payment_orders
        WHERE agent_id = $1 AND created_at >= $2 AND created_at < $3 AND status NOT IN ('failed', 'expired')`,
      [input.agentId, day, new Date(day.getTime() + 86_400_000)],
    );
    if (Number(used) + input.providerAmountCents > limit) {
      throw new ApiError(
        'daily_limit_exceeded',
        `Payments today would exceed the ${tier} tier's daily limit.`,
        {
          daily_limit_cents: limit,
          used_today_cents: Number(used),
          requested_cents: input.providerAmountCents,
        },
      );
    }
  }

  /**
   * A refused checkout fails the order at once; an unknown outcome (timeout) leaves it pending, since the provider
   * may have created it: the expiry sweep closes it there. Either way the caller learns the order id.
   */
  private async checkoutFailed(order: OrderRow, err: unknown): Promise<ApiError> {
    if (!(err instanceof ProviderError)) throw err;
    this.logger.warn({ err, orderId: order.id }, 'provider checkout failed');
    if (!err.outcomeUnknown)
      await this.settlement.close(order.id, 'failed', `checkout refused: ${err.providerCode ?? err.kind}`);
    return new ApiError('provider_error', 'The payment provider could not create the checkout; try again.', {
      order_id: order.id,
      retry_allowed: true,
      provider_code: err.providerCode,
    });
  }
}
