import { alipayTime, randomDigits, yuanToCents } from '../formats';
import type { SandboxOrder } from '../store';
import {
  type AlipayContext,
  type AlipayPayload,
  businessError,
  buyerId,
  expiryOf,
  type MethodHandler,
  newOrder,
  ok,
  str,
  tradeStatus,
  yuan,
} from './alipay-context';
import type { Params } from './alipay-crypto';

/** alipay.trade.* methods: creating (precreate, page, wap), querying and closing trades, refunds. */
const PRODUCT_CODES: Record<string, string | null> = {
  precreate: null,
  page: 'FAST_INSTANT_TRADE_PAY',
  wap: 'QUICK_WAP_WAY',
};

const BUYER_LOGON_ID = 'buy***@sandbox.legwork.test';

function invalid(message: string): AlipayPayload {
  return businessError('ACQ.INVALID_PARAMETER', message);
}

/** Creates the trade for precreate/page/wap, or returns the existing one when the same request comes again. */
export function openOrder(
  ctx: AlipayContext,
  biz: Record<string, unknown>,
  params: Params,
  channel: 'precreate' | 'page' | 'wap',
): SandboxOrder | AlipayPayload {
  const outTradeNo = str(biz, 'out_trade_no');
  if (!outTradeNo || !/^[A-Za-z0-9_]{1,64}$/.test(outTradeNo)) return invalid('out_trade_no is invalid');
  const amountCents = yuanToCents(biz.total_amount);
  if (amountCents === null || amountCents < 1 || amountCents > 10_000_000_000) {
    return invalid('total_amount must be 0.01 to 100000000.00');
  }
  const subject = str(biz, 'subject');
  if (!subject || subject.length > 256) return invalid('subject is required (at most 256 characters)');
  const productCode = PRODUCT_CODES[channel];
  if (productCode && str(biz, 'product_code') !== productCode)
    return invalid(`product_code must be ${productCode}`);
  const now = new Date();
  const expiresAt = expiryOf(biz, now);
  if (expiresAt === 'invalid') return invalid('time_expire or timeout_express is malformed');

  const existing = ctx.store.orders.get(outTradeNo);
  if (existing) {
    if (existing.amountCents !== amountCents || existing.subject !== subject) {
      return businessError('ACQ.CONTEXT_INCONSISTENT', 'the trade exists with different details');
    }
    if (existing.state === 'paid') return businessError('ACQ.TRADE_HAS_SUCCESS', 'the trade is already paid');
    if (existing.state !== 'pending') return businessError('ACQ.TRADE_HAS_CLOSE', 'the trade is closed');
    return existing;
  }
  const order = newOrder({
    outTradeNo,
    amountCents,
    subject,
    channel,
    notifyUrl: params.notify_url || null,
    returnUrl: params.return_url || null,
    attach: str(biz, 'passback_params'),
    expiresAt,
  });
  ctx.store.addOrder(order);
  ctx.lifecycle.track(order);
  return order;
}

function findTrade(ctx: AlipayContext, biz: Record<string, unknown>): SandboxOrder | AlipayPayload {
  const outTradeNo = str(biz, 'out_trade_no');
  const tradeNo = str(biz, 'trade_no');
  if (!outTradeNo && !tradeNo) return invalid('out_trade_no or trade_no is required');
  const order = outTradeNo ? ctx.store.orders.get(outTradeNo) : ctx.store.orderByTradeNo(tradeNo!);
  if (!order || (tradeNo && order.tradeNo !== tradeNo)) {
    return businessError('ACQ.TRADE_NOT_EXIST', 'the trade does not exist');
  }
  return order;
}

export const isOrder = (v: SandboxOrder | AlipayPayload): v is SandboxOrder => 'cashierToken' in v;

export const precreate: MethodHandler = (ctx, biz, params) => {
  const order = openOrder(ctx, biz, params, 'precreate');
  if (!isOrder(order)) return order;
  return ok({ out_trade_no: order.outTradeNo, qr_code: `${ctx.baseUrl()}/cashier/${order.cashierToken}` });
};

export const query: MethodHandler = (ctx, biz) => {
  const order = findTrade(ctx, biz);
  if (!isOrder(order)) return order;
  const paid = order.paidAt !== null;
  return ok({
    trade_no: order.tradeNo,
    out_trade_no: order.outTradeNo,
    trade_status: tradeStatus(order),
    total_amount: yuan(order.amountCents),
    ...(paid
      ? {
          buyer_logon_id: BUYER_LOGON_ID,
          buyer_user_id: buyerId(order),
          buyer_pay_amount: yuan(order.amountCents),
          receipt_amount: yuan(order.amountCents),
          send_pay_date: alipayTime(order.paidAt!),
        }
      : {}),
  });
};

export const close: MethodHandler = (ctx, biz) => {
  const order = findTrade(ctx, biz);
  if (!isOrder(order)) return order;
  if (order.state === 'paid') return businessError('ACQ.TRADE_STATUS_ERROR', 'a paid trade cannot be closed');
  if (order.state === 'pending') ctx.lifecycle.close(order);
  return ok({ trade_no: order.tradeNo, out_trade_no: order.outTradeNo });
};

export const refund: MethodHandler = (ctx, biz) => {
  const order = findTrade(ctx, biz);
  if (!isOrder(order)) return order;
  if (order.state !== 'paid')
    return businessError('ACQ.TRADE_STATUS_ERROR', 'only a paid trade can be refunded');
  const amountCents = yuanToCents(biz.refund_amount);
  if (amountCents === null || amountCents < 1) return invalid('refund_amount is invalid');
  const outRequestNo = str(biz, 'out_request_no') ?? order.outTradeNo;
  const answer = (fundChange: 'Y' | 'N', at: Date) =>
    ok({
      trade_no: order.tradeNo,
      out_trade_no: order.outTradeNo,
      buyer_logon_id: BUYER_LOGON_ID,
      buyer_user_id: buyerId(order),
      fund_change: fundChange,
      refund_fee: yuan(order.refundedCents),
      gmt_refund_pay: alipayTime(at),
    });
  const key = `${order.outTradeNo}:${outRequestNo}`;
  const previous = ctx.store.refunds.get(key);
  if (previous) {
    if (previous.amountCents !== amountCents) {
      return businessError('ACQ.DISCORDANT_REPEAT_REQUEST', 'out_request_no was used with another amount');
    }
    return answer('N', previous.succeededAt!);
  }
  if (order.refundedCents + amountCents > order.amountCents) {
    return businessError('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', 'the refund exceeds the refundable amount');
  }
  const now = new Date();
  ctx.store.refunds.set(key, {
    outRefundNo: outRequestNo,
    refundId: `${order.tradeNo}R${randomDigits(6)}`,
    outTradeNo: order.outTradeNo,
    amountCents,
    reason: str(biz, 'refund_reason'),
    notifyUrl: null,
    createdAt: now,
    state: 'succeeded',
    succeededAt: now,
  });
  order.refundedCents += amountCents;
  return answer('Y', now);
};

export const refundQuery: MethodHandler = (ctx, biz) => {
  const order = findTrade(ctx, biz);
  if (!isOrder(order)) return order;
  const outRequestNo = str(biz, 'out_request_no');
  if (!outRequestNo) return invalid('out_request_no is required');
  const found = ctx.store.refunds.get(`${order.outTradeNo}:${outRequestNo}`);
  // Alipay answers 10000 without refund fields when no such refund succeeded.
  if (!found) return ok({ trade_no: order.tradeNo, out_trade_no: order.outTradeNo });
  return ok({
    trade_no: order.tradeNo,
    out_trade_no: order.outTradeNo,
    out_request_no: outRequestNo,
    total_amount: yuan(order.amountCents),
    refund_amount: yuan(found.amountCents),
    refund_status: 'REFUND_SUCCESS',
    gmt_refund_pay: alipayTime(found.succeededAt!),
  });
};
