import type { SandboxCredentials } from '../../config/sandbox-credentials';
import {
  centsToYuan,
  parseAlipayTime,
  parseTimeoutExpress,
  randomDigits,
  randomToken,
  beijingDate,
} from '../formats';
import type { OrderLifecycle } from '../lifecycle';
import type { SandboxOrder, SandboxStore } from '../store';
import type { Params } from './alipay-crypto';

/** What the Alipay method handlers share, and the response shapes of the v2 gateway. */
export interface AlipayContext {
  readonly creds: SandboxCredentials['alipay'];
  readonly store: SandboxStore;
  readonly lifecycle: OrderLifecycle;
  baseUrl(): string;
  /** Armed by the test API: the next transfer fails with this sub_code. */
  transferFailure: string | null;
}

export type AlipayPayload = Record<string, unknown> & { code: string; msg: string };

export type MethodHandler = (
  ctx: AlipayContext,
  biz: Record<string, unknown>,
  params: Params,
) => AlipayPayload;

export function ok(fields: Record<string, unknown> = {}): AlipayPayload {
  return { code: '10000', msg: 'Success', ...fields };
}

/** 40004: the request was valid but the business rule refused it (sub_code says why). */
export function businessError(subCode: string, subMsg: string): AlipayPayload {
  return { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg };
}

/** 40002: the request itself is wrong (signature, app id, parameters). */
export function invalidArguments(subCode: string, subMsg: string): AlipayPayload {
  return { code: '40002', msg: 'Invalid Arguments', sub_code: subCode, sub_msg: subMsg };
}

export function str(biz: Record<string, unknown>, name: string): string | null {
  const v = biz[name];
  return typeof v === 'string' && v !== '' ? v : null;
}

export function tradeStatus(order: SandboxOrder): string {
  if (order.state === 'pending') return 'WAIT_BUYER_PAY';
  if (order.state === 'paid')
    return order.refundedCents >= order.amountCents ? 'TRADE_CLOSED' : 'TRADE_SUCCESS';
  return 'TRADE_CLOSED';
}

export function newTradeNo(now = new Date()): string {
  return `${beijingDate(now)}22${randomDigits(22)}`;
}

export function buyerId(order: SandboxOrder): string {
  return `2088${order.tradeNo.slice(-12)}`;
}

const DEFAULT_EXPIRY_MS = 2 * 3600 * 1000;

/** Order expiry from time_expire ("yyyy-MM-dd HH:mm:ss", Beijing) or timeout_express ("15m"); default 2 hours. */
export function expiryOf(biz: Record<string, unknown>, now: Date): Date | null | 'invalid' {
  const absolute = str(biz, 'time_expire');
  if (absolute) return parseAlipayTime(absolute) ?? 'invalid';
  const relative = str(biz, 'timeout_express');
  if (relative) {
    const ms = parseTimeoutExpress(relative);
    return ms === null ? 'invalid' : new Date(now.getTime() + ms);
  }
  return new Date(now.getTime() + DEFAULT_EXPIRY_MS);
}

export function newOrder(fields: {
  outTradeNo: string;
  amountCents: number;
  subject: string;
  channel: string;
  notifyUrl: string | null;
  returnUrl: string | null;
  attach: string | null;
  expiresAt: Date | null;
}): SandboxOrder {
  const now = new Date();
  return {
    ...fields,
    tradeNo: newTradeNo(now),
    payer: null,
    cashierToken: randomToken(),
    createdAt: now,
    state: 'pending',
    failureReason: null,
    paidAt: null,
    closedAt: null,
    refundedCents: 0,
  };
}

export function yuan(cents: number): string {
  return centsToYuan(cents);
}
