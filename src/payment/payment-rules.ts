import { randomBase62 } from '../common/crypto';
import {
  CHECKOUT_KINDS,
  type CheckoutKind,
  ONLINE_PROVIDER_NAMES,
  type OnlineProviderName,
  PAYMENT_METHOD_TABLE,
  type PaymentMethod,
} from '../common/payment-providers';

export { PAYMENT_METHODS, type PaymentMethod } from '../common/payment-providers';

/**
 * The payment rules that are plain arithmetic or tables (product-decisions §7 and §9), kept apart from I/O so they are
 * unit-tested exactly. Amounts are integer cents; currency conversion is done in BigInt, never in floating point.
 */
/** The methods named after the online provider that takes them (`/v1/payment/create`: alipay or wechat). */
export type ProviderMethod = OnlineProviderName & PaymentMethod;
export const PROVIDER_METHODS = ONLINE_PROVIDER_NAMES.filter(
  (p): p is ProviderMethod => p in PAYMENT_METHOD_TABLE,
);

/** payment_type: the checkout kinds of every provider (common/payment-providers.ts). */
export const PAYMENT_TYPES = CHECKOUT_KINDS;
export type PaymentType = CheckoutKind;

export const ORDER_STATUSES = [
  'pending',
  'processing',
  'completed',
  'failed',
  'expired',
  'refunded',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** An order that may still be paid; the only states a completion, failure or expiry moves out of. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['pending', 'processing'];

export const CURRENCIES = ['CNY', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const REFUND_REASONS = [
  'task_cancelled',
  'quality_issue',
  'task_failed',
  'duplicate_payment',
  'other',
] as const;
export type RefundReasonCode = (typeof REFUND_REASONS)[number];

export const LIMITS = {
  /** Per payment, in CNY cents (product-decisions §7). */
  paymentMinCents: 1_000,
  paymentMaxCents: 5_000_000,
  /** POST /v1/payment/recharge: the spec's own minimum (1 RMB); the maximum is the per-payment one. */
  rechargeMinCents: 100,
  bankTransferMinCents: 100_000,
  withdrawalMinCents: 1_000,
  withdrawalMaxCents: 5_000_000,
  /** Withdrawals from this amount wait for operator review. */
  withdrawalReviewCents: 50_000,
  expiresDefaultSeconds: 900,
  expiresMinSeconds: 300,
  expiresMaxSeconds: 86_400,
  metadataMaxBytes: 1024,
} as const;

/** Daily payment totals by agent tier, CNY cents; null is unlimited (product-decisions §7). */
export const DAILY_LIMIT_CENTS: Record<string, number | null> = {
  standard: 10_000_000,
  verified: 50_000_000,
  enterprise: null,
};

/** CNY per USD as an integer number of millionths, so every later step is integer arithmetic. */
export function fxRateMicros(cnyPerUsd: number): number {
  const micros = Math.round(cnyPerUsd * 1_000_000);
  if (!Number.isSafeInteger(micros) || micros <= 0) throw new RangeError(`bad FX rate ${cnyPerUsd}`);
  return micros;
}

/** USD cents to CNY cents, rounded half up. */
export function usdToCnyCents(usdCents: number, rateMicros: number): number {
  const n = 2n * BigInt(usdCents) * BigInt(rateMicros) + 1_000_000n;
  return Number(n / 2_000_000n);
}

/**
 * The USD amount that pays a CNY cost: the smallest whole number of US cents whose conversion (rounded half up)
 * covers it, i.e. ceil(cny / rate). The order then charges, and credits, its conversion, which is never below the
 * cost and at most one US cent's worth above it.
 */
export function usdCentsFor(cnyCents: number, rateMicros: number): number {
  const num = BigInt(cnyCents) * 1_000_000n;
  const rate = BigInt(rateMicros);
  let usd = (num + rate - 1n) / rate;
  // ceil(cny / rate) converts to at least cny; step down while a smaller amount still rounds up to it.
  while (usd > 0n && usdToCnyCents(Number(usd - 1n), rateMicros) >= cnyCents) usd -= 1n;
  return Number(usd);
}

/**
 * The CNY cents a refund of `amount` (in the order's currency) returns. The refund that completes the order's
 * amount returns exactly what is left in CNY, so partial refunds of a USD order can never drift from its total.
 */
export function refundProviderCents(
  order: {
    amountCents: number;
    providerAmountCents: number;
    refundedCents: number;
    providerRefundedCents: number;
    fxRateMicros: number | null;
  },
  amount: number,
): number {
  const leftProvider = order.providerAmountCents - order.providerRefundedCents;
  if (order.refundedCents + amount === order.amountCents) return leftProvider;
  if (order.fxRateMicros === null) return amount;
  return Math.max(1, Math.min(leftProvider, usdToCnyCents(amount, order.fxRateMicros)));
}

/** Refund reason text: one of the listed values is its own category, any other text is kept under `other`. */
export function refundReasonCode(reason: string): RefundReasonCode {
  return (REFUND_REASONS as readonly string[]).includes(reason) ? (reason as RefundReasonCode) : 'other';
}

/** Merchant order number: 28 characters (providers allow 32). */
export const newOrderId = (): string => `pay_${randomBase62(24)}`;
/** Merchant refund number: 28 characters (providers allow 64). */
export const newRefundId = (): string => `rfd_${randomBase62(24)}`;
/** Merchant transfer number: letters and digits only (WeChat transfer bills allow nothing else), 26 characters. */
export const newWithdrawalId = (): string => `wd${randomBase62(24)}`;

/** Start of the UTC day of `at` (daily limits count UTC days, like the statistics). */
export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}
