import type { SandboxCredentials } from '../../config/sandbox-credentials';
import { wechatTime } from '../formats';
import type { ProviderBase } from '../provider-server';
import type { SandboxOrder, SandboxRefund, SandboxTransfer } from '../store';

/** What the WeChat Pay APIv3 handlers share: context, the error shape and the resource views. */
export interface WechatContext {
  readonly base: ProviderBase;
  readonly creds: SandboxCredentials['wechat'];
  readonly refundDelayMs: number;
  /** prepay_id of JSAPI orders -> out_trade_no. */
  readonly prepayIds: Map<string, string>;
  /** Armed by the test API: the next transfer bill fails with this reason. */
  transferFailure: string | null;
}

/** An APIv3 error answer: HTTP status plus `{code, message}`. */
export class WechatError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const paramError = (message: string) => new WechatError(400, 'PARAM_ERROR', message);

export function requireString(body: Record<string, unknown>, name: string, pattern?: RegExp): string {
  const v = body[name];
  if (typeof v !== 'string' || v === '' || (pattern && !pattern.test(v))) {
    throw paramError(`${name} is missing or invalid`);
  }
  return v;
}

export function optionalString(body: Record<string, unknown>, name: string, max: number): string | null {
  const v = body[name];
  if (v === undefined) return null;
  if (typeof v !== 'string' || v.length > max) throw paramError(`${name} must be a string of at most ${max}`);
  return v;
}

export function requireInt(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw paramError(`${name} must be an integer >= ${min}`);
  }
  return value;
}

/** notify_url: an absolute http(s) URL without query parameters (WeChat refuses parameters). */
export function notifyUrl(body: Record<string, unknown>, required: boolean): string | null {
  const v = body.notify_url;
  if (v === undefined && !required) return null;
  if (typeof v !== 'string' || !/^https?:\/\/[^?#\s]+$/.test(v)) {
    throw paramError('notify_url must be an http(s) URL without query parameters');
  }
  return v;
}

const TRADE_TYPE: Record<string, string> = { native: 'NATIVE', jsapi: 'JSAPI', h5: 'MWEB' };

export function tradeState(order: SandboxOrder): [string, string] {
  switch (order.state) {
    case 'pending':
      return ['NOTPAY', 'order not paid'];
    case 'paid':
      return order.refundedCents > 0 ? ['REFUND', 'refund in progress or done'] : ['SUCCESS', 'paid'];
    case 'declined':
      return ['PAYERROR', `payment failed: ${order.failureReason ?? 'declined'}`];
    default:
      return ['CLOSED', 'order closed'];
  }
}

export function transactionView(ctx: WechatContext, order: SandboxOrder, state = tradeState(order)) {
  const paid = order.paidAt !== null;
  return {
    appid: ctx.creds.appId,
    mchid: ctx.creds.mchId,
    out_trade_no: order.outTradeNo,
    ...(paid
      ? { transaction_id: order.tradeNo, bank_type: 'OTHERS', success_time: wechatTime(order.paidAt!) }
      : {}),
    trade_type: TRADE_TYPE[order.channel],
    trade_state: state[0],
    trade_state_desc: state[1],
    ...(order.attach ? { attach: order.attach } : {}),
    ...(order.payer || paid ? { payer: { openid: order.payer ?? `o${order.tradeNo.slice(-27)}` } } : {}),
    amount: {
      total: order.amountCents,
      ...(paid ? { payer_total: order.amountCents } : {}),
      currency: 'CNY',
      payer_currency: 'CNY',
    },
  };
}

export function refundView(order: SandboxOrder, refund: SandboxRefund) {
  return {
    refund_id: refund.refundId,
    out_refund_no: refund.outRefundNo,
    transaction_id: order.tradeNo,
    out_trade_no: order.outTradeNo,
    channel: 'ORIGINAL',
    user_received_account: '支付用户零钱',
    create_time: wechatTime(refund.createdAt),
    ...(refund.succeededAt ? { success_time: wechatTime(refund.succeededAt) } : {}),
    status: refund.state === 'succeeded' ? 'SUCCESS' : 'PROCESSING',
    funds_account: 'AVAILABLE',
    amount: {
      total: order.amountCents,
      refund: refund.amountCents,
      payer_total: order.amountCents,
      payer_refund: refund.amountCents,
      settlement_total: order.amountCents,
      settlement_refund: refund.amountCents,
      discount_refund: 0,
      currency: 'CNY',
      refund_fee: 0,
    },
  };
}

export const TRANSFER_STATE: Record<SandboxTransfer['state'], string> = {
  wait_user_confirm: 'WAIT_USER_CONFIRM',
  succeeded: 'SUCCESS',
  failed: 'FAIL',
  returned: 'FAIL',
  cancelled: 'CANCELLED',
};

export function transferView(ctx: WechatContext, t: SandboxTransfer) {
  return {
    mch_id: ctx.creds.mchId,
    out_bill_no: t.outBillNo,
    transfer_bill_no: t.billNo,
    appid: ctx.creds.appId,
    state: TRANSFER_STATE[t.state],
    transfer_amount: t.amountCents,
    transfer_remark: t.remark ?? '',
    ...(t.failReason ? { fail_reason: t.failReason } : {}),
    openid: t.payee,
    create_time: wechatTime(t.createdAt),
    update_time: wechatTime(t.updatedAt),
  };
}
