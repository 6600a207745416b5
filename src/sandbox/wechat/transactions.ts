import { beijingDate, parseRfc3339, randomDigits, randomToken } from '../formats';
import type { Router } from '../http';
import type { SandboxOrder } from '../store';
import { apiRoute, type ApiResult } from './wechat-api';
import { forge, wechatNotification } from './notifications';
import {
  notifyUrl,
  optionalString,
  paramError,
  requireInt,
  requireString,
  transactionView,
  type WechatContext,
  WechatError,
} from './wechat-context';

/** /v3/pay/transactions: native (QR), jsapi (in-app, needs payer.openid) and h5 (needs the client IP); query, close. */
type Channel = 'native' | 'jsapi' | 'h5';

const OUT_TRADE_NO = /^[0-9A-Za-z_\-|*]{6,32}$/;
const DEFAULT_EXPIRY_MS = 2 * 3600 * 1000;

function checkMerchant(ctx: WechatContext, body: Record<string, unknown>): void {
  if (body.appid !== ctx.creds.appId || body.mchid !== ctx.creds.mchId) {
    throw new WechatError(400, 'APPID_MCHID_NOT_MATCH', 'appid and mchid do not match');
  }
}

function payerOf(channel: Channel, body: Record<string, unknown>): string | null {
  if (channel === 'jsapi') {
    const payer = body.payer as Record<string, unknown> | undefined;
    if (!payer || typeof payer !== 'object') throw paramError('payer.openid is required for jsapi');
    return requireString(payer, 'openid');
  }
  if (channel === 'h5') {
    const scene = body.scene_info as Record<string, unknown> | undefined;
    if (!scene || typeof scene !== 'object') throw paramError('scene_info is required for h5');
    requireString(scene, 'payer_client_ip');
    const h5 = scene.h5_info as Record<string, unknown> | undefined;
    if (!h5 || typeof h5 !== 'object') throw paramError('scene_info.h5_info.type is required for h5');
    requireString(h5, 'type');
  }
  return null;
}

function answer(ctx: WechatContext, channel: Channel, order: SandboxOrder): ApiResult {
  const cashier = `${ctx.base.baseUrl()}/cashier/${order.cashierToken}`;
  if (channel === 'native') return { status: 200, body: { code_url: cashier } };
  if (channel === 'h5') return { status: 200, body: { h5_url: cashier } };
  const prepayId = [...ctx.prepayIds].find(([, no]) => no === order.outTradeNo)?.[0];
  return { status: 200, body: { prepay_id: prepayId } };
}

function create(channel: Channel) {
  return (ctx: WechatContext, _req: unknown, body: Record<string, unknown>): ApiResult => {
    checkMerchant(ctx, body);
    const outTradeNo = requireString(body, 'out_trade_no', OUT_TRADE_NO);
    const description = requireString(body, 'description');
    if (description.length > 127) throw paramError('description is longer than 127 characters');
    const amount = body.amount as Record<string, unknown> | undefined;
    if (!amount || typeof amount !== 'object') throw paramError('amount is required');
    const total = requireInt(amount.total, 'amount.total', 1);
    if (amount.currency !== undefined && amount.currency !== 'CNY')
      throw paramError('amount.currency must be CNY');
    const url = notifyUrl(body, true);
    const payer = payerOf(channel, body);
    const attach = optionalString(body, 'attach', 128);
    const now = new Date();
    const expiresAt =
      body.time_expire === undefined
        ? new Date(now.getTime() + DEFAULT_EXPIRY_MS)
        : parseRfc3339(body.time_expire);
    if (!expiresAt) throw paramError('time_expire must be an RFC 3339 time');

    const existing = ctx.base.store.orders.get(outTradeNo);
    if (existing) {
      if (
        existing.amountCents !== total ||
        existing.subject !== description ||
        existing.channel !== channel
      ) {
        throw new WechatError(403, 'OUT_TRADE_NO_USED', 'out_trade_no was used for another order');
      }
      if (existing.state === 'paid') throw new WechatError(403, 'ORDERPAID', 'the order is already paid');
      if (existing.state !== 'pending') throw new WechatError(400, 'ORDER_CLOSED', 'the order is closed');
      return answer(ctx, channel, existing);
    }
    const order: SandboxOrder = {
      outTradeNo,
      tradeNo: `4200${randomDigits(6)}${beijingDate(now)}${randomDigits(10)}`,
      amountCents: total,
      subject: description,
      channel,
      notifyUrl: url,
      returnUrl: null,
      payer,
      attach,
      cashierToken: randomToken(),
      createdAt: now,
      expiresAt,
      state: 'pending',
      failureReason: null,
      paidAt: null,
      closedAt: null,
      refundedCents: 0,
    };
    ctx.base.store.addOrder(order);
    if (channel === 'jsapi') ctx.prepayIds.set(`wx${beijingDate(now)}${randomDigits(22)}`, outTradeNo);
    ctx.base.lifecycle.track(order);
    return answer(ctx, channel, order);
  };
}

function requireMchQuery(ctx: WechatContext, params: URLSearchParams): void {
  if (params.get('mchid') !== ctx.creds.mchId) throw paramError('query parameter mchid is missing or wrong');
}

function notFound(): never {
  throw new WechatError(404, 'ORDER_NOT_EXIST', 'the order does not exist');
}

/** The TRANSACTION.SUCCESS notification of a paid order. */
export function paidNotification(ctx: WechatContext, order: SandboxOrder) {
  return wechatNotification(ctx, {
    eventType: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    originalType: 'transaction',
    keys: [order.outTradeNo, order.tradeNo],
    url: order.notifyUrl!,
    resource: (faults) =>
      forge(transactionView(ctx, order, ['SUCCESS', 'paid']), faults, (r, delta) => {
        r.amount = { ...r.amount, total: order.amountCents + delta, payer_total: order.amountCents + delta };
      }),
  });
}

export function mountTransactions(router: Router, ctx: WechatContext): void {
  for (const channel of ['native', 'jsapi', 'h5'] as const) {
    apiRoute(router, ctx, 'POST', `/v3/pay/transactions/${channel}`, channel, create(channel));
  }
  apiRoute(router, ctx, 'GET', '/v3/pay/transactions/out-trade-no/:out_trade_no', 'query', (c, req) => {
    requireMchQuery(c, req.url.searchParams);
    const order = c.base.store.orders.get(req.params.out_trade_no) ?? notFound();
    return { status: 200, body: transactionView(c, order) };
  });
  apiRoute(router, ctx, 'GET', '/v3/pay/transactions/id/:transaction_id', 'query', (c, req) => {
    requireMchQuery(c, req.url.searchParams);
    const order = c.base.store.orderByTradeNo(req.params.transaction_id);
    if (!order?.paidAt) notFound();
    return { status: 200, body: transactionView(c, order) };
  });
  apiRoute(
    router,
    ctx,
    'POST',
    '/v3/pay/transactions/out-trade-no/:out_trade_no/close',
    'close',
    (c, req, body) => {
      if (body.mchid !== c.creds.mchId) throw paramError('mchid is missing or wrong');
      const order = c.base.store.orders.get(req.params.out_trade_no) ?? notFound();
      if (order.state === 'paid') throw new WechatError(400, 'ORDERPAID', 'a paid order cannot be closed');
      if (order.state === 'pending') c.base.lifecycle.close(order);
      return { status: 204 };
    },
  );
}
