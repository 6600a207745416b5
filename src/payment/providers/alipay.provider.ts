import type { AlipaySdk, AlipaySdkCommonResult } from 'alipay-sdk';
import type { AlipaySettings } from '../../config/payment-config';
import { alipayAck, alipayRefusal, verifyAlipayNotification } from './alipay.notifications';
import { checkAmount, checkId, ORDER_ID, ProviderError, REFUND_ID, TRANSFER_ID } from './provider-error';
import { centsToYuan, fromAlipayTime, toAlipayTime, yuanToCents } from './provider-formats';
import type {
  CheckoutKind,
  CreatedOrder,
  CreateOrderInput,
  ExpectedAmount,
  NotificationAck,
  NotificationResult,
  OrderState,
  PaymentProvider,
  RawNotification,
  RefundInput,
  RefundState,
  TransferInput,
  TransferState,
  TransferStatus,
} from './provider.types';

/**
 * Alipay through the official alipay-sdk (OpenAPI v2 gateway, RSA2): `exec` with validateSign for server calls,
 * `pageExec` for the page and wap payment URLs, `checkNotifySignV2` for notifications. The gateway comes from config,
 * so the same code talks to Alipay in live mode and to the provider sandbox in sandbox mode.
 */
const TRANSFER_STATUS: Record<string, TransferStatus> = {
  SUCCESS: 'succeeded',
  DEALING: 'processing',
  WAIT_PAY: 'processing',
  INIT: 'processing',
  FAIL: 'failed',
  CLOSED: 'cancelled',
  REFUND: 'returned',
};

const PAGE_METHODS = { page: 'alipay.trade.page.pay', wap: 'alipay.trade.wap.pay' } as const;
const PRODUCT_CODES = { page: 'FAST_INSTANT_TRADE_PAY', wap: 'QUICK_WAP_WAY' } as const;

export class AlipayProvider implements PaymentProvider {
  readonly name = 'alipay' as const;
  private client: AlipaySdk | null = null;

  constructor(
    private readonly settings: AlipaySettings,
    private readonly timeoutMs: number,
  ) {}

  /**
   * The SDK client, built on first use, not at start-up: alipay-sdk and what it loads (urllib, undici, crypto-js)
   * hold about 8.5 MiB of heap, which a process that has not talked to Alipay yet need not carry (the API at rest,
   * docs/scaling.md). The keys were checked when the configuration was loaded (payment-config.ts), so nothing that
   * start-up would have caught waits for the first payment.
   */
  private get sdk(): AlipaySdk {
    if (!this.client) {
      // require, not import(): jest runs the e2e suite as CommonJS without VM modules, where import() fails.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { AlipaySdk } = require('alipay-sdk') as typeof import('alipay-sdk');
      this.client = new AlipaySdk({
        appId: this.settings.appId,
        privateKey: this.settings.appPrivateKeyPem,
        keyType: 'PKCS8',
        alipayPublicKey: this.settings.alipayPublicKeyPem,
        gateway: this.settings.gatewayUrl,
        endpoint: new URL(this.settings.gatewayUrl).origin,
        signType: 'RSA2',
        camelcase: false,
        timeout: this.timeoutMs,
      });
    }
    return this.client;
  }

  async createOrder(kind: CheckoutKind, input: CreateOrderInput): Promise<CreatedOrder> {
    checkId('alipay', 'orderId', input.orderId, ORDER_ID);
    checkAmount('alipay', input.amountCents);
    const biz = {
      out_trade_no: input.orderId,
      total_amount: centsToYuan(input.amountCents),
      subject: input.subject,
      time_expire: toAlipayTime(input.expiresAt),
    };
    const created = { provider: this.name, kind, orderId: input.orderId, jsapiParams: null };
    if (kind === 'qr') {
      const r = this.ok(await this.call('alipay.trade.precreate', biz, true));
      return { ...created, qrCodeUrl: String(r.qr_code), paymentUrl: null };
    }
    if (kind !== 'page' && kind !== 'wap') {
      throw new ProviderError('alipay', 'invalid_request', `checkout kind ${kind} is not an Alipay kind`);
    }
    if (!input.returnUrl)
      throw new ProviderError('alipay', 'invalid_request', `${kind} payments need a returnUrl`);
    // pageExec only signs: nothing reaches Alipay until the buyer's browser opens the URL.
    const url = this.sdk.pageExec(PAGE_METHODS[kind], 'GET', {
      notify_url: this.settings.notifyUrl,
      return_url: input.returnUrl,
      bizContent: {
        ...biz,
        product_code: PRODUCT_CODES[kind],
        ...(kind === 'wap' ? { quit_url: input.returnUrl } : {}),
      },
    });
    return { ...created, qrCodeUrl: null, paymentUrl: url };
  }

  async queryOrder(orderId: string): Promise<OrderState | null> {
    const r = await this.call('alipay.trade.query', { out_trade_no: orderId });
    if (r.sub_code === 'ACQ.TRADE_NOT_EXIST') return null;
    this.ok(r);
    const paidAt = fromAlipayTime(r.send_pay_date);
    const status = String(r.trade_status);
    // A fully refunded trade reads TRADE_CLOSED but was paid: send_pay_date tells them apart.
    const paid =
      status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED' || (status === 'TRADE_CLOSED' && !!paidAt);
    return {
      orderId,
      providerTxnId: typeof r.trade_no === 'string' ? r.trade_no : null,
      status: paid ? 'paid' : status === 'WAIT_BUYER_PAY' ? 'pending' : 'closed',
      amountCents: this.cents(r.total_amount),
      paidAt,
      refunded: status === 'TRADE_CLOSED' && !!paidAt,
    };
  }

  async closeOrder(orderId: string): Promise<void> {
    const r = await this.call('alipay.trade.close', { out_trade_no: orderId });
    // A page/wap trade the buyer never opened does not exist at Alipay: it is as closed as it gets.
    if (r.sub_code === 'ACQ.TRADE_NOT_EXIST') return;
    this.ok(r);
  }

  async refund(input: RefundInput): Promise<RefundState> {
    checkId('alipay', 'refundId', input.refundId, REFUND_ID);
    checkAmount('alipay', input.amountCents);
    const r = this.ok(
      await this.call('alipay.trade.refund', {
        out_trade_no: input.orderId,
        out_request_no: input.refundId,
        refund_amount: centsToYuan(input.amountCents),
        refund_reason: input.reason.slice(0, 256),
      }),
    );
    // Alipay: fund_change Y means refunded now; otherwise (a repeat request) ask the refund query.
    if (r.fund_change === 'Y') {
      return this.refundState(
        input.orderId,
        input.refundId,
        input.amountCents,
        'succeeded',
        r.gmt_refund_pay,
      );
    }
    const known = await this.queryRefund(input.orderId, input.refundId);
    return known ?? this.refundState(input.orderId, input.refundId, input.amountCents, 'processing', null);
  }

  async queryRefund(orderId: string, refundId: string): Promise<RefundState | null> {
    const r = await this.call('alipay.trade.fastpay.refund.query', {
      out_trade_no: orderId,
      out_request_no: refundId,
    });
    if (r.sub_code === 'ACQ.TRADE_NOT_EXIST') return null;
    this.ok(r);
    if (r.refund_amount === undefined) return null;
    const succeeded = r.refund_status === undefined || r.refund_status === 'REFUND_SUCCESS';
    const status = succeeded ? 'succeeded' : 'processing';
    return this.refundState(orderId, refundId, this.cents(r.refund_amount), status, r.gmt_refund_pay);
  }

  async transfer(input: TransferInput): Promise<TransferState> {
    checkId('alipay', 'transferId', input.transferId, TRANSFER_ID);
    checkAmount('alipay', input.amountCents);
    const byUserId = /^2088\d{12}$/.test(input.payeeAccount);
    if (!byUserId && !input.payeeName) {
      throw new ProviderError(
        'alipay',
        'invalid_request',
        'a transfer to an Alipay login id needs the payee name',
      );
    }
    const r = await this.call('alipay.fund.trans.uni.transfer', {
      out_biz_no: input.transferId,
      trans_amount: centsToYuan(input.amountCents),
      product_code: 'TRANS_ACCOUNT_NO_PWD',
      biz_scene: 'DIRECT_TRANSFER',
      order_title: input.remark.slice(0, 64),
      remark: input.remark.slice(0, 200),
      payee_info: {
        identity: input.payeeAccount,
        identity_type: byUserId ? 'ALIPAY_USER_ID' : 'ALIPAY_LOGON_ID',
        ...(input.payeeName ? { name: input.payeeName } : {}),
      },
    });
    if (r.code === '40004' && !/PARAMETER/.test(String(r.sub_code))) {
      // A business refusal (unknown payee, name mismatch, balance): the transfer definitively failed.
      return this.transferState(input.transferId, null, input.amountCents, 'failed', String(r.sub_code));
    }
    this.ok(r);
    const status = TRANSFER_STATUS[String(r.status)] ?? 'processing';
    return this.transferState(input.transferId, String(r.order_id), input.amountCents, status, null);
  }

  async queryTransfer(transferId: string): Promise<TransferState | null> {
    const r = await this.call('alipay.fund.trans.common.query', {
      out_biz_no: transferId,
      product_code: 'TRANS_ACCOUNT_NO_PWD',
      biz_scene: 'DIRECT_TRANSFER',
    });
    if (r.sub_code === 'ORDER_NOT_EXIST') return null;
    this.ok(r);
    const status = TRANSFER_STATUS[String(r.status)] ?? 'processing';
    const reason = typeof r.error_code === 'string' ? r.error_code : null;
    return this.transferState(transferId, String(r.order_id), this.cents(r.trans_amount), status, reason);
  }

  verifyNotification(input: RawNotification, expected?: ExpectedAmount): Promise<NotificationResult> {
    return verifyAlipayNotification(this.sdk, this.settings.appId, input, expected);
  }

  acknowledge(result: NotificationResult): NotificationAck {
    return alipayAck(result);
  }

  refuse(): NotificationAck {
    return alipayRefusal();
  }

  async probe(): Promise<{ ok: true } | { ok: false; error: string }> {
    try {
      const r = await this.call('alipay.trade.query', { out_trade_no: 'lwhealthprobe' });
      if (r.code === '10000' || r.sub_code === 'ACQ.TRADE_NOT_EXIST') return { ok: true };
      return { ok: false, error: `${r.code} ${String(r.sub_code ?? r.msg)}` };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  }

  /** One gateway call with the response signature verified; maps transport and gateway-level failures. */
  private async call(
    method: string,
    biz: Record<string, unknown>,
    notify = false,
  ): Promise<AlipaySdkCommonResult> {
    let r: AlipaySdkCommonResult;
    const params = notify ? { notify_url: this.settings.notifyUrl, bizContent: biz } : { bizContent: biz };
    try {
      r = await this.sdk.exec(method, params, { validateSign: true });
    } catch (err) {
      throw transportError(err);
    }
    if (r.code === '20000' || /SYSTEM_ERROR/.test(String(r.sub_code))) {
      throw new ProviderError(
        'alipay',
        'unavailable',
        `${method}: ${String(r.sub_msg ?? r.msg)}`,
        r.sub_code ?? r.code,
      );
    }
    if (r.code !== '10000' && r.code !== '40004') {
      const detail = `${method}: ${r.code} ${String(r.sub_code)} ${String(r.sub_msg ?? r.msg)}`;
      throw new ProviderError('alipay', 'invalid_request', detail, r.sub_code ?? r.code);
    }
    return r;
  }

  /** Requires success; a business refusal becomes ProviderError `rejected` carrying the sub_code. */
  private ok(r: AlipaySdkCommonResult): AlipaySdkCommonResult {
    if (r.code === '10000') return r;
    throw new ProviderError('alipay', 'rejected', String(r.sub_msg ?? r.msg), r.sub_code ?? r.code);
  }

  private cents(value: unknown): number {
    const cents = yuanToCents(value);
    if (cents === null)
      throw new ProviderError('alipay', 'unavailable', `malformed amount in response: ${String(value)}`);
    return cents;
  }

  private refundState(
    orderId: string,
    refundId: string,
    amountCents: number,
    status: RefundState['status'],
    at: unknown,
  ): RefundState {
    const succeededAt = status === 'succeeded' ? (fromAlipayTime(at) ?? new Date()) : null;
    return { orderId, refundId, providerRefundId: null, amountCents, status, succeededAt };
  }

  private transferState(
    transferId: string,
    providerTransferId: string | null,
    amountCents: number,
    status: TransferStatus,
    failureReason: string | null,
  ): TransferState {
    return { transferId, providerTransferId, amountCents, status, failureReason, packageInfo: null };
  }
}

function transportError(err: unknown): ProviderError {
  const e = err as { message?: string; cause?: { name?: string; code?: string } };
  const message = e?.message ?? String(err);
  if (message.includes('验签失败')) {
    return new ProviderError(
      'alipay',
      'bad_response_signature',
      'the response signature does not verify',
      null,
      {
        cause: err,
      },
    );
  }
  if (/Timeout/i.test(e?.cause?.name ?? '')) {
    return new ProviderError('alipay', 'timeout', 'no answer in time', null, { cause: err });
  }
  return new ProviderError('alipay', 'unavailable', message, null, { cause: err });
}
