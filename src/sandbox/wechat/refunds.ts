import { randomDigits } from '../formats';
import type { Router } from '../http';
import type { SandboxOrder, SandboxRefund } from '../store';
import { forge, wechatNotification } from './notifications';
import { apiRoute } from './wechat-api';
import {
  notifyUrl,
  optionalString,
  paramError,
  refundView,
  requireInt,
  requireString,
  type WechatContext,
  WechatError,
} from './wechat-context';

/**
 * /v3/refund/domestic/refunds: a refund is accepted as PROCESSING and succeeds after `refundDelayMs`, then WeChat
 * notifies REFUND.SUCCESS to the refund's notify_url (when one was given).
 */
const OUT_REFUND_NO = /^[0-9A-Za-z_\-|*@]{1,64}$/;

function findOrder(ctx: WechatContext, body: Record<string, unknown>): SandboxOrder {
  const { store } = ctx.base;
  const order =
    typeof body.out_trade_no === 'string'
      ? store.orders.get(body.out_trade_no)
      : typeof body.transaction_id === 'string'
        ? store.orderByTradeNo(body.transaction_id)
        : (() => {
            throw paramError('out_trade_no or transaction_id is required');
          })();
  if (!order) throw new WechatError(404, 'RESOURCE_NOT_EXISTS', 'the order does not exist');
  return order;
}

function succeed(ctx: WechatContext, order: SandboxOrder, refund: SandboxRefund): void {
  refund.state = 'succeeded';
  refund.succeededAt = new Date();
  if (!refund.notifyUrl) return;
  ctx.base.notifier.send(
    wechatNotification(ctx, {
      eventType: 'REFUND.SUCCESS',
      summary: '退款成功',
      originalType: 'refund',
      keys: [refund.outRefundNo, order.outTradeNo],
      url: refund.notifyUrl,
      resource: (faults) =>
        forge(
          {
            mchid: ctx.creds.mchId,
            out_trade_no: order.outTradeNo,
            transaction_id: order.tradeNo,
            out_refund_no: refund.outRefundNo,
            refund_id: refund.refundId,
            refund_status: 'SUCCESS',
            success_time: refundView(order, refund).success_time,
            user_received_account: '支付用户零钱',
            amount: {
              total: order.amountCents,
              refund: refund.amountCents,
              payer_total: order.amountCents,
              payer_refund: refund.amountCents,
            },
          },
          faults,
          (r, delta) => (r.amount = { ...r.amount, refund: refund.amountCents + delta }),
        ),
    }),
  );
}

export function mountRefunds(router: Router, ctx: WechatContext): void {
  apiRoute(router, ctx, 'POST', '/v3/refund/domestic/refunds', 'refund', (c, _req, body) => {
    const order = findOrder(c, body);
    const outRefundNo = requireString(body, 'out_refund_no', OUT_REFUND_NO);
    const reason = optionalString(body, 'reason', 80);
    const url = notifyUrl(body, false);
    const amount = body.amount as Record<string, unknown> | undefined;
    if (!amount || typeof amount !== 'object') throw paramError('amount is required');
    const refundCents = requireInt(amount.refund, 'amount.refund', 1);
    const total = requireInt(amount.total, 'amount.total', 1);
    if (amount.currency !== 'CNY') throw paramError('amount.currency must be CNY');
    if (total !== order.amountCents) throw paramError('amount.total does not match the order');
    if (order.state !== 'paid') throw new WechatError(400, 'INVALID_REQUEST', 'the order is not paid');

    const previous = c.base.store.refunds.get(outRefundNo);
    if (previous) {
      if (previous.outTradeNo !== order.outTradeNo || previous.amountCents !== refundCents) {
        throw new WechatError(400, 'INVALID_REQUEST', 'out_refund_no was used for another refund');
      }
      return { status: 200, body: refundView(order, previous) };
    }
    if (order.refundedCents + refundCents > order.amountCents) {
      throw new WechatError(400, 'INVALID_REQUEST', 'the refund exceeds the refundable amount');
    }
    const refund: SandboxRefund = {
      outRefundNo,
      refundId: `50${randomDigits(27)}`,
      outTradeNo: order.outTradeNo,
      amountCents: refundCents,
      reason,
      notifyUrl: url,
      createdAt: new Date(),
      state: 'processing',
      succeededAt: null,
    };
    c.base.store.refunds.set(outRefundNo, refund);
    order.refundedCents += refundCents;
    c.base.timers.after(c.refundDelayMs, () => succeed(c, order, refund));
    return { status: 200, body: refundView(order, refund) };
  });

  apiRoute(router, ctx, 'GET', '/v3/refund/domestic/refunds/:out_refund_no', 'refund_query', (c, req) => {
    const refund = c.base.store.refunds.get(req.params.out_refund_no);
    if (!refund) throw new WechatError(404, 'RESOURCE_NOT_EXISTS', 'the refund does not exist');
    return { status: 200, body: refundView(c.base.store.orders.get(refund.outTradeNo)!, refund) };
  });
}
