import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { generateApiKey } from '../../src/auth/api-keys';
import { PERMISSIONS } from '../../src/common/actor';
import { BENCH_JWT } from './server';

/**
 * Accounts and money for load runs, written straight into the database in set-based SQL (thousands of rows per
 * statement) instead of through the API, so seeding a million tasks takes seconds to minutes, not hours. Every
 * movement of money is still a balanced ledger journal with cached balances that match their postings: the runs
 * end with the same invariant check as the e2e suite (checkLedger), which also covers what was seeded here.
 */

export interface BenchAgent {
  id: string;
  apiKey: string;
  /** The key's secret (X-API-Secret), for the reference payment surface. */
  apiSecret: string;
}

export interface BenchWorker {
  id: string;
  token: string;
}

/** Agents with an API key, limits raised out of the way (per-minute, per-day, concurrent tasks) and a balance. */
export async function createAgents(db: Pool, count: number, balanceCents: number): Promise<BenchAgent[]> {
  const keys = Array.from({ length: count }, () => generateApiKey('lw_test_'));
  const run = randomUUID().slice(0, 8);
  const { rows } = await db.query<{ id: string; n: number }>(
    `INSERT INTO agents (email, password_hash, tier, rate_limit_per_minute, rate_limit_per_day, max_concurrent_tasks)
     SELECT 'bench-' || $1 || '-' || n || '@example.com', 'bench-no-login', 'enterprise', 1000000000, 1000000000, 1000000000
       FROM generate_series(1, $2) n
     RETURNING id, substring(email from '-(\\d+)@')::int AS n`,
    [run, count],
  );
  rows.sort((a, b) => a.n - b.n);
  await db.query(
    `INSERT INTO api_keys (agent_id, key_hash, secret_hash, prefix, name, permissions)
     SELECT id, kh, sh, p, 'Bench key', $5 FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS v(id, kh, sh, p)`,
    [
      rows.map((r) => r.id),
      keys.map((k) => k.keyHash),
      keys.map((k) => k.secretHash),
      keys.map((k) => k.prefix),
      [...PERMISSIONS],
    ],
  );
  await fundAgents(
    db,
    rows.map((r) => r.id),
    balanceCents,
  );
  return rows.map((r, i) => ({ id: r.id, apiKey: keys[i].apiKey, apiSecret: keys[i].apiSecret }));
}

/** A bank deposit per agent (provider:bank:clearing -> agent available), as an operator credit would post it. */
export async function fundAgents(db: Pool, agentIds: string[], amountCents: number): Promise<void> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO ledger_accounts (code, kind) VALUES ('provider:bank:clearing', 'provider_clearing')
       ON CONFLICT (code) DO NOTHING`,
    );
    await client.query(
      `INSERT INTO ledger_accounts (code, kind, owner_id, agent_id)
       SELECT 'agent:' || id || ':available', 'agent_available', id, id FROM unnest($1::uuid[]) id
       ON CONFLICT (code) DO NOTHING`,
      [agentIds],
    );
    await client.query(
      `WITH j AS (
         INSERT INTO ledger_journals (reference, kind, agent_id, description, created_at)
         SELECT 'bench:fund:' || gen_random_uuid(), 'deposit', id, 'Benchmark funding', now() FROM unnest($1::uuid[]) id
         RETURNING id, agent_id)
       INSERT INTO ledger_postings (journal_id, account_id, amount)
       SELECT j.id, a.id, $2::bigint FROM j JOIN ledger_accounts a ON a.code = 'agent:' || j.agent_id || ':available'
       UNION ALL
       SELECT j.id, c.id, -$2::bigint FROM j, ledger_accounts c WHERE c.code = 'provider:bank:clearing'`,
      [agentIds, amountCents],
    );
    await client.query(
      `UPDATE ledger_accounts SET balance = balance + $2::bigint WHERE code = ANY(SELECT 'agent:' || id || ':available' FROM unnest($1::uuid[]) id)`,
      [agentIds, amountCents],
    );
    await client.query(
      `UPDATE ledger_accounts SET balance = balance - $1::bigint WHERE code = 'provider:bank:clearing'`,
      [amountCents * agentIds.length],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

const jwt = new JwtService();

/** An access token the bench server accepts (same secret, audience and issuer as Tokens.issuePair). */
export function workerToken(workerId: string, ttlSeconds = 3600): string {
  return accessToken('worker', workerId, ttlSeconds);
}

export function accessToken(kind: 'worker' | 'admin' | 'agent', subject: string, ttlSeconds = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  return jwt.sign(
    { sub: subject, iat: now, exp: now + ttlSeconds },
    {
      secret: BENCH_JWT.access,
      audience: `legwork:${kind}`,
      issuer: 'legwork',
      algorithm: 'HS256',
      jwtid: randomUUID(),
    },
  );
}

let workerSeries = 0;

export async function createWorkers(db: Pool, count: number, skills: string[] = []): Promise<BenchWorker[]> {
  const base = (process.pid % 100) * 1_000_000 + (workerSeries++ % 10) * 100_000;
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO workers (phone_number, password_hash, display_name, skills)
     SELECT '13' || lpad(($1::bigint + n)::text, 9, '0'), 'bench-no-login', 'Bench worker ' || n, $3
       FROM generate_series(1, $2) n
     ON CONFLICT (phone_number) DO NOTHING
     RETURNING id`,
    [base, count, skills],
  );
  return rows.map((r) => ({ id: r.id, token: workerToken(r.id) }));
}

/** City centres the seeded tasks cluster around (uniformly within about 25 km of each). */
export const CITIES: [string, number, number][] = [
  ['Shanghai', 31.2304, 121.4737],
  ['Beijing', 39.9042, 116.4074],
  ['Shenzhen', 22.5431, 114.0579],
  ['Guangzhou', 23.1291, 113.2644],
  ['Chengdu', 30.5728, 104.0668],
  ['Hangzhou', 30.2741, 120.1551],
  ['Wuhan', 30.5928, 114.3055],
  ["Xi'an", 34.3416, 108.9398],
];

export const CITY_SPREAD_DEGREES = 0.25;

/** Columns other branches may add to tasks (matching's stored open_slots) are filled when present. */
async function taskColumns(client: PoolClient): Promise<Set<string>> {
  const { rows } = await client.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_name = 'tasks' AND table_schema = current_schema()`,
  );
  return new Set(rows.map((r) => r.column_name));
}

/**
 * Adds `count` open tasks (pending, no assignment, deadline 1 to 7 days ahead, no skills required) owned by the
 * given agents, each with its escrow hold exactly as TaskCreationService posts it: an escrow account holding
 * total_cents and a journal `task:<id>:hold` moving that amount from the agent's available balance. Batches of
 * 50,000 rows per transaction. When the role may, triggers and foreign-key checks are skipped for the seeding
 * session (session_replication_role = replica): the ledger check at the end of the run verifies what they would.
 * Ends with VACUUM ANALYZE and a CHECKPOINT, so measured runs start on a settled database.
 */
export async function seedOpenTasks(
  db: Pool,
  agentIds: string[],
  count: number,
  onBatch?: (done: number) => void,
): Promise<void> {
  const client = await db.connect();
  try {
    await client.query(`SET session_replication_role = replica`).catch(() => undefined);
    const columns = await taskColumns(client);
    const openSlots = columns.has('open_slots');
    const batch = 50_000;
    for (let done = 0; done < count; done += batch) {
      const n = Math.min(batch, count - done);
      await client.query('BEGIN');
      await client.query(
        `CREATE TEMP TABLE seed_tasks ON COMMIT DROP AS
         SELECT gen_random_uuid() AS id, ($1::uuid[])[1 + (i % cardinality($1::uuid[]))] AS agent_id, i,
                c.lat + (random() * 2 - 1) * $4 AS latitude, c.lon + (random() * 2 - 1) * $4 AS longitude,
                (10 + floor(random() * 191))::bigint * 100 AS budget_cents, 1 + (i % 3) AS max_workers,
                now() + interval '1 day' + random() * interval '6 days' AS deadline_at,
                now() - random() * interval '2 days' AS created_at
           FROM generate_series(1, $2) i
           JOIN (SELECT ordinality - 1 AS k, lat, lon FROM unnest($5::float8[], $6::float8[]) WITH ORDINALITY AS x(lat, lon)) c
             ON c.k = (i + $3) % $7`,
        [
          agentIds,
          n,
          done,
          CITY_SPREAD_DEGREES,
          CITIES.map((c) => c[1]),
          CITIES.map((c) => c[2]),
          CITIES.length,
        ],
      );
      await client.query(
        `INSERT INTO tasks (id, agent_id, title, description, task_type, latitude, longitude, max_distance_meters,
                            budget_cents, max_workers, fee_bps, payout_cents, fee_cents, total_cents, status,
                            deadline_at, estimated_completion_at, created_at, updated_at${openSlots ? ', open_slots' : ''})
         SELECT id, agent_id, 'Seeded task ' || i, 'Photo of the storefront (benchmark seed)', 'photo', latitude,
                longitude, 1000, budget_cents, max_workers, 1000, budget_cents - budget_cents / 10, budget_cents / 10,
                budget_cents * max_workers, 'pending', deadline_at, deadline_at, created_at, created_at
                ${openSlots ? ', max_workers' : ''}
           FROM seed_tasks`,
      );
      await client.query(
        `INSERT INTO ledger_accounts (code, kind, owner_id, agent_id, balance)
         SELECT 'task:' || id || ':escrow', 'task_escrow', id, agent_id, budget_cents * max_workers FROM seed_tasks`,
      );
      await client.query(
        `WITH j AS (
           INSERT INTO ledger_journals (reference, kind, agent_id, task_id, description, created_at)
           SELECT 'task:' || id || ':hold', 'escrow_hold', agent_id, id, 'Escrow for task ' || id, created_at
             FROM seed_tasks
           RETURNING id AS journal_id, task_id, agent_id)
         INSERT INTO ledger_postings (journal_id, account_id, amount)
         SELECT j.journal_id, e.id, e.balance FROM j JOIN ledger_accounts e ON e.code = 'task:' || j.task_id || ':escrow'
         UNION ALL
         SELECT j.journal_id, a.id, -e.balance FROM j
           JOIN ledger_accounts e ON e.code = 'task:' || j.task_id || ':escrow'
           JOIN ledger_accounts a ON a.code = 'agent:' || j.agent_id || ':available'`,
      );
      await client.query(
        `UPDATE ledger_accounts a SET balance = a.balance - s.total
           FROM (SELECT agent_id, sum(budget_cents * max_workers) AS total FROM seed_tasks GROUP BY agent_id) s
          WHERE a.code = 'agent:' || s.agent_id || ':available'`,
      );
      await client.query('COMMIT');
      onBatch?.(done + n);
    }
    await client.query(`RESET session_replication_role`).catch(() => undefined);
    await client.query(`VACUUM ANALYZE tasks`);
    await client.query(`VACUUM ANALYZE ledger_accounts`);
    await client.query(`ANALYZE ledger_journals`);
    await client.query(`ANALYZE ledger_postings`);
    // Writes the seed's dirty pages out now, before anything is measured: a million rows leave gigabytes of WAL and
    // data files, and the checkpoint that max_wal_size forces during the seed spreads their write-back over minutes
    // (checkpoint_completion_target), over the measured runs that follow. When the role may (superuser or
    // pg_checkpoint), as with the session_replication_role above.
    await client.query(`CHECKPOINT`).catch(() => undefined);
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** An operator account (no password login) and its access token. */
export async function createAdmin(db: Pool): Promise<{ id: string; token: string }> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO admins (email, password_hash) VALUES ('bench-admin-' || gen_random_uuid() || '@example.com', 'bench-no-login')
     RETURNING id`,
  );
  return { id: rows[0].id, token: accessToken('admin', rows[0].id) };
}
