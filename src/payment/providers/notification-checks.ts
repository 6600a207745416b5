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
