import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket as NetSocket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { io, type Socket } from 'socket.io-client';
import { BenchAgent, createAgents } from '../../scripts/bench/fixtures';
import { BENCH_JWT, ServerProcess } from '../../scripts/bench/server';
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/databases';
import { JOBS_MAIN, signal, startNode, type Started } from '../support/process';
import { waitFor } from '../support/waiters';
import { effects, mapLimit, taskBody, untilFinal, type Answer } from './process-support';

/**
 * product-decisions §20, "several processes, one dies": two API processes and one job runner on one PostgreSQL and
 * one Redis, behind a small round-robin TCP proxy (what a load balancer does; the socket clients use the websocket
 * transport only, as behind any balancer without sticky sessions, through an entry of their own that can hold
 * reconnections back). Agents create and cancel tasks (escrow held, then
 * refunded; each cancellation is a `task.cancelled` webhook and socket event), webhook endpoints and socket clients
 * receive. Mid-run one API process is SIGKILLed and the job runner restarted. Then: every event delivered to its
 * webhook at least once, duplicates only for deliveries that were in flight (re-sent, same event_id); every task
 * created and refunded once (no double payment), the ledger clean; every socket client reconnected (to the surviving
 * process) and got every event of its account, the missed ones replayed from the event log. Needs `npm run build`.
 */

const API_ENV = {
  JOBS_IN_PROCESS: 'false',
  WEBHOOK_SECRET_KEY: 'several-processes-webhook-key-0123456789abcdef',
};

/** Round-robin over the backends, per connection; a backend that refuses is skipped (a health check's effect). */
async function startProxy(backends: () => number[]): Promise<{ server: Server; port: number }> {
  let next = 0;
  const sockets = new Set<NetSocket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.pause();
    const ports = backends();
    if (ports.length === 0) {
      client.destroy();
      return;
    }
    const attempt = (tries: number): void => {
      const port = ports[next++ % ports.length];
      const upstream = connect(port, '127.0.0.1');
      upstream.once('error', () => {
        upstream.destroy();
        if (tries + 1 < ports.length) attempt(tries + 1);
        else client.destroy();
      });
      upstream.once('connect', () => {
        upstream.removeAllListeners('error');
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
        client.pipe(upstream).pipe(client);
        client.resume();
      });
    };
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = server.close.bind(server);
  server.close = (cb?: (err?: Error) => void) => {
    for (const s of sockets) s.destroy();
    return close(cb);
  };
  return { server, port: (server.address() as AddressInfo).port };
}

interface Listener {
  agent: BenchAgent;
  socket: Socket;
  received: Map<string, number>;
  last: string | null;
  connects: number;
  replayed: number;
}

describe('fault: two API processes and a job runner, one API killed and the runner restarted mid-run', () => {
  let name: string;
  let db: Pool;
  let agents: BenchAgent[];
  const apis: ServerProcess[] = [];
  let jobs: Started;
  let proxy: { server: Server; port: number };
  let socketProxy: { server: Server; port: number };
  /** While true the socket entry refuses connections: the killed process's sockets stay away while events go on. */
  let holdSockets = false;
  let hooks: HttpServer;
  const hookHits = new Map<string, number>();
  const listeners: Listener[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'legwork-several-'));
  const redisPrefix = `lw-several-${randomUUID().slice(0, 8)}`;
  const alive = new Set<number>();

  function startJobs(url: string): Started {
    return startNode(JOBS_MAIN, [], {
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      PAYMENT_MODE: 'sandbox',
      SANDBOX_SPAWN: 'false',
      REDIS_URL: 'redis://127.0.0.1:6379/0',
      REDIS_KEY_PREFIX: redisPrefix,
      JWT_ACCESS_SECRET: BENCH_JWT.access,
      JWT_REFRESH_SECRET: BENCH_JWT.refresh,
      LOG_LEVEL: 'warn',
      ...API_ENV,
    });
  }

  beforeAll(async () => {
    name = await createTestDatabase();
    const url = databaseUrl(name);
    db = new Pool({ connectionString: url, max: 3 });
    agents = await createAgents(db, 4, 100_000_000);
    for (let i = 0; i < 2; i++) {
      apis.push(
        await ServerProcess.start({
          databaseUrl: url,
          dataDir,
          poolSize: 8,
          env: { ...API_ENV, REDIS_URL: 'redis://127.0.0.1:6379/0', REDIS_KEY_PREFIX: redisPrefix },
        }),
      );
    }
    for (const a of apis) alive.add(a.port);
    jobs = startJobs(url);
    await jobs.metricsPort;
    proxy = await startProxy(() => [...alive]);
    socketProxy = await startProxy(() => (holdSockets ? [] : [...alive]));
    hooks = createHttpServer((req, res) => {
      const id = String(req.headers['x-event-id']);
      hookHits.set(id, (hookHits.get(id) ?? 0) + 1);
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  }, 180_000);

  afterAll(async () => {
    for (const l of listeners) l.socket.close();
    await new Promise((r) => proxy?.server.close(r));
    await new Promise((r) => socketProxy?.server.close(r));
    await new Promise((r) => hooks?.close(r));
    if (jobs) await signal(jobs, 'SIGKILL');
    for (const a of apis) await a.stop().catch(() => undefined);
    await db?.end();
    if (name) await dropDatabase(name);
  }, 60_000);

  const base = () => `http://127.0.0.1:${proxy.port}`;

  async function post(path: string, agent: BenchAgent, body: unknown, key?: string): Promise<Answer> {
    try {
      const res = await fetch(`${base()}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${agent.apiKey}`,
          'content-type': 'application/json',
          ...(key ? { 'idempotency-key': key } : {}),
        },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : {}, replayed: false };
    } catch {
      return { status: 0, body: {}, replayed: false };
    }
  }

  function listen(agent: BenchAgent): Listener {
    const l: Listener = {
      agent,
      socket: null as unknown as Socket,
      received: new Map(),
      last: null,
      connects: 0,
      replayed: 0,
    };
    l.socket = io(`http://127.0.0.1:${socketProxy.port}`, {
      path: '/ws',
      transports: ['websocket'],
      // Called on every (re)connection: the last event seen, for the replay of what was missed.
      auth: (cb) => cb({ token: agent.apiKey, ...(l.last ? { last_event_id: l.last } : {}) }),
      reconnectionDelay: 100,
      reconnectionDelayMax: 500,
    });
    l.socket.on('ready', () => l.connects++);
    l.socket.on('replayed', (r: { count: number }) => (l.replayed += r.count));
    l.socket.onAny((event: string, payload: { event_id?: string }) => {
      if (!payload?.event_id) return;
      l.received.set(payload.event_id, (l.received.get(payload.event_id) ?? 0) + 1);
      l.last = payload.event_id;
    });
    listeners.push(l);
    return l;
  }

  /** Creates a task and cancels it, each retried with its key until final; returns the task id. */
  async function createAndCancel(agent: BenchAgent): Promise<string | null> {
    // One key and one body for every retry of this creation, as a careful client keeps them.
    const body = taskBody();
    const createKey = `c-${randomUUID()}`;
    const created = await untilFinal(() => post('/v1/tasks/create', agent, body, createKey));
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
    const taskId = created.body.task_id as string;
    const key = `x-${randomUUID()}`;
    const cancelled = await untilFinal(() => post(`/v1/tasks/${taskId}/cancel`, agent, {}, key));
    if (cancelled.status !== 200)
      throw new Error(`cancel: ${cancelled.status} ${JSON.stringify(cancelled.body)}`);
    return taskId;
  }

  it('delivers every event at least once, pays once, and replays what sockets missed', async () => {
    for (const agent of agents) {
      const res = await post('/v1/agent/webhooks', agent, {
        url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`,
        events: ['*'],
      });
      expect(res.status).toBe(201);
    }
    const sockets = agents.map(listen);
    await waitFor(() => sockets.every((l) => l.connects === 1), 'every socket ready', 15_000);

    const rounds = 6;
    const perRound = 12;
    const started = Date.now();
    let killedAt = 0;
    let restartedAt = 0;
    const work = Array.from({ length: rounds * perRound }, (_, i) => agents[i % agents.length]);
    const chunks = Array.from({ length: rounds }, (_, r) => work.slice(r * perRound, (r + 1) * perRound));
    const tasks: (string | null)[] = [];
    for (const [r, chunk] of chunks.entries()) {
      const inFlight = mapLimit(chunk, 6, createAndCancel);
      if (r === 2) {
        // Mid-round: SIGKILL the first API process (its sockets and requests cut), the proxy skips it from now.
        // Its sockets are kept away for the next round too, so their reconnection has something to replay;
        // without the hold a fast reconnection can miss nothing, and the replay goes unproven.
        await new Promise((res) => setTimeout(res, 150));
        holdSockets = true;
        alive.delete(apis[0].port);
        await apis[0].kill9();
        killedAt = Date.now() - started;
      }
      if (r === 4) {
        // The job runner restarted (SIGTERM: it finishes deliveries in flight) while events keep coming.
        await new Promise((res) => setTimeout(res, 100));
        await signal(jobs, 'SIGTERM');
        jobs = startJobs(databaseUrl(name));
        await jobs.metricsPort;
        restartedAt = Date.now() - started;
      }
      tasks.push(...(await inFlight));
      // A whole round later every agent has had events while its socket was away.
      if (r === 3) holdSockets = false;
    }

    // Everything published and delivered.
    const [{ n: eventCount }] = (
      await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE name = 'task.cancelled'`)
    ).rows;
    expect(eventCount).toBe(tasks.length);
    await waitFor(
      async () => {
        const { rows } = await db.query<{ pending: number }>(
          `SELECT (SELECT count(*) FROM events WHERE published_at IS NULL)
                + (SELECT count(*) FROM webhook_deliveries WHERE status <> 'delivered') AS pending`,
        );
        return Number(rows[0].pending) === 0 && hookHits.size >= eventCount;
      },
      'every event published and delivered',
      90_000,
    );
    const events = (
      await db.query<{ id: string; agent_id: string }>(
        `SELECT id, agent_id FROM events WHERE name = 'task.cancelled'`,
      )
    ).rows;
    await waitFor(
      () =>
        sockets.every((l) =>
          events.filter((e) => e.agent_id === l.agent.id).every((e) => l.received.has(e.id)),
        ),
      'every socket event received',
      20_000,
    ).catch(() => undefined);

    // Webhooks: each at least once; a duplicate only where the delivery was attempted more than once.
    const missedHooks = events.filter((e) => !hookHits.has(e.id));
    const duplicates = [...hookHits.entries()].filter(([, n]) => n > 1).map(([id]) => id);
    const { rows: attempted } = await db.query<{ event_id: string; attempts: number }>(
      `SELECT event_id, attempts FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])`,
      [duplicates],
    );
    // Money: one task and one hold per creation, one refund per cancellation, the ledger clean.
    const money = await effects(db);
    const { rows: refunds } = await db.query<{ tasks: number; refunds: number; over: number }>(
      `SELECT (SELECT count(*) FROM tasks WHERE status = 'cancelled')::int AS tasks,
              (SELECT count(*) FROM ledger_journals WHERE kind = 'slot_refund')::int AS refunds,
              (SELECT count(*) FROM ledger_accounts WHERE kind = 'agent_available' AND balance <> 100000000)::int AS over`,
    );
    // Sockets: every event of the account, live or replayed.
    const socketMissed = sockets.reduce(
      (n, l) => n + events.filter((e) => e.agent_id === l.agent.id && !l.received.has(e.id)).length,
      0,
    );
    const socketDuplicates = sockets.reduce(
      (n, l) => n + [...l.received.values()].filter((c) => c > 1).length,
      0,
    );
    const figures = {
      run_ms: Date.now() - started,
      api_killed_at_ms: killedAt,
      jobs_restarted_at_ms: restartedAt,
      tasks_created: money.tasks,
      escrow_holds: money.holds,
      cancelled: refunds[0].tasks,
      refund_journals: refunds[0].refunds,
      agents_with_balance_changed: refunds[0].over,
      ledger_ok: money.ledgerOk,
      events: events.length,
      webhook_events_received: hookHits.size,
      webhook_missed: missedHooks.length,
      webhook_duplicates: duplicates.length,
      socket_clients: sockets.length,
      socket_reconnects: sockets.reduce((n, l) => n + l.connects - 1, 0),
      socket_events_replayed: sockets.reduce((n, l) => n + l.replayed, 0),
      socket_missed: socketMissed,
      socket_duplicates: socketDuplicates,
    };
    console.log(`several processes, one dies:\n${JSON.stringify(figures, null, 2)}`);

    expect(tasks.every((t) => t !== null)).toBe(true);
    expect(money.tasks).toBe(rounds * perRound);
    expect(money.holds).toBe(money.tasks);
    expect(refunds[0].tasks).toBe(money.tasks);
    expect(refunds[0].refunds).toBe(money.tasks);
    // Every task was refunded in full: each agent's balance is back where it started, not above.
    expect(refunds[0].over).toBe(0);
    expect(money.violations).toEqual([]);
    expect(missedHooks).toEqual([]);
    expect(attempted.every((d) => d.attempts > 1)).toBe(true);
    expect(socketMissed).toBe(0);
    // The sockets on the killed process came back (through the proxy, to the other one) and were replayed to.
    expect(figures.socket_reconnects).toBeGreaterThan(0);
    expect(figures.socket_events_replayed).toBeGreaterThan(0);
  }, 240_000);
});
