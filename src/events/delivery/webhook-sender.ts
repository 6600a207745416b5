import { Injectable, OnApplicationShutdown } from '@nestjs/common';
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

/** Idle keep-alive sockets are closed after this long (sooner when the receiver's Keep-Alive header says so). */
const IDLE_SOCKET_MS = 30_000;
/** Destinations (origin and checked addresses) whose connections are kept; the least recently used go first. */
const MAX_DESTINATIONS = 500;

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
 * Keep-alive connections per destination, where a destination is the URL's origin *and* the addresses UrlSafety
 * checked for this very delivery. Each destination has its own agent whose `lookup` answers only those addresses,
 * so every socket an agent opens (and later reuses) is connected to an address that was checked. When DNS changes,
 * the next delivery's check yields other addresses, hence another agent and a new connection to the newly checked
 * address; the old agent's idle sockets are never used for it. A destination now refused never gets an agent.
 */
export class DestinationAgents {
  private readonly agents = new Map<string, http.Agent>();

  for(url: URL, addresses: ResolvedAddress[]): http.Agent {
    const key = `${url.protocol}//${url.host}|${addresses.map((a) => `${a.family}/${a.address}`).join(',')}`;
    const known = this.agents.get(key);
    if (known) {
      // Most recently used last, so eviction takes the stalest.
      this.agents.delete(key);
      this.agents.set(key, known);
      return known;
    }
    const pinned: LookupFunction = (_hostname, options, callback) => {
      const all = (options as { all?: boolean }).all;
      if (all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    };
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, lookup: pinned };
    const agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    if (this.agents.size >= MAX_DESTINATIONS) {
      const [oldest, old] = this.agents.entries().next().value!;
      this.agents.delete(oldest);
      old.destroy();
    }
    this.agents.set(key, agent);
    return agent;
  }

  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/**
 * One HTTP POST to a webhook receiver (or a Web Push service: the notifications module sends offers through it, so
 * they get the same checks). The destination is checked and resolved by UrlSafety first, for every
 * delivery, and the request goes out on a connection to those checked addresses only (DestinationAgents), so DNS
 * cannot change between check and connect, and a kept-alive connection is reused only for the addresses it was
 * opened to. Connections are kept alive between deliveries (a new TCP connection per delivery cost more than the
 * delivery's own SQL). Redirects are never followed (a 3xx is a failure); the whole exchange is bounded by
 * WEBHOOK_TIMEOUT_MS; the response body is drained and ignored.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly agents = new DestinationAgents();

  constructor(private readonly safety: UrlSafety) {}

  onApplicationShutdown(): void {
    this.agents.destroy();
  }

  async send(rawUrl: string, headers: Record<string, string>, body: string | Buffer): Promise<SendResult> {
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
      const status = await post(url, this.agents.for(url, addresses), headers, body);
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

type Body = string | Buffer;

function post(url: URL, agent: http.Agent, headers: Record<string, string>, body: Body): Promise<number> {
  return once(url, agent, headers, body).catch((err: Error & { code?: string; reused?: boolean }) => {
    // A kept-alive connection the receiver closed while it sat idle fails at once, before any answer: the delivery
    // is sent again on a new connection instead of waiting for its retry (receivers dedupe by event id anyway).
    if (err.reused && (err.code === 'ECONNRESET' || err.code === 'EPIPE'))
      return once(url, agent, headers, body);
    throw err;
  });
}

function once(url: URL, agent: http.Agent, headers: Record<string, string>, body: Body): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const req = client.request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`timeout: no response within ${WEBHOOK_TIMEOUT_MS / 1000} s`)),
      WEBHOOK_TIMEOUT_MS,
    );
    req.on('response', (res) => {
      clearTimeout(timer);
      resolve(res.statusCode ?? 0);
      // The status is all we need; the body is drained so the connection can be reused, unless it is slow to come.
      const slow = setTimeout(() => res.destroy(), 1_000);
      slow.unref();
      res.on('end', () => clearTimeout(slow));
      res.on('error', () => clearTimeout(slow));
      res.resume();
    });
    req.on('error', (err: Error & { reused?: boolean }) => {
      clearTimeout(timer);
      err.reused = req.reusedSocket;
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
