import { Resource } from '../resource';
import { verifyWebhook, type HeadersLike, type VerifyOptions, type WebhookEvent } from '../webhook-signature';

/** Your webhook endpoints (needs `webhook:manage`), their deliveries, and the check of a delivery's signature. */
export class Webhooks extends Resource {
  /** Registers an endpoint; the answer's `secret` (shown only here) is what verify() needs. */
  readonly create = this.method({ verb: 'POST', path: '/v1/agent/webhooks', body: true });
  readonly list = this.method({ verb: 'GET', path: '/v1/agent/webhooks' });
  /** Deletes an endpoint; answers an empty object (204) carrying its `lastResponse`. */
  readonly remove = this.method({ verb: 'DELETE', path: '/v1/agent/webhooks/{id}' });
  /** Sends a webhook.test delivery to the endpoint now and answers how it went. */
  readonly test = this.method({ verb: 'POST', path: '/v1/agent/webhooks/{id}/test' });
  /** The endpoint's deliveries, newest first, with their attempts. */
  readonly deliveries = this.pages({ path: '/v1/agent/webhooks/{id}/deliveries' });

  /** Checks a delivery's Legwork-Signature and answers its event (see verifyWebhook). */
  verify(
    rawBody: string | Uint8Array,
    headers: HeadersLike,
    secret: string,
    opts?: VerifyOptions,
  ): WebhookEvent {
    return verifyWebhook(rawBody, headers, secret, opts);
  }
}
