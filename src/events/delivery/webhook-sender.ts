import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ResolvedAddress, UnsafeDestinationError, UrlSafety } from '../url-safety/url-safety';

/** A receiver must answer within this time (spec: "answers 200 within 5 seconds"). */
export const WEBHOOK_TIMEOUT_MS = 5_000;
export const WEBHOOK_USER_AGENT = 'Legwork-Webhooks/1';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** `sha256=<hex>`: HMAC-SHA256 of the raw body keyed with the endpoint's signing secret (the spec's X-Signature). */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * `t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `<t>.<raw body>` with the same secret (Stripe's scheme), the
 * `Legwork-Signature` header. The signed time lets a receiver refuse a captured delivery replayed later (the SDK
 * allows 5 minutes); X-Signature alone cannot, since the same body always has the same signature.
 */
export function signTimestamped(secret: string, body: string, signedAt: Date): string {
  const t = Math.floor(signedAt.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex')}`;
}

/**
 * One HTTP POST to a webhook receiver. The destination is checked and resolved by UrlSafety first, and the socket
 * connects only to those checked addresses (a custom `lookup`), so DNS cannot change between check and connect.
 * Redirects are never followed (a 3xx is a failure); the whole exchange is bounded by WEBHOOK_TIMEOUT_MS; the
 * response body is drained and ignored.
 */
@Injectable()
export class WebhookSender {
  constructor(private readonly safety: UrlSafety) {}

  async send(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    let addresses: ResolvedAddress[];
    try {
      url = this.safety.parse(rawUrl);
      addresses = await this.safety.destination(url);
    } catch (err) {
      const message = err instanceof UnsafeDestinationError ? err.message : String(err);
      return { ok: false, statusCode: null, latencyMs: elapsed(), error: `blocked: ${message}` };
    }
    try {
      const status = await post(url, addresses, headers, body);
      const ok = status >= 200 && status < 300;
      const error = ok
        ? null
        : status >= 300 && status < 400
          ? `redirect not followed (HTTP ${status})`
          : `HTTP ${status}`;
      return { ok, statusCode: status, latencyMs: elapsed(), error };
    } catch (err) {
      return { ok: false, statusCode: null, latencyMs: elapsed(), error: describe(err) };
    }
  }
}

function post(
  url: URL,
  addresses: ResolvedAddress[],
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    const all = (options as { all?: boolean }).all;
    if (all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const req = client.request(url, {
      method: 'POST',
      agent: false,
      lookup: pinned,
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`timeout: no response within ${WEBHOOK_TIMEOUT_MS / 1000} s`)),
      WEBHOOK_TIMEOUT_MS,
    );
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      res.on('error', () => undefined);
      resolve(res.statusCode ?? 0);
      // The status is all we need; do not let a slow body hold the socket.
      setTimeout(() => res.destroy(), 1_000).unref();
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.message?.startsWith('timeout')) return e.message;
  return e.code ? `${e.code}: ${e.message ?? 'connection failed'}` : (e.message ?? String(err));
}
