import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import type {
  CreatePaymentRequest,
  PaymentOrderResponse,
  PaymentStatusResponse,
  RechargeRequest,
} from '../dtos/payment-v1.dto';
import { checkoutKindsOf } from '../../common/payment-providers';
import { LIMITS, type PaymentMethod } from '../payment-rules';
import { orderStatusView, orderView } from '../payment-views';
import { findOrder, type OrderRow } from '../payment.repository';
import { OrderCreation } from './order-creation';
import { OrderSettlement } from './order-settlement';

/**
 * The machine-readable payment surface (`/v1/payment/*`, `/v1/agent/payments/recharge`): balance recharges in CNY
 * through Alipay or WeChat Pay, and order status that asks the provider while the order is still open.
 */
@Injectable()
export class PaymentOrdersService {
  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly creation: OrderCreation,
    private readonly settlement: OrderSettlement,
  ) {}

  /** The spec's recharge: an Alipay page-payment URL, from 100 cents. */
  async recharge(agentId: string, dto: RechargeRequest): Promise<PaymentOrderResponse> {
    const order = await this.creation.create({
      ...this.base(agentId, dto.amount_cents, dto.return_url),
      method: 'alipay',
      type: 'page',
      minCents: LIMITS.rechargeMinCents,
    });
    return orderView(order);
  }

  async create(agentId: string, dto: CreatePaymentRequest): Promise<PaymentOrderResponse> {
    // Without a payment_type, the provider's first checkout: page payment for Alipay, QR code for WeChat Pay.
    const allowed = checkoutKindsOf(dto.payment_method);
    const type = dto.payment_type ?? allowed[0];
    if (!allowed.includes(type)) {
      throw ApiError.field('payment_type', `must be one of ${allowed.join(', ')} for ${dto.payment_method}`);
    }
    if (type === 'jsapi' && !dto.openid) throw ApiError.field('openid', 'is required for jsapi payments');
    if (type === 'h5' && !dto.client_ip) throw ApiError.field('client_ip', 'is required for h5 payments');
    const order = await this.creation.create({
      ...this.base(agentId, dto.amount_cents, dto.return_url),
      method: dto.payment_method,
      type,
      minCents: LIMITS.paymentMinCents,
      openid: type === 'jsapi' ? dto.openid : undefined,
      clientIp: type === 'h5' ? dto.client_ip : undefined,
    });
    return orderView(order);
  }

  /** The order's status; an open order is checked with the provider first (and settled if it was paid). */
  async query(agentId: string, orderId: string, method: PaymentMethod): Promise<PaymentStatusResponse> {
    const order = await ownOrder(this.ds, agentId, orderId);
    if (order.payment_method !== method) throw orderNotFound();
    return orderStatusView(await this.settlement.syncFromProvider(order));
  }

  private base(agentId: string, amountCents: number, returnUrl: string | undefined) {
    if (returnUrl) requireHttpsInLive(this.config, 'return_url', returnUrl);
    return {
      agentId,
      taskId: null,
      amountCents,
      currency: 'CNY' as const,
      fxRateMicros: null,
      providerAmountCents: amountCents,
      expiresInSeconds: LIMITS.expiresDefaultSeconds,
      returnUrl: returnUrl ?? this.config.payments.defaultReturnUrl,
      callbackUrl: null,
      metadata: {},
    };
  }
}

export function orderNotFound(): ApiError {
  return new ApiError('order_not_found', 'No payment order with this id.');
}

/** The agent's own order; another agent's order is as unknown as a missing one (404, never 403). */
export async function ownOrder(
  db: Pick<DataSource, 'query'>,
  agentId: string,
  orderId: string,
): Promise<OrderRow> {
  const order = await findOrder(db, orderId);
  if (!order || order.agent_id !== agentId) throw orderNotFound();
  return order;
}

/** Live mode sends payers and callbacks only to https URLs on public hosts. */
export function requireHttpsInLive(config: AppConfig, field: string, url: string): void {
  if (config.paymentMode !== 'live') return;
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const local =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^(127\.|10\.|192\.168\.|0\.)/.test(host) ||
    host === '::1';
  if (u.protocol !== 'https:' || local) throw ApiError.field(field, 'must be an https URL on a public host');
}
