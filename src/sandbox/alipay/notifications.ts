import type { Fault } from '../faults';
import { alipayTime, randomDigits, randomToken } from '../formats';
import type { NotificationSpec } from '../notifier';
import type { SandboxOrder } from '../store';
import { type AlipayContext, buyerId, tradeStatus, yuan } from './alipay-context';
import { type Params, signNotification, tamper } from './alipay-crypto';

/**
 * Alipay's asynchronous trade notification (notify_type trade_status_sync): a form-encoded POST whose parameters are
 * signed with the platform key (sign_type left out of the signed text). Sent when a trade is paid (TRADE_SUCCESS)
 * and when it closes unpaid (TRADE_CLOSED: declined or expired). Acknowledged only by the body `success`.
 */
export const ALIPAY_RETRY_SCHEDULE_MS = [4, 10, 10, 60, 120, 360, 900].map((minutes) => minutes * 60_000);

export function isAlipayAck(_status: number, body: string): boolean {
  return body === 'success';
}

export function tradeNotification(ctx: AlipayContext, order: SandboxOrder): NotificationSpec | null {
  if (!order.notifyUrl) return null;
  const status = tradeStatus(order);
  const notifyId = `${randomToken(16)}${randomDigits(6)}`;
  const otherAppId = `2021${randomDigits(12)}`;
  return {
    event: 'trade_status_sync',
    keys: [order.outTradeNo, order.tradeNo, status],
    url: order.notifyUrl,
    build(faults: readonly Fault[]) {
      const has = (kind: string) => faults.find((f) => f.kind === kind);
      const amount = yuan(order.amountCents + (has('wrong_amount')?.amountDeltaCents ?? 0));
      const appId = has('wrong_app') ? otherAppId : ctx.creds.appId;
      const params: Params = {
        notify_time: alipayTime(new Date()),
        notify_type: 'trade_status_sync',
        notify_id: notifyId,
        charset: 'utf-8',
        version: '1.0',
        app_id: appId,
        auth_app_id: appId,
        trade_no: order.tradeNo,
        out_trade_no: order.outTradeNo,
        trade_status: status,
        total_amount: amount,
        subject: order.subject,
        seller_id: ctx.creds.sellerId,
        gmt_create: alipayTime(order.createdAt),
      };
      if (order.paidAt) {
        Object.assign(params, {
          buyer_id: buyerId(order),
          receipt_amount: amount,
          buyer_pay_amount: amount,
          invoice_amount: amount,
          point_amount: '0.00',
          gmt_payment: alipayTime(order.paidAt),
          fund_bill_list: JSON.stringify([{ amount, fundChannel: 'ALIPAYACCOUNT' }]),
        });
      }
      if (order.closedAt) params.gmt_close = alipayTime(order.closedAt);
      if (order.attach) params.passback_params = order.attach;
      const signed = signNotification(params, ctx.creds.platformPrivateKey);
      if (has('tampered_signature')) signed.sign = tamper(signed.sign);
      return {
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: new URLSearchParams(signed).toString(),
      };
    },
  };
}

/** The synchronous return to the merchant's return_url after a page/wap payment, signed like a notification. */
export function returnLink(ctx: AlipayContext, order: SandboxOrder): string | null {
  if (!order.returnUrl) return null;
  const url = new URL(order.returnUrl);
  if (order.state !== 'paid') return url.toString();
  const signed = signNotification(
    {
      charset: 'utf-8',
      method: `alipay.trade.${order.channel}.pay.return`,
      version: '1.0',
      app_id: ctx.creds.appId,
      auth_app_id: ctx.creds.appId,
      seller_id: ctx.creds.sellerId,
      out_trade_no: order.outTradeNo,
      trade_no: order.tradeNo,
      total_amount: yuan(order.amountCents),
      timestamp: alipayTime(new Date()),
    },
    ctx.creds.platformPrivateKey,
  );
  for (const [k, v] of Object.entries(signed)) url.searchParams.set(k, v);
  return url.toString();
}
