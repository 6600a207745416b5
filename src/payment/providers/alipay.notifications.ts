import type { AlipaySdk } from 'alipay-sdk';
import { checkAge, checkExpected, failure, rawText } from './notification-checks';
import { fromAlipayTime, yuanToCents } from './provider-formats';
import type {
  ExpectedAmount,
  NotificationAck,
  NotificationResult,
  OrderStatus,
  ProviderNotification,
  RawNotification,
} from './provider.types';

/**
 * Alipay asynchronous notifications (form-encoded POST, notify_type trade_status_sync). The signature is checked by
 * the SDK's checkNotifySignV2 over the decoded parameters; then the app id must be ours, and its signed notify_time
 * (Beijing time) no older than NOTIFICATION_MAX_AGE_HOURS: Alipay signs no timestamp header, so without this a
 * captured notification could be replayed for ever (redeliveries change nothing, but a replay is still refused). A
 * notification carrying
 * refund fields (out_biz_no, refund_fee, gmt_refund) reports a refund, not a new payment: treating it as a payment
 * would credit the payer twice.
 */
const TRADE_STATUS: Record<string, OrderStatus> = {
  WAIT_BUYER_PAY: 'pending',
  TRADE_SUCCESS: 'paid',
  TRADE_FINISHED: 'paid',
  TRADE_CLOSED: 'closed',
};

export async function verifyAlipayNotification(
  sdk: AlipaySdk,
  appId: string,
  input: RawNotification,
  expected?: ExpectedAmount,
  nowMs: number = Date.now(),
): Promise<NotificationResult> {
  const params: Record<string, string> = Object.fromEntries(new URLSearchParams(rawText(input.rawBody)));
  if (!params.sign || !params.app_id || !params.out_trade_no) {
    return failure('malformed', 'not an Alipay notification (sign, app_id or out_trade_no missing)');
  }
  let valid = false;
  try {
    valid = sdk.checkNotifySignV2(params);
  } catch {
    valid = false;
  }
  if (!valid)
    return failure('invalid_signature', 'the RSA2 signature does not verify with the Alipay public key');
  if (params.app_id !== appId) return failure('app_mismatch', `addressed to app ${params.app_id}, not ours`);
  const stale = checkAge(fromAlipayTime(params.notify_time), 'notify_time', params.notify_time, nowMs);
  if (stale) return stale;
  if (params.notify_type !== 'trade_status_sync') {
    return failure('unsupported_event', `notify_type ${params.notify_type} is not handled`);
  }
  const notification = normalise(params);
  if (!notification) return failure('malformed', 'trade_status or an amount is missing or malformed');
  return checkExpected(notification, expected);
}

function normalise(p: Record<string, string>): ProviderNotification | null {
  const base = { provider: 'alipay' as const, eventId: p.notify_id ?? '', appOrMerchantId: p.app_id };
  if (p.out_biz_no || p.refund_fee || p.gmt_refund) {
    const total = yuanToCents(p.refund_fee);
    return {
      ...base,
      kind: 'refund',
      orderId: p.out_trade_no,
      refundId: p.out_biz_no ?? '',
      providerRefundId: null,
      amountCents: null,
      totalRefundedCents: total,
      status: 'succeeded',
    };
  }
  const status = TRADE_STATUS[p.trade_status];
  const amountCents = yuanToCents(p.total_amount);
  if (!status || amountCents === null || !p.trade_no) return null;
  return {
    ...base,
    kind: 'payment',
    orderId: p.out_trade_no,
    providerTxnId: p.trade_no,
    amountCents,
    status,
    paidAt: status === 'paid' ? fromAlipayTime(p.gmt_payment) : null,
  };
}

/** Alipay retries until the body is exactly `success`. */
export function alipayAck(result: NotificationResult): NotificationAck {
  return { status: 200, contentType: 'text/plain; charset=utf-8', body: result.ok ? 'success' : 'failure' };
}

/** Alipay redelivers on any answer but `success`; the status and the reason are its own business. */
export function alipayRefusal(): NotificationAck {
  return alipayAck({ ok: false, failure: { code: 'malformed', message: 'refused' } });
}
