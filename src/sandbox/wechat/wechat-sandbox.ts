import type { SandboxCredentials } from '../../config/sandbox-credentials';
import { jsonBody, type Router, sendJson } from '../http';
import { SandboxConflict } from '../lifecycle';
import type { ProviderDefinition } from '../provider-server';
import { orderView } from '../test-api';
import { isWechatAck, WECHAT_RETRY_SCHEDULE_MS } from './notifications';
import { mountRefunds } from './refunds';
import { mountTransactions, paidNotification } from './transactions';
import { mountTransfers, wechatTransferControls } from './transfers';
import { rsaVerify } from './wechat-crypto';
import type { WechatContext } from './wechat-context';

/** WeChat Pay APIv3 (public key mode) as the provider sandbox plays it. */
export function wechatDefinition(
  creds: SandboxCredentials,
  refundDelayMs: number,
): ProviderDefinition<WechatContext> {
  return {
    name: 'wechat',
    title: 'WeChat Pay',
    scheduleMs: WECHAT_RETRY_SCHEDULE_MS,
    unsupportedFaults: [],
    isAck: isWechatAck,
    createContext: (base) => ({
      base,
      creds: creds.wechat,
      refundDelayMs,
      prepayIds: new Map(),
      transferFailure: null,
    }),
    // WeChat notifies successful payments only; a declined or expired order is learned by querying it.
    settled(ctx, order) {
      if (order.state === 'paid' && order.notifyUrl) ctx.base.notifier.send(paidNotification(ctx, order));
    },
    transfers: wechatTransferControls,
    returnLink: () => null,
    mount(router, ctx) {
      mountTransactions(router, ctx);
      mountRefunds(router, ctx);
      mountTransfers(router, ctx);
      mountJsapiPayment(router, ctx);
    },
  };
}

/**
 * Test API: what wx.requestPayment does in the WeChat client. The body is the JSAPI parameters the merchant built
 * (appId, timeStamp, nonceStr, package "prepay_id=...", signType RSA, paySign); paySign must verify with the merchant
 * key over "appId\ntimeStamp\nnonceStr\npackage\n". An optional card_number picks a test-card outcome.
 */
function mountJsapiPayment(router: Router, ctx: WechatContext): void {
  router.on('POST', '/__sandbox/jsapi/pay', (req, res) => {
    const p = jsonBody(req);
    const field = (name: string) => (typeof p[name] === 'string' ? p[name] : '');
    const message = `${field('appId')}\n${field('timeStamp')}\n${field('nonceStr')}\n${field('package')}\n`;
    if (
      field('appId') !== ctx.creds.appId ||
      field('signType') !== 'RSA' ||
      !rsaVerify(message, field('paySign'), ctx.creds.merchantPublicKey)
    ) {
      return sendJson(res, 400, { code: 'SIGN_ERROR', message: 'paySign does not verify for this appId' });
    }
    const outTradeNo = ctx.prepayIds.get(field('package').replace(/^prepay_id=/, ''));
    const order = outTradeNo === undefined ? undefined : ctx.base.store.orders.get(outTradeNo);
    if (!order) return sendJson(res, 404, { code: 'NOT_FOUND', message: 'unknown prepay_id' });
    const card = typeof p.card_number === 'string' ? p.card_number : undefined;
    try {
      const outcome = ctx.base.lifecycle.pay(order, card);
      sendJson(res, 200, { outcome, order: orderView(order, ctx.base.baseUrl()) });
    } catch (err) {
      if (!(err instanceof SandboxConflict)) throw err;
      sendJson(res, 409, { code: 'CONFLICT', message: err.message });
    }
  });
}
