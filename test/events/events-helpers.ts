import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inTransaction } from '../../src/database/transaction';
import { WebhookDelivery } from '../../src/events/delivery/webhook-delivery';
import { OutboxPublisher } from '../../src/events/delivery/outbox-publisher';
import type { TestApp } from '../support/app';
import type { TestAgent } from '../support/actors';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  json: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Status codes to answer with, in order; once used up, 200. */
  script: number[];
  /** Decides the status of a request before the script does (return undefined to fall through). */
  decide?: (r: Received) => number | undefined;
  /** Extra response headers per status (e.g. Location for 302). */
  headers: Record<number, Record<string, string>>;
  connections: number;
  close(): Promise<void>;
}

/** A local HTTP receiver on 127.0.0.1, port 0, recording every request and answering from a script. */
export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    script: [],
    headers: {},
    connections: 0,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // recorded as is
      }
      const got: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        raw,
        json,
      };
      receiver.received.push(got);
      const status = receiver.decide?.(got) ?? receiver.script.shift() ?? 200;
      res.writeHead(status, { 'Content-Type': 'text/plain', ...(receiver.headers[status] ?? {}) });
      res.end(status < 300 ? 'ok' : 'no');
    });
  });
  server.on('connection', () => receiver.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** What a receiver must do: recompute sha256=<hex HMAC-SHA256(secret, raw body)> and compare in constant time. */
export function signatureValid(secret: string, raw: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const got = Buffer.from(header);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/**
 * Checks `Legwork-Signature: t=<unix>,v1=<hex>` as a receiver would (Stripe's scheme): HMAC-SHA256 of
 * `<t>.<raw body>`, any v1 may match, and t within `toleranceSeconds` of `nowSeconds`.
 */
export function timestampedSignatureValid(
  secret: string,
  raw: string,
  header: string | string[] | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  if (typeof header !== 'string') return false;
  const pairs = header.split(',').map((p) => p.split('=', 2) as [string, string]);
  const t = pairs.find(([k]) => k === 't')?.[1];
  if (!t || !/^\d+$/.test(t) || Math.abs(nowSeconds - Number(t)) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex'));
  return pairs.some(([k, v]) => {
    const got = Buffer.from(v ?? '');
    return k === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
  });
}

export async function registerWebhook(
  t: TestApp,
  agent: TestAgent,
  url: string,
  events: string[] = ['*'],
): Promise<{ webhook_id: string; secret: string }> {
  const res = await t.http
    .post('/v1/agent/webhooks')
    .set('Authorization', agent.bearer)
    .send({ url, events });
  if (res.status !== 201)
    throw new Error(`webhook registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { webhook_id: string; secret: string };
}

/** A task row owned by the agent, inserted directly (the task module has its own tests). */
export async function insertTask(t: TestApp, agentId: string): Promise<string> {
  const now = t.clock.now();
  const [{ id }]: { id: string }[] = await t.db.query(
    `INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, budget_cents, fee_bps,
                        payout_cents, fee_cents, total_cents, deadline_at, estimated_completion_at, created_at, updated_at)
     VALUES ($1, 'Photo of the shop front', 'Take a photo', 'photo', 31.23, 121.47, 5000, 1000, 4500, 500, 5000,
             $2, $2, $3, $3) RETURNING id`,
    [agentId, new Date(now.getTime() + 86_400_000), now],
  );
  return id;
}

/**
 * Writes outbox rows exactly as the task module does (TaskEvents.task / TaskEvents.assignment): task events carry the
 * agent, assignment events the worker, and data always includes task_id.
 */
export async function writeTaskEvent(
  t: TestApp,
  name: string,
  agentId: string,
  taskId: string,
  data: Record<string, unknown>,
): Promise<string> {
  const [{ id }]: { id: string }[] = await t.db.query(
    `INSERT INTO events (name, agent_id, task_id, data, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [name, agentId, taskId, JSON.stringify({ task_id: taskId, ...data }), t.clock.now()],
  );
  return id;
}

export async function writeAssignmentEvent(
  t: TestApp,
  name: string,
  workerId: string,
  taskId: string,
  data: Record<string, unknown>,
): Promise<string> {
  const [{ id }]: { id: string }[] = await t.db.query(
    `INSERT INTO events (name, worker_id, task_id, data, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [
      name,
      workerId,
      taskId,
      JSON.stringify({ assignment_id: randomUUID(), task_id: taskId, ...data }),
      t.clock.now(),
    ],
  );
  return id;
}

/** Several events in one transaction, as one task transition writes them. */
export async function writeEventsTogether(
  t: TestApp,
  rows: {
    name: string;
    agentId?: string;
    workerId?: string;
    taskId?: string;
    data: Record<string, unknown>;
  }[],
): Promise<string[]> {
  return inTransaction(t.db, async (em) => {
    const ids: string[] = [];
    for (const r of rows) {
      const [{ id }]: { id: string }[] = await em.query(
        `INSERT INTO events (name, agent_id, worker_id, task_id, data, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING id`,
        [
          r.name,
          r.agentId ?? null,
          r.workerId ?? null,
          r.taskId ?? null,
          JSON.stringify(r.data),
          t.clock.now(),
        ],
      );
      ids.push(id);
    }
    return ids;
  });
}

/** Publishes the outbox and sends every due delivery, as the job runner would. */
export async function pump(t: TestApp): Promise<void> {
  await t.app.get(OutboxPublisher).drain();
  await t.app.get(WebhookDelivery).drain();
}
