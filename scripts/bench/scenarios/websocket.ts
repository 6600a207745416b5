import { Client, Pool } from 'pg';
import { io, Socket } from 'socket.io-client';
import { Accounts } from '../../../src/escrow/accounts';
import { applyJournal, claimJournal } from '../../../src/escrow/journal-writer';
import type { BenchContext, EventsRun, ScenarioReport } from '../context';
import { BenchAgent, createAgents, fundAgents, seedOpenTasks } from '../fixtures';
import type { LoadResult } from '../load';
import type { PgbenchResult } from '../pgbench';
import { round, Samples } from '../stats';
import { BASELINE_SCHEMA } from './events-schema';
import { asDb, eventsSince, maxSeq, openTasks, pacedCancels, rssSampler, settle } from './webhooks';

export const WEBSOCKET_TITLE = 'socket.io fan-out to 2,000 clients (task change to receipt)';

const AGENTS = 500;
const CLIENTS_PER_AGENT = 4;
const CLIENTS = AGENTS * CLIENTS_PER_AGENT;
/** Task changes (cancellations) per second in the two runs. */
const RATES = [50, 200];
/** Handshakes in flight at once while connecting the clients. */
const CONNECTING = 50;

/** Receipts of one run over every client. */
class Receipts {
  readonly lag = new Samples();
  readonly fromRequest = new Samples();
  /** `${client}:${event_id}` -> times received. */
  readonly seen = new Map<string, number>();
  first = 0;
  last = 0;
  /** Messages about another agent's task: must never happen. */
  foreign = 0;
  total = 0;

  get duplicates(): number {
    let n = 0;
    for (const count of this.seen.values()) n += count - 1;
    return n;
  }
}

interface Measured {
  rate: number;
  api: LoadResult;
  events: EventsRun;
  extra: { cancellations: number; foreign_messages: number; request_to_receipt_ms: Record<string, number> };
}

interface CancelledPayload {
  event_id: string;
  task_id: string;
  timestamp: string;
}

/**
 * socket.io fan-out: 2,000 clients connected to /ws with the websocket transport, 500 agents with 4 connections each
 * (an agent's worker processes or dashboards each keep a socket; every one of them is in the agent's room and gets
 * each of the agent's task events). Task changes are cancellations through the API at a steady rate, spread over the
 * agents; each must reach all 4 of its agent's clients and no other.
 */
export async function websocketScenario(ctx: BenchContext, baselineDb: Pool): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    id: 'websocket',
    title: WEBSOCKET_TITLE,
    status: 'ok',
    runs: [],
    notes: [
      `${CLIENTS.toLocaleString('en-US')} socket.io-client connections from the harness process to /ws (transports: ['websocket'] only: one process long-polling 2,000 sockets would measure itself), ${AGENTS} agents × ${CLIENTS_PER_AGENT} connections authenticated with the agent's API key; each is in its agent's room and receives that agent's task events. No REDIS_URL: one instance, no adapter hop.`,
      `Changes: POST /v1/tasks/{id}/cancel on seeded pending tasks at ${RATES.join(' and ')} per second, evenly spaced (open loop, fetch), each writing one task.cancelled event that must reach the ${CLIENTS_PER_AGENT} clients of its agent and no other. received/s counts messages over all clients.`,
      'Lag: the event timestamp (set in the cancellation transaction, before commit) to the message arriving at a client; it includes the commit, NOTIFY, the outbox publisher transaction and the socket.io emit. The lag from the HTTP request being sent is in the details (request_to_receipt).',
      "Baseline: what the database alone does on the same path at the same rate: a pg script runs the cancellation transaction (task lock, assignments, slot refund journals, task update, event insert; the server's own statements) on copies of the tables, a LISTEN connection receives the outbox NOTIFY, and a publisher runs the outbox publisher's transaction (advisory lock, unpublished events, endpoints, published_at); DB p50 / p99 is from the same timestamp to that transaction committed, which is where the server emits. DB-only /s is the change rate it kept. No throughput ratio: the runs are at a fixed rate.",
    ],
    checks: {},
  };
  const agents = await createAgents(ctx.db, AGENTS, 1_000_000_000_000);
  const perRun = (rate: number) => rate * ctx.seconds;
  const needed = RATES.reduce((s, r) => s + perRun(r), 0) + 500;
  await seedOpenTasks(
    ctx.db,
    agents.map((a) => a.id),
    needed,
  );
  const queue = await openTasks(ctx.db, agents);
  const ownerOf = new Map<string, number>();
  {
    const { rows } = await ctx.db.query<{ id: string; agent_id: string }>(
      `SELECT id, agent_id FROM tasks WHERE agent_id = ANY($1::uuid[])`,
      [agents.map((a) => a.id)],
    );
    const index = new Map(agents.map((a, i) => [a.id, i]));
    for (const r of rows) ownerOf.set(r.id, index.get(r.agent_id)!);
  }

  let receipts = new Receipts();
  const sentAt = new Map<string, number>();
  const rssBefore = ctx.server.rssMiB();
  ctx.log(`websocket: connecting ${CLIENTS} clients (server RSS ${rssBefore} MiB)`);
  const connect = new Samples();
  const sockets: Socket[] = [];
  const connectStarted = Date.now();
  try {
    for (let from = 0; from < CLIENTS; from += CONNECTING) {
      const wave: Promise<void>[] = [];
      for (let i = from; i < Math.min(CLIENTS, from + CONNECTING); i++) {
        const agentIndex = i % AGENTS;
        const t = performance.now();
        const socket = io(ctx.server.baseUrl, {
          path: '/ws',
          transports: ['websocket'],
          auth: { token: agents[agentIndex].apiKey },
          reconnection: false,
          forceNew: true,
          timeout: 30_000,
        });
        sockets.push(socket);
        socket.on('task.cancelled', (p: CancelledPayload) => {
          const at = Date.now();
          const r = receipts;
          r.total++;
          if (ownerOf.get(p.task_id) !== agentIndex) {
            r.foreign++;
            return;
          }
          const key = `${i}:${p.event_id}`;
          const count = r.seen.get(key) ?? 0;
          r.seen.set(key, count + 1);
          if (count > 0) return;
          r.lag.add(at - Date.parse(p.timestamp));
          const sent = sentAt.get(p.task_id);
          if (sent) r.fromRequest.add(at - sent);
          r.first ||= at;
          r.last = at;
        });
        wave.push(
          new Promise<void>((ok, fail) => {
            socket.once('ready', () => {
              connect.add(performance.now() - t);
              ok();
            });
            socket.once('error', (e: unknown) => fail(new Error(`client ${i}: ${JSON.stringify(e)}`)));
            socket.once('connect_error', (e: Error) => fail(new Error(`client ${i}: ${e.message}`)));
          }),
        );
      }
      await Promise.all(wave);
    }
    const connectSeconds = round((Date.now() - connectStarted) / 1000, 2);
    // Let the server settle after the handshakes before reading its memory.
    await new Promise((r) => setTimeout(r, 1000));
    const rssConnected = ctx.server.rssMiB();
    const c = connect.summary();
    ctx.log(
      `websocket: ${sockets.length} connected in ${connectSeconds} s (p50 ${c.p50} ms, p99 ${c.p99} ms), server RSS ${rssConnected} MiB`,
    );
    const stats: unknown = await (await fetch(`${ctx.server.baseUrl}/v1/ws/stats`)).json();

    // Warm-up: the first cancellations and emits pay for JIT and connection setup.
    await pacedCancels(ctx, queue, 50, 100);
    await new Promise((r) => setTimeout(r, 500));

    const measured: Measured[] = [];
    for (const rate of RATES) {
      const startSeq = await maxSeq(ctx.db);
      receipts = new Receipts();
      sentAt.clear();
      const rss = rssSampler(ctx);
      const total = await pacedCancels(ctx, queue, rate, perRun(rate), sentAt);
      const events = await eventsSince(ctx.db, agents, startSeq);
      const expected = events * CLIENTS_PER_AGENT;
      const r = receipts;
      await settle(
        () => r.seen.size >= expected,
        () => r.total,
        5_000,
      );
      const rssMax = rss();
      const span = (r.last - r.first) / 1000;
      const e: EventsRun = {
        changes_per_second: total.rps,
        expected,
        received: r.seen.size,
        duplicates: r.duplicates,
        missed: Math.max(0, expected - r.seen.size),
        received_per_second: span > 0 ? round(r.seen.size / span) : 0,
        lag: r.lag.summary(),
      };
      const fromRequest = r.fromRequest.summary();
      ctx.log(
        `websocket: ${rate}/s: ${total.rps} cancels/s, ${e.received}/${e.expected} messages, lag p50 ${e.lag.p50} p99 ${e.lag.p99} ms, foreign ${r.foreign}`,
      );
      measured.push({
        rate,
        events: e,
        api: { ...total, rss_max_mib: Math.max(total.rss_max_mib, rssMax) },
        extra: {
          cancellations: events,
          foreign_messages: r.foreign,
          request_to_receipt_ms: {
            p50: fromRequest.p50,
            p95: fromRequest.p95,
            p99: fromRequest.p99,
          },
        },
      });
    }
    const rssAfter = ctx.server.rssMiB();

    for (const m of measured) {
      const baseline = await notifyBaseline(ctx, baselineDb, agents, m.rate);
      ctx.log(
        `websocket: baseline at ${m.rate}/s: ${baseline.tps}/s, p50 ${baseline.p50} p99 ${baseline.p99} ms`,
      );
      report.runs.push({
        label: `${m.rate} changes/s × ${CLIENTS_PER_AGENT} clients each`,
        api: m.api,
        events: m.events,
        baseline,
        extra: m.extra,
      });
    }
    report.notes.push(
      `Connecting ${CLIENTS.toLocaleString('en-US')} clients (${CONNECTING} handshakes at a time, each to its ready message): ${connectSeconds} s in all, per client p50 ${c.p50} ms, p99 ${c.p99} ms. Server RSS ${rssBefore} MiB before, ${rssConnected} MiB connected, ${rssAfter} MiB after the runs (RSS moves with the server's garbage collector: the scenario before this one leaves garbage behind). GET /v1/ws/stats while connected: ${JSON.stringify(stats)}.`,
    );
    report.checks[`all ${CLIENTS.toLocaleString('en-US')} clients connected and ready`] =
      sockets.length === CLIENTS && connect.count === CLIENTS;
    report.checks['no message missed (every cancellation reached all its agent’s clients)'] = measured.every(
      (m) => m.events.expected > 0 && m.events.missed === 0,
    );
    report.checks['no message reached another agent’s client'] = measured.every(
      (m) => m.extra.foreign_messages === 0,
    );
    return report;
  } finally {
    for (const s of sockets) s.disconnect();
  }
}

interface TaskRow {
  id: string;
  agent_id: string;
  budget_cents: string;
  max_workers: number;
  closed_slots: number;
}

/** The cancellation of a pending task without assignments, statement for statement as the server runs it. */
async function cancelInDb(db: Pool, taskId: string): Promise<Date> {
  const c = await db.connect();
  try {
    await c.query('BEGIN');
    const { rows } = await c.query<TaskRow>(`SELECT * FROM tasks WHERE id = $1 FOR UPDATE`, [taskId]);
    const task = rows[0];
    // The server takes the event's timestamp right after locking the task (TaskReviewService.cancel).
    const now = new Date();
    await c.query(`SELECT * FROM assignments WHERE task_id = $1 ORDER BY created_at, id`, [taskId]);
    await c.query(`SELECT * FROM assignments WHERE task_id = $1 ORDER BY created_at, id`, [taskId]);
    const budget = Number(task.budget_cents);
    const escrow = Accounts.taskEscrow(task.id, task.agent_id);
    const available = Accounts.agentAvailable(task.agent_id);
    for (let n = task.closed_slots + 1; n <= task.max_workers; n++) {
      const { journalId, ids } = await claimJournal(
        asDb(c),
        {
          reference: `task:${task.id}:slot-refund:${n}`,
          kind: 'slot_refund',
          agentId: task.agent_id,
          workerId: null,
          taskId: task.id,
          orderId: null,
          description: `Unfilled slot of task ${task.id} closed`,
          createdAt: new Date(),
        },
        [escrow, available],
      );
      await applyJournal(asDb(c), journalId!, [
        { id: ids.get(escrow.code)!, amount: -budget },
        { id: ids.get(available.code)!, amount: budget },
      ]);
    }
    await c.query(
      `UPDATE tasks SET status = $2, closed_slots = $3, intake_closed_at = $4, cancelled_at = $5,
              deadline_processed_at = COALESCE(deadline_processed_at, $6),
              completed_at = CASE WHEN $2 = 'completed' THEN COALESCE(completed_at, $7) ELSE completed_at END,
              open_slots = $8, updated_at = $7
        WHERE id = $1`,
      [task.id, 'cancelled', task.max_workers, now, now, null, now, 0],
    );
    await c.query(
      `INSERT INTO events (name, agent_id, task_id, data, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [
        'task.cancelled',
        task.agent_id,
        task.id,
        JSON.stringify({ task_id: task.id, status: 'cancelled', previous_status: 'pending' }),
        now,
      ],
    );
    await c.query('COMMIT');
    return now;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    c.release();
  }
}

/**
 * The DB-only path of a task change to the point where the server emits it: cancellations at `rate` per second on
 * the copies, NOTIFY on commit, and a publisher that (one run at a time, re-run when kicked meanwhile, as the
 * server's Serial) takes the unpublished events in the outbox publisher's transaction.
 */
async function notifyBaseline(
  ctx: BenchContext,
  db: Pool,
  agents: BenchAgent[],
  rate: number,
): Promise<PgbenchResult> {
  const count = rate * ctx.seconds;
  const ids = agents.map((a) => a.id);
  const { rows: funded } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ledger_accounts WHERE kind = 'agent_available'`,
  );
  if (funded[0].n === 0) await fundAgents(db, ids, 1_000_000_000_000);
  await seedOpenTasks(db, ids, count);
  const { rows: tasks } = await db.query<{ id: string }>(
    `SELECT id FROM tasks WHERE status = 'pending' ORDER BY random() LIMIT $1`,
    [count],
  );

  const lag = new Samples();
  const publisher = new Client({
    connectionString: ctx.databaseUrl,
    options: `-c search_path=${BASELINE_SCHEMA},public`,
  });
  const listener = new Client({ connectionString: ctx.databaseUrl });
  await publisher.connect();
  await listener.connect();
  // The server's Serial: one publisher run at a time, a kick meanwhile schedules exactly one more.
  const serial: { running: Promise<void> | null; again: boolean } = { running: null, again: false };
  const publish = async (): Promise<void> => {
    for (;;) {
      await publisher.query('BEGIN');
      await publisher.query(`SELECT pg_advisory_xact_lock($1)`, [7_304_110_999]);
      const { rows } = await publisher.query<{ id: string; agent_id: string; created_at: Date }>(
        `SELECT id, seq::text AS seq, name, agent_id, worker_id, task_id, data, created_at
           FROM events WHERE published_at IS NULL ORDER BY seq LIMIT $1`,
        [200],
      );
      if (rows.length > 0) {
        await publisher.query(
          `SELECT id, agent_id, url, events FROM webhook_endpoints
            WHERE agent_id = ANY($1::uuid[]) AND status = 'active' ORDER BY created_at, id`,
          [[...new Set(rows.map((r) => r.agent_id))]],
        );
        await publisher.query(`UPDATE events SET published_at = $2 WHERE id = ANY($1::uuid[])`, [
          rows.map((r) => r.id),
          new Date(),
        ]);
      }
      await publisher.query('COMMIT');
      const at = Date.now();
      for (const r of rows) lag.add(at - new Date(r.created_at).getTime());
      if (rows.length < 200) return;
    }
  };
  const kick = (): void => {
    if (serial.running) {
      serial.again = true;
      return;
    }
    serial.running = (async () => {
      do {
        serial.again = false;
        await publish();
      } while (serial.again);
    })().finally(() => (serial.running = null));
  };
  listener.on('notification', kick);
  await listener.query(`LISTEN ${BASELINE_SCHEMA}_events`);

  const started = Date.now();
  const inflight: Promise<unknown>[] = [];
  let failed = 0;
  for (let i = 0; i < tasks.length; i++) {
    // Open loop at a fixed rate, like autocannon's overallRate: a slow change does not delay the next one.
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inflight.push(cancelInDb(db, tasks[i].id).catch(() => failed++));
  }
  await Promise.all(inflight);
  const seconds = (Date.now() - started) / 1000;
  await settle(
    () => lag.count >= tasks.length - failed,
    () => lag.count,
    5_000,
  );
  while (serial.running) await serial.running;
  await listener.end();
  await publisher.end();
  const s = lag.summary();
  return {
    clients: ctx.poolSize,
    seconds: round(seconds),
    tps: round((tasks.length - failed) / seconds),
    p50: s.p50,
    p95: s.p95,
    p99: s.p99,
    failed,
  };
}
