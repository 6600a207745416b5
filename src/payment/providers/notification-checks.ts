import type {
  ExpectedAmount,
  NotificationFailure,
  NotificationFailureCode,
  NotificationResult,
  ProviderNotification,
} from './provider.types';

/** Pieces of notification verification both providers share. */
export function failure(
  code: NotificationFailureCode,
  message: string,
  extra: Partial<NotificationFailure> = {},
): NotificationResult {
  return { ok: false, failure: { code, message, ...extra } };
}

/**
 * How old a notification may be, by the date the provider signed into it (Alipay's notify_time, WeChat Pay's
 * create_time). Alipay retries an unacknowledged notification for about 25 hours (4m, 10m, 10m, 1h, 2h, 6h, 15h),
 * WeChat Pay for about 24 hours (15s up to 6h apart); both date a retry no later than its first sending. Anything
 * older than twice that is no delivery or retry but a captured message sent again, and is refused. Measured on the
 * real clock, never the business clock: a moved business clock must not widen the window.
 */
export const NOTIFICATION_MAX_AGE_HOURS = 48;

/** A refusal when the provider's own date on a notification is missing, unreadable or older than the window. */
export function checkAge(
  sentAt: Date | null,
  field: string,
  raw: string | undefined,
  nowMs: number,
): NotificationResult | null {
  if (!sentAt) return failure('malformed', `${field} is missing or malformed`);
  if (nowMs - sentAt.getTime() > NOTIFICATION_MAX_AGE_HOURS * 3_600_000) {
    return failure(
      'stale_notification',
      `${field} ${raw} is older than ${NOTIFICATION_MAX_AGE_HOURS} hours, beyond the provider's retry window: ` +
        'a replayed message, not a delivery',
    );
  }
  return null;
}

/** Header lookup that ignores case and takes the first value of a repeated header. */
export function headerValue(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

export function rawText(rawBody: Buffer | string): string {
  return Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody;
}

/**
 * The last check: the amount the provider reports must be the amount the service expects for that order, refund or
 * transfer. A notification without a per-event amount (Alipay refunds report a running total) is not compared.
 * For a payment this is an early refusal, so the provider gets a failure answer and the notification is logged as
 * refused; the authoritative check is OrderSettlement.complete, which every report of a paid order goes through.
 */
export async function checkExpected(
  notification: ProviderNotification,
  expected: ExpectedAmount | undefined,
): Promise<NotificationResult> {
  if (!expected) return { ok: true, notification };
  const want = await expected(notification);
  if (want === null) {
    return failure('unknown_reference', 'the notification is about something the service does not know');
  }
  const got = notification.amountCents;
  if (got !== null && got !== want) {
    return failure('amount_mismatch', `the provider reports ${got} cents, the service expects ${want}`, {
      expectedAmountCents: want,
      actualAmountCents: got,
    });
  }
  return { ok: true, notification };
}
