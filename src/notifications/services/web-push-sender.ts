import { Inject, Injectable } from '@nestjs/common';
import { generateRequestDetails } from 'web-push';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { WebhookSender } from '../../events/delivery/webhook-sender';
import type { PushSubscriptionRow } from '../notifications.rows';

/** What one push service answered: taken, gone for good (the subscription ends), or failed this time. */
export type PushOutcome =
  | { result: 'delivered'; statusCode: number }
  | { result: 'gone'; statusCode: number }
  | { result: 'failed'; statusCode: number | null; error: string };

/**
 * One Web Push message (RFC 8030) to one subscription. The `web-push` library encrypts the payload to the
 * subscription's keys (RFC 8291, aes128gcm) and signs the VAPID token (RFC 8292) with the service's key; the POST
 * itself goes through WebhookSender, like a webhook, so the endpoint is checked against the SSRF rules and connected
 * to at the checked addresses only (web-push's own sender would resolve the name again, and speaks https only).
 */
@Injectable()
export class WebPushSender {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly http: WebhookSender,
  ) {}

  async send(
    subscription: PushSubscriptionRow,
    payload: string,
    options: { ttlSeconds: number; urgency: 'high' | 'normal' },
  ): Promise<PushOutcome> {
    let request: ReturnType<typeof generateRequestDetails>;
    try {
      request = generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        {
          vapidDetails: this.config.webPush,
          TTL: options.ttlSeconds,
          urgency: options.urgency,
          contentEncoding: 'aes128gcm',
        },
      );
    } catch (err) {
      return { result: 'failed', statusCode: null, error: `not encrypted: ${(err as Error).message}` };
    }
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    const answer = await this.http.send(request.endpoint, headers, request.body as Buffer);
    if (answer.ok) return { result: 'delivered', statusCode: answer.statusCode! };
    // RFC 8030 §7.3: 404 and 410 mean the subscription expired or was withdrawn.
    if (answer.statusCode === 404 || answer.statusCode === 410)
      return { result: 'gone', statusCode: answer.statusCode };
    return { result: 'failed', statusCode: answer.statusCode, error: answer.error ?? 'failed' };
  }
}

/**
 * Why no device took a push (an offer's or a money notification's), as reason codes (the worker sees the delivery;
 * no address or message goes in it): each push service's status (`http_410`), or how the request failed.
 */
export function undeliveredSummary(outcomes: PushOutcome[]): string {
  const codes = outcomes.map((o) => {
    if (o.statusCode !== null) return `http_${o.statusCode}`;
    const error = o.result === 'failed' ? o.error : '';
    return /^(blocked|timeout|not encrypted)/.exec(error)?.[1].replace(' ', '_') ?? 'unreachable';
  });
  return [...new Set(codes)].join(' ').slice(0, 200);
}
