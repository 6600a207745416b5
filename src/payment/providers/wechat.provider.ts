import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { Wechatpay } from 'wechatpay-axios-plugin';
import type { WechatPaySettings } from '../../config/payment-config';
import { checkAmount, checkId, ORDER_ID, ProviderError, REFUND_ID, TRANSFER_ID } from './provider-error';
import { fromRfc3339, toRfc3339Beijing } from './provider-formats';
import { wechatpaySdk } from './wechatpay-sdk';
import type {
  CheckoutKind,
  CreatedOrder,
  CreateOrderInput,
  ExpectedAmount,
  JsapiParams,
  NotificationAck,
  NotificationResult,
  OrderState,
  PaymentProvider,
  RawNotification,
  RefundInput,
  RefundState,
  TransferInput,
  TransferState,
} from './provider.types';
import { wechatCall } from './wechat.errors';
import { TRANSFER_STATE, verifyWechatNotification, wechatAck, wechatRefusal } from './wechat.notifications';

/**
 * WeChat Pay APIv3 through wechatpay-axios-plugin (WeChat Pay public key mode): requests are signed by the plugin
 * with the merchant key, answers verified by it against the public key registered under its PUB_KEY_ID. The
 * baseURL comes from config, so the same code talks to WeChat Pay in live mode and to the sandbox in sandbox mode.
 */
type Data = Record<string, unknown>;

const REFUND_STATUS: Record<string, RefundState['status']> = {
  SUCCESS: 'succeeded',
  PROCESSING: 'processing',
  CLOSED: 'failed',
  ABNORMAL: 'failed',
};

export class WechatPayProvider implements PaymentProvider {
  readonly name = 'wechat' as const;
  private client: Wechatpay | null = null;
  private readonly merchantKey: KeyObject;
  private readonly platformKey: KeyObject;

  constructor(
    private readonly settings: WechatPaySettings,
    private readonly timeoutMs: number,
  ) {
    // PKCS#8 and SPKI PEM, as payment-config.ts normalised them.
    this.merchantKey = createPrivateKey(settings.merchantPrivateKeyPem);
    this.platformKey = createPublicKey(settings.platformPublicKeyPem);
  }

  /** The SDK client, built on first use (wechatpay-sdk.ts). */
  private get wxpay(): Wechatpay {
    if (!this.client) {
      const { Wechatpay } = wechatpaySdk();
      this.client = new Wechatpay({
        mchid: this.settings.mchId,
        serial: this.settings.merchantSerial,
        privateKey: this.settings.merchantPrivateKeyPem,
        certs: { [this.settings.platformPublicKeyId]: this.settings.platformPublicKeyPem },
        baseURL: this.settings.baseUrl,
        timeout: this.timeoutMs,
      });
    }
    return this.client;
  }

  async createOrder(kind: CheckoutKind, input: CreateOrderInput): Promise<CreatedOrder> {
    checkId('wechat', 'orderId', input.orderId, ORDER_ID);
    checkAmount('wechat', input.amountCents);
    const body: Data = {
      appid: this.settings.appId,
      mchid: this.settings.mchId,
      description: input.subject.slice(0, 127),
      out_trade_no: input.orderId,
      time_expire: toRfc3339Beijing(input.expiresAt),
      notify_url: this.settings.notifyUrl,
      amount: { total: input.amountCents, currency: 'CNY' },
    };
    const created = { provider: this.name, kind, orderId: input.orderId };
    const none = { qrCodeUrl: null, paymentUrl: null, jsapiParams: null };
    const transactions = this.wxpay.v3.pay.transactions;
    if (kind === 'native') {
      const data = await wechatCall('native', () => transactions.native.post(body));
      return { ...created, ...none, qrCodeUrl: String(data.code_url) };
    }
    if (kind === 'jsapi') {
      if (!input.openid)
        throw new ProviderError('wechat', 'invalid_request', 'jsapi payments need the openid');
      const data = await wechatCall('jsapi', () =>
        transactions.jsapi.post({ ...body, payer: { openid: input.openid } }),
      );
      return { ...created, ...none, jsapiParams: this.jsapiParams(String(data.prepay_id)) };
    }
    if (kind === 'h5') {
      if (!input.clientIp)
        throw new ProviderError('wechat', 'invalid_request', 'h5 payments need the client IP');
      const scene = { payer_client_ip: input.clientIp, h5_info: { type: 'Wap' } };
      const data = await wechatCall('h5', () => transactions.h5.post({ ...body, scene_info: scene }));
      return { ...created, ...none, paymentUrl: String(data.h5_url) };
    }
    throw new ProviderError('wechat', 'invalid_request', `checkout kind ${kind} is not a WeChat Pay kind`);
  }

  /** What wx.requestPayment needs: signed "appId\ntimeStamp\nnonceStr\npackage\n" with the merchant key. */
  jsapiParams(prepayId: string): JsapiParams {
    const appId = this.settings.appId;
    const { Formatter, Rsa } = wechatpaySdk();
    const timeStamp = String(Formatter.timestamp());
    const nonceStr = Formatter.nonce();
    const pkg = `prepay_id=${prepayId}`;
    const paySign = Rsa.sign(Formatter.joinedByLineFeed(appId, timeStamp, nonceStr, pkg), this.merchantKey);
    return { appId, timeStamp, nonceStr, package: pkg, signType: 'RSA', paySign };
  }

  async queryOrder(orderId: string): Promise<OrderState | null> {
    const data = await wechatCall(
      'query',
      () =>
        this.wxpay.v3.pay.transactions.outTradeNo.$out_trade_no$.get({
          params: { mchid: this.settings.mchId },
          out_trade_no: orderId,
        }),
      true,
    );
    if (!data) return null;
    const state = String(data.trade_state);
    const amount = (data.amount ?? {}) as Data;
    const status = {
      SUCCESS: 'paid',
      REFUND: 'paid',
      CLOSED: 'closed',
      REVOKED: 'closed',
      PAYERROR: 'failed',
    }[state] as OrderState['status'] | undefined;
    return {
      orderId,
      providerTxnId: typeof data.transaction_id === 'string' ? data.transaction_id : null,
      status: status ?? 'pending',
      amountCents: wholeCents(amount.total),
      paidAt: fromRfc3339(data.success_time),
      refunded: state === 'REFUND',
    };
  }

  /** An order WeChat does not know (its creation never arrived) counts as closed, as with Alipay. */
  async closeOrder(orderId: string): Promise<void> {
    await wechatCall(
      'close',
      () =>
        this.wxpay.v3.pay.transactions.outTradeNo.$out_trade_no$.close.post(
          { mchid: this.settings.mchId },
          { out_trade_no: orderId },
        ),
      true,
    );
  }

  async refund(input: RefundInput): Promise<RefundState> {
    checkId('wechat', 'refundId', input.refundId, REFUND_ID);
    checkAmount('wechat', input.amountCents);
    const data = await wechatCall('refund', () =>
      this.wxpay.v3.refund.domestic.refunds.post({
        out_trade_no: input.orderId,
        out_refund_no: input.refundId,
        reason: input.reason.slice(0, 80),
        notify_url: this.settings.notifyUrl,
        amount: { refund: input.amountCents, total: input.orderAmountCents, currency: 'CNY' },
      }),
    );
    return this.refundState(data);
  }

  async queryRefund(_orderId: string, refundId: string): Promise<RefundState | null> {
    const data = await wechatCall(
      'refund_query',
      () => this.wxpay.v3.refund.domestic.refunds.$out_refund_no$.get({ out_refund_no: refundId }),
      true,
    );
    return data ? this.refundState(data) : null;
  }

  async transfer(input: TransferInput): Promise<TransferState> {
    checkId('wechat', 'transferId', input.transferId, TRANSFER_ID);
    checkAmount('wechat', input.amountCents);
    const body: Data = {
      appid: this.settings.appId,
      out_bill_no: input.transferId,
      transfer_scene_id: this.settings.transferSceneId,
      openid: input.payeeAccount,
      transfer_amount: input.amountCents,
      transfer_remark: input.remark.slice(0, 32),
      notify_url: this.settings.notifyUrl,
      transfer_scene_report_infos: [
        { info_type: '岗位类型', info_content: '跑腿' },
        { info_type: '报酬说明', info_content: input.remark.slice(0, 32) },
      ],
    };
    const headers: Record<string, string> = {};
    if (input.payeeName) {
      // Sensitive fields travel RSA-OAEP encrypted to the WeChat Pay public key named in Wechatpay-Serial.
      body.user_name = wechatpaySdk().Rsa.encrypt(input.payeeName, this.platformKey);
      headers['Wechatpay-Serial'] = this.settings.platformPublicKeyId;
    }
    const bills = this.wxpay.v3.fundApp.mchTransfer.transferBills;
    const data = await wechatCall('transfer', () => bills.post(body, { headers }), false, true);
    if ('refused' in data) {
      return {
        ...this.transferState({ out_bill_no: input.transferId }),
        status: 'failed',
        failureReason: String(data.refused),
      };
    }
    return { ...this.transferState(data), amountCents: input.amountCents };
  }

  async queryTransfer(transferId: string): Promise<TransferState | null> {
    const data = await wechatCall(
      'transfer_query',
      () =>
        this.wxpay.v3.fundApp.mchTransfer.transferBills.outBillNo.$out_bill_no$.get({
          out_bill_no: transferId,
        }),
      true,
    );
    return data ? this.transferState(data) : null;
  }

  verifyNotification(input: RawNotification, expected?: ExpectedAmount): Promise<NotificationResult> {
    return verifyWechatNotification(this.settings, this.platformKey, input, expected);
  }

  acknowledge(result: NotificationResult): NotificationAck {
    return wechatAck(result);
  }

  refuse(message: string, status: number): NotificationAck {
    return wechatRefusal(message, status);
  }

  async probe(): Promise<{ ok: true } | { ok: false; error: string }> {
    try {
      await this.queryOrder('lwhealthprobe');
      return { ok: true };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  }

  private refundState(data: Data): RefundState {
    const amount = (data.amount ?? {}) as Data;
    const status = REFUND_STATUS[String(data.status)] ?? 'processing';
    return {
      orderId: String(data.out_trade_no),
      refundId: String(data.out_refund_no),
      providerRefundId: typeof data.refund_id === 'string' ? data.refund_id : null,
      amountCents: Number(amount.refund),
      status,
      succeededAt: status === 'succeeded' ? (fromRfc3339(data.success_time) ?? new Date()) : null,
    };
  }

  private transferState(data: Data): TransferState {
    return {
      transferId: String(data.out_bill_no),
      providerTransferId: typeof data.transfer_bill_no === 'string' ? data.transfer_bill_no : null,
      amountCents: typeof data.transfer_amount === 'number' ? data.transfer_amount : null,
      status: TRANSFER_STATE[String(data.state)] ?? 'processing',
      failureReason: typeof data.fail_reason === 'string' ? data.fail_reason : null,
      packageInfo: typeof data.package_info === 'string' ? data.package_info : null,
    };
  }
}

function wholeCents(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new ProviderError('wechat', 'unavailable', `malformed amount in response: ${String(value)}`);
}
