import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { BenchAgent, createAgents } from '../../scripts/bench/fixtures';
import { ServerProcess } from '../../scripts/bench/server';
import { checkLedger } from '../../src/escrow/ledger-check';
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/databases';

/**
 * Fault tests that need a real API process: the compiled server (`npm run build`; `npm run check` builds before it
 * tests) as a child on a fresh test database, agents with API keys and money seeded through balanced journals.
 */
export interface ProcessRig {
  server: ServerProcess;
  db: Pool;
  agents: BenchAgent[];
  close(): Promise<void>;
}

/** `port` fixes the server's port, for an environment that names it (a payment notification URL). */
export async function startProcessRig(
  agents: number,
  env: Record<string, string> = {},
  port?: number,
): Promise<ProcessRig> {
  const name = await createTestDatabase();
  const url = databaseUrl(name);
  const db = new Pool({ connectionString: url, max: 3, application_name: 'legwork-fault-test' });
  const created = await createAgents(db, agents, 100_000_000);
  const server = await ServerProcess.start({
    databaseUrl: url,
    dataDir: mkdtempSync(join(tmpdir(), 'legwork-fault-')),
    port,
    poolSize: 10,
    env: { JOBS_IN_PROCESS: 'false', ...env },
  });
  return {
    server,
    db,
    agents: created,
    close: async () => {
      await server.stop();
      await db.end();
      await dropDatabase(name);
    },
  };
}

export function taskBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Photograph the storefront',
    description: 'Storefront and opening hours.',
    location: { latitude: 31.2304, longitude: 121.4737 },
    budget_cents: 1000 + Math.floor(Math.random() * 50) * 100,
    deadline_at: new Date(Date.now() + 86_400_000).toISOString(),
    task_type: 'photo',
    ...over,
  };
}

export interface Creation {
  agent: BenchAgent;
  key: string;
  body: Record<string, unknown>;
}

export function creations(agents: BenchAgent[], count: number): Creation[] {
  return Array.from({ length: count }, (_, i) => ({
    agent: agents[i % agents.length],
    key: `fault-${randomUUID()}`,
    body: taskBody(),
  }));
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
}

/** One creation request; a dropped connection or refused connect is `status: 0`. */
export function create(server: ServerProcess, c: Creation): Promise<Answer> {
  return send(server, '/v1/tasks/create', { authorization: `Bearer ${c.agent.apiKey}` }, c.key, c.body);
}

/** One POST with an Idempotency-Key; a dropped connection or refused connect is `status: 0`. */
export async function send(
  server: ServerProcess,
  path: string,
  headers: Record<string, string>,
  key: string,
  body: Record<string, unknown>,
): Promise<Answer> {
  try {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      replayed: res.headers.get('idempotent-replayed') === 'true',
    };
  } catch {
    return { status: 0, body: {}, replayed: false };
  }
}

export function createUntilFinal(server: ServerProcess, c: Creation): Promise<Answer> {
  return untilFinal(() => create(server, c));
}

/**
 * What a careful client does after a failure: retry with the same key until the answer is final. Network errors,
 * 5xx (503 when the server is saturated) and 409 "still in progress" are retried with a growing pause (0.1 s
 * doubling to 2 s, about a minute in all); anything else is the answer.
 */
export async function untilFinal(attempt: () => Promise<Answer>, attempts = 35): Promise<Answer> {
  let last: Answer = { status: 0, body: {}, replayed: false };
  for (let i = 0; i < attempts; i++) {
    last = await attempt();
    const error = last.body.error as { code?: string; in_progress?: boolean } | undefined;
    const retry =
      last.status === 0 || last.status >= 500 || (last.status === 409 && error?.in_progress === true);
    if (!retry) return last;
    await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** i, 2_000)));
  }
  return last;
}

/**
 * Sends a burst, SIGKILLs the server once `committed()` (effects in the database) reaches `after`, and restarts it.
 * Returns how many requests the kill cut off and how many idempotency claims it left in progress.
 */
export async function killDuringBurst(
  rig: ProcessRig,
  burst: (() => Promise<Answer>)[],
  committed: () => Promise<number>,
  after: number,
): Promise<[number, number]> {
  const inFlight = burst.map((send) => send());
  while ((await committed()) < after) await new Promise((r) => setTimeout(r, 5));
  await rig.server.kill9();
  const answers = await Promise.all(inFlight);
  const { rows } = await rig.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM idempotency_keys WHERE status_code IS NULL`,
  );
  await rig.server.spawn();
  return [answers.filter((a) => a.status === 0).length, rows[0].n];
}

/**
 * Runs `fn` over `items` with at most `limit` in flight, keeping the order of the answers: how a real client pool
 * retries, rather than hundreds of sockets at once against a server that was just restarted.
 */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/** Tasks and holds in the database, and the ledger invariants. */
export async function effects(
  db: Pool,
): Promise<{ tasks: number; holds: number; ledgerOk: boolean; violations: string[] }> {
  const { rows } = await db.query<{ tasks: number; holds: number }>(
    `SELECT count(*)::int AS tasks,
            (SELECT count(*) FROM ledger_journals j WHERE j.kind = 'escrow_hold')::int AS holds
       FROM tasks`,
  );
  const report = await checkLedger({ query: async (sql, params) => (await db.query(sql, params)).rows });
  return {
    tasks: rows[0].tasks,
    holds: rows[0].holds,
    ledgerOk: report.ok,
    violations: report.violations.map((v) => `${v.invariant}: ${v.detail}`),
  };
}
