import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { BadRequest, header, jsonBody, listen, Router, type SandboxRequest, sendJson } from '../http';
import { checkVapid, VapidRefused } from './vapid-token';

/**
 * A local Web Push service (RFC 8030), what Chrome's FCM or Mozilla's autopush are to a browser, for sandbox mode
 * and tests. A client that is not a browser (a test, a script) creates a subscription here (its endpoint), registers
 * it with the API with keys of its own, and reads back what the service pushed, still encrypted to those keys. A
 * push is accepted as a real push service accepts it: to a known subscription, with a TTL, an aes128gcm body of at
 * most 4 KiB and a valid VAPID token (vapid-token.ts) whose key is the one the subscription was made for; a
 * withdrawn subscription answers 410 Gone, an unknown one 404.
 */
export interface TestPushServiceOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
}

export interface TestPushService {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

export interface PushedMessage {
  id: string;
  received_at: string;
  ttl: number;
  urgency: string;
  topic: string | null;
  content_encoding: string;
  /** The encrypted body, base64: decrypt it with the subscription's private key and auth secret (RFC 8291). */
  body_base64: string;
  vapid: { sub: string; aud: string; exp: number; public_key: string };
}

interface Subscription {
  id: string;
  /** The applicationServerKey it was made for (as a browser's subscribe takes one); null: any key. */
  serverKey: string | null;
  withdrawn: boolean;
  messages: PushedMessage[];
}

/** The most a push service must accept (RFC 8030 §7.2). */
const MAX_PAYLOAD = 4096;
/** Messages kept per subscription, newest kept. */
const KEPT = 100;

export async function startTestPushService(options: TestPushServiceOptions = {}): Promise<TestPushService> {
  const subscriptions = new Map<string, Subscription>();
  let origin = '';
  const router = new Router();
  router.on('POST', '/push/:id', (req, res) => accept(subscriptions.get(req.params.id), req, res, origin));
  router.on('POST', '/__sandbox/subscriptions', (req, res) => {
    const body = jsonBody(req);
    const key = body.application_server_key;
    if (key !== undefined && key !== null && typeof key !== 'string') {
      throw new BadRequest('application_server_key must be a base64url string');
    }
    const sub: Subscription = { id: randomUUID(), serverKey: key ?? null, withdrawn: false, messages: [] };
    subscriptions.set(sub.id, sub);
    sendJson(res, 201, { id: sub.id, endpoint: `${origin}/push/${sub.id}` });
  });
  router.on('GET', '/__sandbox/subscriptions/:id/messages', (req, res) => {
    const sub = subscriptions.get(req.params.id);
    if (!sub) return sendJson(res, 404, { code: 'NOT_FOUND', message: 'no such subscription' });
    sendJson(res, 200, { messages: sub.messages });
  });
  router.on('DELETE', '/__sandbox/subscriptions/:id', (req, res) => {
    const sub = subscriptions.get(req.params.id);
    if (!sub) return sendJson(res, 404, { code: 'NOT_FOUND', message: 'no such subscription' });
    // As when the user revokes permission: the push service answers 410 from now on.
    sub.withdrawn = true;
    res.writeHead(204).end();
  });

  const host = options.host ?? '127.0.0.1';
  const server = await listen(host, options.port ?? 0, async (req, res) => {
    if (!(await router.handle(req, res))) sendJson(res, 404, { code: 'NOT_FOUND', message: 'no route' });
  });
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  origin = `http://${shown.includes(':') ? `[${shown}]` : shown}:${server.port}`;
  return { baseUrl: origin, stop: () => server.close() };
}

function accept(
  sub: Subscription | undefined,
  req: SandboxRequest,
  res: ServerResponse,
  origin: string,
): void {
  if (!sub) return refuse(res, 404, 'no such subscription');
  if (sub.withdrawn) return refuse(res, 410, 'the subscription was withdrawn');
  let vapid;
  try {
    vapid = checkVapid(header(req, 'authorization'), origin, Math.floor(Date.now() / 1000));
  } catch (err) {
    if (err instanceof VapidRefused) return refuse(res, 401, err.message);
    throw err;
  }
  if (sub.serverKey && vapid.publicKey !== sub.serverKey) {
    return refuse(res, 403, 'the VAPID key is not the one this subscription was made for');
  }
  const ttl = Number(header(req, 'ttl'));
  if (!Number.isInteger(ttl) || ttl < 0) return refuse(res, 400, 'a TTL header (seconds) is required');
  const encoding = header(req, 'content-encoding') ?? '';
  if (req.rawBody.length > 0 && encoding !== 'aes128gcm')
    return refuse(res, 415, 'the body must be aes128gcm');
  if (req.rawBody.length > MAX_PAYLOAD) return refuse(res, 413, 'payload larger than 4096 bytes');
  const message: PushedMessage = {
    id: randomUUID(),
    received_at: new Date().toISOString(),
    ttl,
    urgency: header(req, 'urgency') ?? 'normal',
    topic: header(req, 'topic') ?? null,
    content_encoding: encoding,
    body_base64: req.rawBody.toString('base64'),
    vapid: { sub: vapid.sub, aud: vapid.aud, exp: vapid.exp, public_key: vapid.publicKey },
  };
  sub.messages = [...sub.messages, message].slice(-KEPT);
  res.writeHead(201, { location: `${origin}/messages/${message.id}`, ttl: String(ttl) }).end();
}

function refuse(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { code: status, message });
}
