import type { KeyObject } from 'node:crypto';
import type { WechatPaySettings } from '../../config/payment-config';
import { checkAge, checkExpected, failure, headerValue, rawText } from './notification-checks';
import { fromRfc3339 } from './provider-formats';
import { wechatpaySdk } from './wechatpay-sdk';
import type {
  ExpectedAmount,
  NotificationAck,
  NotificationResult,
  OrderStatus,
  ProviderNotification,
  RawNotification,
  RefundStatus,
  TransferStatus,
} from './provider.types';

/**
 * WeChat Pay APIv3 notifications. In order: the Wechatpay-* headers are present; the signature is not WeChat's
 * SIGNTEST probe (which merchants must reject); the serial is our WeChat Pay public key id; the timestamp is within
 * 300 s of now; Rsa.verify accepts the signature over "timestamp\nnonce\nraw body\n" with the WeChat Pay public key;
 * the resource decrypts with AesGcm and the APIv3 key; it is addressed to our merchant and app; the event's
 * create_time is no older than NOTIFICATION_MAX_AGE_HOURS (the header timestamp is fresh on every retry, so it
 * alone does not bound how old the event is).
 *
 * The clock here is the real one on purpose: freshness guards against replay of captured messages, which a moved
 * business clock must not widen.
 */
const MAX_SKEW_SECONDS = 300;
const SIGNTEST = 'WECHATPAY/SIGNTEST/';

const TRADE_STATE: Record<string, OrderStatus> = {
  SUCCESS: 'paid',
  REFUND: 'paid',
  NOTPAY: 'pending',
  USERPAYING: 'pending',
  CLOSED: 'closed',
  REVOKED: 'closed',
  PAYERROR: 'failed',
};

const REFUND_STATUS: Record<string, RefundStatus> = {
  SUCCESS: 'succeeded',
  PROCESSING: 'processing',
  CLOSED: 'failed',
  ABNORMAL: 'failed',
};

export const TRANSFER_STATE: Record<string, TransferStatus> = {
  ACCEPTED: 'processing',
  PROCESSING: 'processing',
  TRANSFERING: 'processing',
  CANCELING: 'processing',
  WAIT_USER_CONFIRM: 'waiting_payee',
  SUCCESS: 'succeeded',
  FAIL: 'failed',
  CANCELLED: 'cancelled',
};

type Resource = Record<string, unknown>;

export async function verifyWechatNotification(
  settings: WechatPaySettings,
  publicKey: KeyObject,
  input: RawNotification,
  expected?: ExpectedAmount,
  nowMs: number = Date.now(),
): Promise<NotificationResult> {
  const timestamp = headerValue(input.headers, 'wechatpay-timestamp');
  const nonce = headerValue(input.headers, 'wechatpay-nonce');
  const signature = headerValue(input.headers, 'wechatpay-signature');
  const serial = headerValue(input.headers, 'wechatpay-serial');
  if (!timestamp || !nonce || !signature || !serial)
    return failure('malformed', 'Wechatpay-* headers missing');
  if (signature.startsWith(SIGNTEST)) return failure('signature_probe', 'WeChat signature probe (SIGNTEST)');
  if (serial !== settings.platformPublicKeyId)
    return failure('unknown_key', `unknown Wechatpay-Serial ${serial}`);
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) {
    return failure(
      'stale_timestamp',
      `Wechatpay-Timestamp ${timestamp} is more than ${MAX_SKEW_SECONDS} s off`,
    );
  }
  const body = rawText(input.rawBody);
  const { Aes, Formatter, Rsa } = wechatpaySdk();
  let verified = false;
  try {
    verified = Rsa.verify(Formatter.response(timestamp, nonce, body), signature, publicKey);
  } catch {
    verified = false;
  }
  if (!verified)
    return failure('invalid_signature', 'the signature does not verify with the WeChat Pay public key');

  let envelope: {
    id?: string;
    create_time?: unknown;
    event_type?: string;
    resource?: Record<string, string>;
  };
  let resource: Resource;
  try {
    envelope = JSON.parse(body) as typeof envelope;
    const r = envelope.resource;
    if (!r || r.algorithm !== 'AEAD_AES_256_GCM')
      return failure('malformed', 'resource is not AEAD_AES_256_GCM');
    const plain = Aes.AesGcm.decrypt(r.ciphertext, settings.apiV3Key, r.nonce, r.associated_data ?? '');
    resource = JSON.parse(plain) as Resource;
  } catch {
    return failure(
      'decrypt_failed',
      'the body is not JSON or the resource does not decrypt with the APIv3 key',
    );
  }
  const merchantField = resource.mchid ?? resource.mch_id;
  const merchant = typeof merchantField === 'string' ? merchantField : '';
  const appid = resource.appid;
  if (merchant !== settings.mchId || (appid !== undefined && appid !== settings.appId)) {
    return failure('app_mismatch', `addressed to merchant ${merchant}, not ours`);
  }
  // The header timestamp is per delivery (each retry is signed afresh); create_time is the event's own date.
  const created = typeof envelope.create_time === 'string' ? envelope.create_time : undefined;
  const stale = checkAge(fromRfc3339(created), 'create_time', created, nowMs);
  if (stale) return stale;
  const notification = normalise(String(envelope.event_type), String(envelope.id ?? ''), merchant, resource);
  if (notification === 'unsupported') {
    return failure('unsupported_event', `event ${String(envelope.event_type)} is not handled`);
  }
  if (!notification) return failure('malformed', 'the resource lacks ids, a state or an amount');
  return checkExpected(notification, expected);
}

function normalise(
  event: string,
  eventId: string,
  merchant: string,
  r: Resource,
): ProviderNotification | null | 'unsupported' {
  const base = { provider: 'wechat' as const, eventId, appOrMerchantId: merchant };
  const amount = (r.amount ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const int = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
  if (event.startsWith('TRANSACTION.')) {
    const orderId = str(r.out_trade_no);
    const txn = str(r.transaction_id);
    const status = TRADE_STATE[String(r.trade_state)];
    const cents = int(amount.total);
    if (!orderId || !txn || !status || cents === null) return null;
    return {
      ...base,
      kind: 'payment',
      orderId,
      providerTxnId: txn,
      amountCents: cents,
      status,
      paidAt: fromRfc3339(r.success_time),
    };
  }
  if (event.startsWith('REFUND.')) {
    const orderId = str(r.out_trade_no);
    const refundId = str(r.out_refund_no);
    const status = REFUND_STATUS[String(r.refund_status)];
    const cents = int(amount.refund);
    if (!orderId || !refundId || !status || cents === null) return null;
    return {
      ...base,
      kind: 'refund',
      orderId,
      refundId,
      providerRefundId: str(r.refund_id),
      amountCents: cents,
      totalRefundedCents: null,
      status,
    };
  }
  if (event === 'MCHTRANSFER.BILL.FINISHED') {
    const transferId = str(r.out_bill_no);
    const billNo = str(r.transfer_bill_no);
    const status = TRANSFER_STATE[String(r.state)];
    const cents = int(r.transfer_amount);
    if (!transferId || !billNo || !status || cents === null) return null;
    return {
      ...base,
      kind: 'transfer',
      transferId,
      providerTransferId: billNo,
      amountCents: cents,
      status,
      failureReason: str(r.fail_reason),
    };
  }
  return 'unsupported';
}

/** WeChat retries on anything but 200/204; the body follows the API spec ({code, message}). */
/** WeChat Pay redelivers on a non-2xx status; the FAIL body says why. */
export function wechatRefusal(message: string, status: number): NotificationAck {
  return { status, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message }) };
}

export function wechatAck(result: NotificationResult): NotificationAck {
  if (result.ok)
    return { status: 200, contentType: 'application/json', body: '{"code":"SUCCESS","message":"成功"}' };
  const auth = ['invalid_signature', 'signature_probe', 'stale_timestamp', 'unknown_key'].includes(
    result.failure.code,
  );
  return {
    status: auth ? 401 : 400,
    contentType: 'application/json',
    body: JSON.stringify({ code: 'FAIL', message: result.failure.message }),
  };
}
