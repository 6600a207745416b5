import { createHmac, timingSafeEqual } from 'node:crypto';
import { LegworkSignatureVerificationError } from './errors';
import type { components } from './generated/openapi';

/** A webhook delivery's body, typed by its `event` (task.*, assignment.*, payment.*, refund.*, webhook.*). */
export type WebhookEvent = components['schemas']['WebhookEvent'];

/** Request headers as Node's http (IncomingHttpHeaders), express, or fetch (Headers) give them. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the signed time may be from now, in seconds (default 300): older deliveries are refused as replays. */
  toleranceSeconds?: number;
  /** The current time in unix seconds (tests). */
  now?: number;
}

export const SIGNATURE_HEADER = 'legwork-signature';

function header(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function refuse(message: string): never {
  throw new LegworkSignatureVerificationError(message, { code: 'signature_verification_failed' });
}

/**
 * Checks a delivery's `Legwork-Signature: t=<unix>,v1=<hex>`: HMAC-SHA256 with the endpoint's secret over
 * `<t>.<raw body>`, compared in constant time, with t within the tolerance of now. Pass the body exactly as it came
 * off the wire (a re-serialised JSON object would not match). Answers the parsed event; throws
 * LegworkSignatureVerificationError otherwise.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeadersLike,
  secret: string,
  opts: VerifyOptions = {},
): WebhookEvent {
  const value = header(headers, SIGNATURE_HEADER);
  if (!value) refuse('No Legwork-Signature header');
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === 't' && /^\d+$/.test(val)) timestamp = Number(val);
    else if (key === 'v1') signatures.push(val);
  }
  if (timestamp === undefined || signatures.length === 0) refuse('Malformed Legwork-Signature header');

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), body]))
    .digest();
  const matches = signatures.some((hex) => {
    const given = /^[0-9a-f]{64}$/i.test(hex) ? Buffer.from(hex, 'hex') : undefined;
    return given !== undefined && timingSafeEqual(given, expected);
  });
  if (!matches) refuse('Legwork-Signature does not match the body and secret');

  const tolerance = opts.toleranceSeconds ?? 300;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance)
    refuse(`Legwork-Signature timestamp is outside the ${tolerance} s tolerance`);

  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch (cause) {
    throw new LegworkSignatureVerificationError('Signed body is not JSON', { code: 'invalid_json', cause });
  }
}
