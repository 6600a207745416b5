import type { Request, RequestParams } from 'autocannon';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client, Pool, PoolClient } from 'pg';
import type { EntityManager } from 'typeorm';
import { CLAIM_LEASE_MS } from '../../../src/events/delivery/backoff';
import { DELIVERY_BATCH, DELIVERY_CONCURRENCY } from '../../../src/events/delivery/webhook-delivery';
import { drainPipelined } from '../../../src/events/delivery/pipeline';
import { ClaimedDelivery, DeliveryRepository } from '../../../src/events/delivery/delivery.repository';
import type { BenchContext, EventsRun, RunReport, ScenarioReport } from '../context';
import { fraction } from '../context';
import { accessToken, BenchAgent, createAgents, seedOpenTasks } from '../fixtures';
import { cpuFigures, load, LoadResult } from '../load';
import type { PgbenchResult } from '../pgbench';
import { round, Samples } from '../stats';

export const WEBHOOKS_TITLE = 'Webhook delivery throughput and lag to a local receiver';

const AGENTS = 50;
/** Cancellations in the burst run: as fast as 32 connections get answers. */
const BURST = 4_000;
const BURST_CONNECTIONS = 32;
/** Cancellations per second in the steady run, well below what delivery sustains: the lag without a queue. */
const STEADY_RATE = 100;
const WARMUP = 200;
/** Pending deliveries the drain run starts with. */
const DRAIN = 10_000;
/** How long the runner may take to record the results of the deliveries still in flight at the last receipt. */
const SETTLE_MS = 10_000;

/** What the harness's receiver saw, per run. */
class Receipts {
  readonly lag = new Samples();
  readonly seen = new Map<string, number>();
  first = 0;
  last = 0;
  badSignatures = 0;
  requests = 0;

  get unique(): number {
    return this.seen.size;
  }

  get duplicates(): number {
    let n = 0;
    for (const count of this.seen.values()) n += count - 1;
    return n;
  }
}

/**
 * A local receiver doing what docs/webhooks.md asks of one: verify `X-Signature` (sha256= hex HMAC-SHA256 of the raw
 * body with the endpoint's secret, constant-time) before parsing, answer 401 when wrong, 200 at once otherwise.
 * Each agent's endpoint has its own path (/hooks/<n>), which picks the secret. The receipt time is taken when the
 * body has arrived, before the answer.
 */
class Receiver {
  readonly secrets = new Map<string, string>();
  receipts = new Receipts();
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = Date.now();
        const raw = Buffer.concat(chunks);
        const r = this.receipts;
        r.requests++;
        const secret = this.secrets.get(req.url ?? '');
        const header = req.headers['x-signature'];
        if (!secret || typeof header !== 'string' || !signatureValid(secret, raw, header)) {
          r.badSignatures++;
          res.writeHead(401).end();
          return;
        }
        const body = JSON.parse(raw.toString('utf8')) as { event_id: string; timestamp: string };
        const count = r.seen.get(body.event_id) ?? 0;
        r.seen.set(body.event_id, count + 1);
        if (count === 0) {
          r.lag.add(at - Date.parse(body.timestamp));
          r.first ||= at;
          r.last = at;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
}

function signatureValid(secret: string, raw: Buffer, header: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const got = Buffer.from(header);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

interface OpenTask {
  id: string;
  apiKey: string;
}

/** POST /v1/tasks/{id}/cancel, each request taking the next task of the queue with its owner's API key. */
export function cancelRequests(queue: OpenTask[]): Request[] {
  return [
    {
      method: 'POST',
      setupRequest: (req: RequestParams) => {
        const task = queue.shift();
        if (!task) throw new Error('ran out of open tasks to cancel');
        return {
          ...req,
          path: `/v1/tasks/${task.id}/cancel`,
          headers: { authorization: `Bearer ${task.apiKey}` },
        };
      },
    },
  ];
}

/**
 * Cancellations evenly spaced at `rate` per second, open loop (a slow answer does not delay the next request).
 * autocannon's overallRate does not do this: each connection sends its whole per-second budget at the top of every
 * second, which turns a steady rate into a burst each second.
 */
export async function pacedCancels(
  ctx: BenchContext,
  queue: OpenTask[],
  rate: number,
  count: number,
  sentAt?: Map<string, number>,
): Promise<LoadResult> {
  const latency = new Samples();
  const statuses: Record<string, number> = {};
  let errors = 0;
  const rss = rssSampler(ctx);
  const started = Date.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const wait = started + (i * 1000) / rate - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const task = queue.shift();
    if (!task) throw new Error('ran out of open tasks to cancel');
    sentAt?.set(task.id, Date.now());
    const t = performance.now();
    inflight.push(
      fetch(`${ctx.server.baseUrl}/v1/tasks/${task.id}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${task.apiKey}` },
      })
        .then(async (res) => {
          await res.arrayBuffer();
          latency.add(performance.now() - t);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status !== 200) errors++;
        })
        .catch(() => {
          errors++;
        }),
    );
  }
  await Promise.all(inflight);
  const seconds = (Date.now() - started) / 1000;
  const summary = latency.summary();
  return {
    connections: 0,
    seconds: round(seconds),
    rps: round(summary.count / seconds),
    ...summary,
    errors,
    statuses,
    rss_max_mib: rss(),
    rss_end_mib: ctx.server.rssMiB(),
  };
}

/** The agents' pending tasks in random order, each with its owner's API key. */
export async function openTasks(db: Pool, agents: BenchAgent[]): Promise<OpenTask[]> {
  const keys = new Map(agents.map((a) => [a.id, a.apiKey]));
  const { rows } = await db.query<{ id: string; agent_id: string }>(
    `SELECT id, agent_id FROM tasks WHERE agent_id = ANY($1::uuid[]) AND status = 'pending' ORDER BY random()`,
    [agents.map((a) => a.id)],
  );
  return rows.map((r) => ({ id: r.id, apiKey: keys.get(r.agent_id)! }));
}

/** Samples the server's RSS every `everyMs` until stopped; returns the maximum. */
export function rssSampler(ctx: Pick<BenchContext, 'server'>, everyMs = 250): () => number {
  let max = ctx.server.rssMiB();
  const timer = setInterval(() => {
    try {
      max = Math.max(max, ctx.server.rssMiB());
    } catch {
      // the server is gone; the run fails elsewhere
    }
  }, everyMs);
  return () => {
    clearInterval(timer);
    return max;
  };
}

/** Waits until `done()` or until nothing new arrived for `idleMs` (what is missing then is missing). */
export async function settle(done: () => boolean, progress: () => number, idleMs: number): Promise<void> {
  let last = progress();
  let lastChange = Date.now();
  while (!done()) {
    await new Promise((r) => setTimeout(r, 50));
    const now = progress();
    if (now !== last) {
      last = now;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > idleMs) return;
  }
}

/**
 * Webhook delivery: 50 agents each register one endpoint (POST /v1/agent/webhooks, agent JWT, events ["*"]) at a
 * local receiver; cancelling their pending tasks through POST /v1/tasks/{id}/cancel writes one task.cancelled event
 * per task, which the server publishes (outbox -> webhook_deliveries) and delivers. A burst run cancels as fast as
 * the API answers (the queue builds up: receipts per second is what delivery sustains while the API also serves the
 * cancellations), a steady run at a rate delivery easily follows (the lag of the pipeline itself).
 */
export async function webhooksScenario(ctx: BenchContext, baselineDb: Pool): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    id: 'webhooks',
    title: WEBHOOKS_TITLE,
    status: 'ok',
    runs: [],
    notes: [
      `${AGENTS} agents, one endpoint each (registered through POST /v1/agent/webhooks with an agent JWT, events ["*"], http://127.0.0.1 allowed in sandbox mode) at a node:http receiver in the harness that verifies every X-Signature (HMAC-SHA256 of the raw body, constant time) and answers 200 at once.`,
      `Events: POST /v1/tasks/{id}/cancel on seeded pending tasks (task.cancelled, one per task; the task module emits no event on creation). Burst: ${BURST.toLocaleString('en-US')} cancellations on ${BURST_CONNECTIONS} connections; steady: ${STEADY_RATE} cancellations/s evenly spaced (open loop, fetch) for the run's seconds.`,
      'received/s: distinct deliveries from the first to the last receipt. Lag: the event timestamp (written in the cancellation transaction, before commit) to the receiver having the body; it includes the outbox publisher, the delivery queue (claim with lease, kept-alive connections per checked destination) and recording the result.',
      `Drain: ${DRAIN.toLocaleString('en-US')} pending deliveries inserted at once (one statement, as after an outage), delivered by the server's runner at its own speed (no API traffic meanwhile); received/s from the first to the last receipt; its baseline is the same bare pg script on ${DRAIN.toLocaleString('en-US')} pending rows.`,
      `Baseline: a bare pg script running the delivery runner's SQL without HTTP, with the runner's own pipeline (up to ${DELIVERY_CONCURRENCY} deliveries in flight, claims of at most ${DELIVERY_BATCH} with FOR UPDATE SKIP LOCKED and a lease as slots free up; per delivery the result statement: attempt row, delivered, endpoint health), on copies of the tables holding the burst's ${BURST.toLocaleString('en-US')} deliveries as pending rows, drained to the end; the statements are DeliveryRepository's own. API / DB compares the burst's received/s with it; the publisher's and the cancellation's SQL are not in it.`,
    ],
    checks: {},
  };
  const agents = await createAgents(ctx.db, AGENTS, 1_000_000_000_000);
  const receiver = new Receiver();
  await receiver.start();
  try {
    const endpoints: string[] = [];
    for (const [i, agent] of agents.entries()) {
      const path = `/hooks/${i}`;
      const res = await fetch(`${ctx.server.baseUrl}/v1/agent/webhooks`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken('agent', agent.id)}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ url: `${receiver.url}${path}`, events: ['*'] }),
      });
      const body = (await res.json()) as { webhook_id: string; secret: string };
      if (res.status !== 201) throw new Error(`webhook registration: ${res.status} ${JSON.stringify(body)}`);
      receiver.secrets.set(path, body.secret);
      endpoints.push(body.webhook_id);
    }
    const steadyCount = STEADY_RATE * ctx.seconds;
    await seedOpenTasks(
      ctx.db,
      agents.map((a) => a.id),
      WARMUP + BURST + steadyCount + 100,
    );
    const queue = await openTasks(ctx.db, agents);
    ctx.log(`webhooks: ${endpoints.length} endpoints registered, ${queue.length} tasks to cancel; warm-up`);

    const run = async (label: string, connections: number, amount: number, rate?: number) => {
      const startSeq = await maxSeq(ctx.db);
      receiver.receipts = new Receipts();
      const rss = rssSampler(ctx);
      const total = rate
        ? await pacedCancels(ctx, queue, rate, amount)
        : (
            await load({
              server: ctx.server,
              connections,
              seconds: 120,
              amount,
              requests: cancelRequests(queue),
              expected: [200],
            })
          ).total;
      const expected = await eventsSince(ctx.db, agents, startSeq);
      const r = receiver.receipts;
      await settle(
        () => r.unique >= expected,
        () => r.requests,
        10_000,
      );
      const rssMax = rss();
      return { label, total: { ...total, rss_max_mib: Math.max(total.rss_max_mib, rssMax) }, r, expected };
    };

    await run('warm-up', 16, WARMUP);
    const burst = await run('burst', BURST_CONNECTIONS, BURST);
    ctx.log(`webhooks: burst ${summaryLine(burst.total, burst.r, burst.expected)}`);
    const steady = await run('steady', 8, steadyCount, STEADY_RATE);
    ctx.log(`webhooks: steady ${summaryLine(steady.total, steady.r, steady.expected)}`);

    // Delivery at its own speed: 10,000 pending deliveries appear at once (one INSERT; its commit wakes the runner).
    receiver.receipts = new Receipts();
    const drainRss = rssSampler(ctx);
    const drainCpu = ctx.server.cpuMs();
    const drainThread = ctx.server.mainThread();
    const drainStarted = Date.now();
    await seedPendingDeliveries(ctx.db, endpoints, DRAIN);
    const d = receiver.receipts;
    await settle(
      () => d.unique >= DRAIN,
      () => d.requests,
      10_000,
    );
    const drainSeconds = (Date.now() - drainStarted) / 1000;
    const drainTotal: LoadResult = {
      connections: 0,
      seconds: round(drainSeconds),
      rps: 0,
      ...d.lag.summary(),
      errors: d.badSignatures,
      statuses: {},
      rss_max_mib: drainRss(),
      rss_end_mib: ctx.server.rssMiB(),
      ...cpuFigures(
        ctx.server.cpuMs() - drainCpu,
        d.unique,
        drainSeconds,
        drainThread,
        ctx.server.mainThread(),
      ),
    };
    const drain = { total: drainTotal, r: d, expected: DRAIN };
    ctx.log(`webhooks: drain ${summaryLine(drain.total, drain.r, drain.expected)}`);

    // The receiver has every body before the runner records the last results (up to 32 deliveries in flight): let
    // those commit before reading the statuses, for at most SETTLE_MS (a row still pending then fails the check).
    const unsettled = async () =>
      (
        await ctx.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries
            WHERE endpoint_id = ANY($1::uuid[]) AND status <> 'delivered'`,
          [endpoints],
        )
      ).rows[0].n;
    const giveUpAt = Date.now() + SETTLE_MS;
    while ((await unsettled()) > 0 && Date.now() < giveUpAt) await new Promise((r) => setTimeout(r, 100));
    const { rows } = await ctx.db.query<{ status: string; n: number; max_attempts: number }>(
      `SELECT status, count(*)::int AS n, max(attempts)::int AS max_attempts FROM webhook_deliveries
        WHERE endpoint_id = ANY($1::uuid[]) GROUP BY status`,
      [endpoints],
    );
    const byStatus = Object.fromEntries(rows.map((row) => [row.status, row.n]));

    const baseline = await deliveryBaseline(ctx, baselineDb, endpoints, BURST);
    ctx.log(`webhooks: baseline ${baseline.tps} deliveries/s`);
    const drainBaseline = await deliveryBaseline(ctx, baselineDb, endpoints, DRAIN);
    ctx.log(`webhooks: drain baseline ${drainBaseline.tps} deliveries/s`);
    for (const [m, withFraction] of [
      [burst, true],
      [steady, false],
    ] as const) {
      const events = eventsRun(m.total, m.r, m.expected);
      const runReport: RunReport = {
        label:
          m === burst
            ? `burst of ${BURST.toLocaleString('en-US')} cancellations, ${BURST_CONNECTIONS} connections`
            : `steady ${STEADY_RATE} cancellations/s`,
        api: m.total,
        events,
        baseline,
        extra: {
          bad_signatures: m.r.badSignatures,
          receiver_requests: m.r.requests,
          lag_max_ms: events.lag.max,
        },
      };
      if (withFraction) runReport.fraction = fraction(events.received_per_second, baseline.tps);
      report.runs.push(runReport);
    }
    // Lag means nothing here (every delivery was due at the start): only the rate is reported.
    const drainEvents = { ...eventsRun(drain.total, drain.r, drain.expected), lag: new Samples().summary() };
    report.runs.push({
      label: `drain of ${DRAIN.toLocaleString('en-US')} pending deliveries`,
      api: drain.total,
      events: drainEvents,
      baseline: drainBaseline,
      fraction: fraction(drainEvents.received_per_second, drainBaseline.tps),
      extra: {
        bad_signatures: d.badSignatures,
        receiver_requests: d.requests,
        server_cpu_ms_per_delivery: drainTotal.cpu_ms_per_request,
      },
    });
    const all = [burst, steady, drain];
    report.checks['every event delivered (distinct event ids received = events written)'] = all.every(
      (m) =>
        m.expected > 0 &&
        m.r.unique === m.expected &&
        (m === drain || m.total.statuses['200'] === m.expected),
    );
    report.checks['every signature valid'] = all.every((m) => m.r.badSignatures === 0);
    report.checks['every delivery row delivered on its first attempt'] =
      Object.keys(byStatus).length === 1 && byStatus.delivered > 0 && rows[0].max_attempts === 1;
    report.notes.push(
      `Deliveries by status after the runs (warm-up included): ${JSON.stringify(byStatus)}; duplicates received: ${all.map((m) => m.r.duplicates).join(' / ')} (burst / steady).`,
    );
    return report;
  } finally {
    await receiver.stop();
  }
}

function summaryLine(total: LoadResult, r: Receipts, expected: number): string {
  const e = eventsRun(total, r, expected);
  return `${total.rps} cancels/s, ${e.received}/${e.expected} delivered at ${e.received_per_second}/s, lag p50 ${e.lag.p50} p99 ${e.lag.p99} ms, bad signatures ${r.badSignatures}`;
}

function eventsRun(total: LoadResult, r: Receipts, expected: number): EventsRun {
  const span = (r.last - r.first) / 1000;
  return {
    changes_per_second: total.rps,
    expected,
    received: r.unique,
    duplicates: r.duplicates,
    missed: Math.max(0, expected - r.unique),
    received_per_second: span > 0 ? round(r.unique / span) : 0,
    lag: r.lag.summary(),
  };
}

/** A pg pool, client or connection as the `Db` the server's repositories take (TypeORM's query returns the rows). */
export function asDb(client: Pool | PoolClient | Client): EntityManager {
  return {
    query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows,
  } as unknown as EntityManager;
}

/** The newest event's sequence number: runs count the events written after it. */
export async function maxSeq(db: Pool): Promise<string> {
  const { rows } = await db.query<{ seq: string }>(`SELECT COALESCE(max(seq), 0)::text AS seq FROM events`);
  return rows[0].seq;
}

/** Events of these agents written after `seq` (in the webhooks scenario, one delivery each to the agent's endpoint). */
export async function eventsSince(db: Pool, agents: BenchAgent[], seq: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events WHERE seq > $1 AND agent_id = ANY($2::uuid[])`,
    [seq, agents.map((a) => a.id)],
  );
  return rows[0].n;
}

/**
 * The delivery runner (WebhookDelivery.drain) without HTTP: its pipeline (claims as slots free up, up to
 * DELIVERY_CONCURRENCY in flight), its claim statement and its success statement, until the queue is empty.
 * Latency per delivery is from its claim returning to its result committed.
 */
async function deliveryBaseline(
  ctx: BenchContext,
  db: Pool,
  endpoints: string[],
  prefill: number,
): Promise<PgbenchResult> {
  await db.query(
    `INSERT INTO webhook_endpoints SELECT * FROM public.webhook_endpoints WHERE id = ANY($1::uuid[])
     ON CONFLICT DO NOTHING`,
    [endpoints],
  );
  // The burst's deliveries, all queued at once (the most the API's queue could have held), one task each as in the
  // burst, spread over the endpoints. The claim's cost grows with the queue (it sorts every due row), so a bigger
  // queue than the API's would understate the database.
  await seedPendingDeliveries(db, endpoints, prefill);
  await db.query(`VACUUM ANALYZE webhook_deliveries`);
  const samples = new Samples();
  const started = Date.now();
  let delivered = 0;
  let failed = 0;
  // Until the queue is empty, with WebhookDelivery.drain's own pipeline, limits and statements.
  const asRunner = asDb(db);
  await drainPipelined(
    (limit) => DeliveryRepository.claimDue(asRunner, new Date(), limit, CLAIM_LEASE_MS),
    async (d: ClaimedDelivery) => {
      const begun = performance.now();
      try {
        const outcome = { ok: true, statusCode: 200, latencyMs: 1, error: null };
        await DeliveryRepository.recordSuccess(asRunner, d, outcome, new Date());
        delivered++;
        samples.add(performance.now() - begun);
      } catch {
        failed++;
      }
    },
    DELIVERY_BATCH,
    DELIVERY_CONCURRENCY,
  );
  const seconds = (Date.now() - started) / 1000;
  const s = samples.summary();
  return {
    clients: ctx.poolSize,
    seconds: round(seconds),
    tps: round(delivered / seconds),
    p50: s.p50,
    p95: s.p95,
    p99: s.p99,
    failed,
  };
}

/**
 * `count` pending deliveries (kind event, due now, one task each so no two share an ordering key) spread over the
 * endpoints, in one statement: the table of `db`'s search path (the API's, or the baseline's copy).
 */
async function seedPendingDeliveries(db: Pool, endpoints: string[], count: number): Promise<void> {
  await db.query(
    `INSERT INTO webhook_deliveries (id, agent_id, endpoint_id, url, kind, event_id, event_name, event_seq, task_id,
                                     ordering_key, body, status, next_attempt_at, created_at)
     SELECT gen_random_uuid(), e.agent_id, e.id, e.url, 'event', x.event_id, 'task.cancelled', x.n, x.task_id,
            e.id::text || '|' || x.task_id::text,
            json_build_object('event', 'task.cancelled', 'event_id', x.event_id, 'task_id', x.task_id,
                              'timestamp', now(), 'data', json_build_object('task_id', x.task_id,
                              'status', 'cancelled', 'previous_status', 'pending'))::text,
            'pending', now(), now()
       FROM (SELECT n, gen_random_uuid() AS event_id, gen_random_uuid() AS task_id FROM generate_series(1, $2) n) x
       JOIN (SELECT id, agent_id, url, row_number() OVER (ORDER BY id) - 1 AS k FROM webhook_endpoints
              WHERE id = ANY($1::uuid[])) e ON e.k = x.n % $3`,
    [endpoints, count, endpoints.length],
  );
}
