import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { setupApp } from '../src/app.setup';
import { Tokens } from '../src/auth/tokens';
import { LegworkExpressAdapter } from '../src/runtime/express-adapter';
import { Logger } from '../src/common/logging/logger';
import { loadConfig } from '../src/config/config';
import { runMigrations } from '../src/database/migrate';
import { NEARBY_CELL_INDEXES, nearbyTasksQuery, NearbySort } from '../src/matching/nearby-tasks.query';

/**
 * Benchmark of GET /v1/worker/tasks/available (not a test): seeds open tasks over a city into a fresh database,
 * boots the real application on a random port and measures request latency through HTTP, at 10,000 and at 100,000
 * open tasks, then prints the query plan.
 *
 *   npm run bench:available
 *   BENCH_SERVER_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_REQUESTS=500 npm run bench:available
 *
 * BENCH_SERVER_URL is a server on which the script may create (and afterwards drop) a database; BENCH_KEEP_DB=1
 * keeps it for inspection. Requests are sent one at a time (latency, not throughput), from random points of the
 * city, with a random sort order, the default 5 km radius and 20 results.
 */
const SERVER_URL = process.env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const WARMUP = 40;
const KEEP_DB = process.env.BENCH_KEEP_DB === '1';
/** Shanghai, People's Square; tasks and workers spread over a 40 km x 40 km square around it. */
const CITY = { latitude: 31.2304, longitude: 121.4737, halfLat: 0.18, halfLng: 0.21 };
const SORTS: NearbySort[] = ['payment_desc', 'distance_asc', 'deadline_asc'];

/** Deterministic pseudo-random numbers (mulberry32), so runs are comparable. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

async function onServer<T>(work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: SERVER_URL, application_name: 'legwork-bench' });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** Open tasks with random positions, payouts, deadlines and (for a fifth of them) a required skill. */
async function seedTasks(
  db: DataSource,
  agentId: string,
  from: number,
  to: number,
  now: Date,
): Promise<void> {
  const batch = 10_000;
  for (let start = from; start <= to; start += batch) {
    const end = Math.min(to, start + batch - 1);
    await db.query(
      `INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, budget_cents, fee_bps,
                          payout_cents, fee_cents, total_cents, required_skills, status, open_slots, deadline_at,
                          estimated_completion_at, created_at, updated_at)
       SELECT $1, 'Bench task ' || g, 'Seeded for the available-tasks benchmark', 'photo',
              $2 + (random() * 2 - 1) * $3, $4 + (random() * 2 - 1) * $5,
              b, 1000, b - b / 10, b / 10, b,
              CASE WHEN random() < 0.2 THEN '{photography}'::text[] ELSE '{}'::text[] END,
              'pending', 1, d, d, $6, $6
         FROM (SELECT g, (1000 + floor(random() * 19000))::bigint / 10 * 10 AS b,
                      $6::timestamptz + (1 + random() * 71) * interval '1 hour' AS d
                 FROM generate_series($7::int, $8::int) g) s`,
      [agentId, CITY.latitude, CITY.halfLat, CITY.longitude, CITY.halfLng, now, start, end],
    );
  }
  await db.query('ANALYZE tasks');
}

interface Phase {
  tasks: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
  meanEligible: number;
}

async function measure(baseUrl: string, bearer: string, tasks: number, seed: number): Promise<Phase> {
  const random = prng(seed);
  const call = async (): Promise<{ ms: number; eligible: number }> => {
    const lat = CITY.latitude + (random() * 2 - 1) * CITY.halfLat;
    const lng = CITY.longitude + (random() * 2 - 1) * CITY.halfLng;
    const sort = SORTS[Math.floor(random() * SORTS.length)];
    const url = `${baseUrl}/v1/worker/tasks/available?latitude=${lat.toFixed(6)}&longitude=${lng.toFixed(6)}&sort_by=${sort}`;
    const started = performance.now();
    const res = await fetch(url, { headers: { Authorization: bearer } });
    const body = (await res.json()) as { metadata?: { total_eligible?: number } };
    const ms = performance.now() - started;
    if (res.status !== 200)
      throw new Error(`available tasks answered ${res.status}: ${JSON.stringify(body)}`);
    return { ms, eligible: body.metadata?.total_eligible ?? 0 };
  };
  for (let i = 0; i < WARMUP; i++) await call();
  const samples: { ms: number; eligible: number }[] = [];
  for (let i = 0; i < REQUESTS; i++) samples.push(await call());
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    tasks,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    mean: ms.reduce((a, b) => a + b, 0) / ms.length,
    max: ms[ms.length - 1],
    meanEligible: samples.reduce((a, s) => a + s.eligible, 0) / samples.length,
  };
}

async function main(): Promise<void> {
  const name = `legwork_bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const dataDir = mkdtempSync(join(tmpdir(), 'legwork-bench-'));
  await onServer((c) => c.query(`CREATE DATABASE ${name}`));
  console.log(`database ${name}; ${REQUESTS} measured requests per phase (after ${WARMUP} warm-up requests)`);
  let app: NestExpressApplication | null = null;
  try {
    const logger = new Logger('warn');
    await runMigrations(databaseUrl, logger);
    const config = loadConfig({
      NODE_ENV: 'production',
      PAYMENT_MODE: 'sandbox',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      JOBS_IN_PROCESS: 'false',
      LOG_LEVEL: 'warn',
      WORKER_RATE_LIMIT_PER_MINUTE: '100000',
      JWT_ACCESS_SECRET: randomBytes(32).toString('hex'),
      JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
    });
    app = await NestFactory.create<NestExpressApplication>(
      AppModule.register(config, databaseUrl, logger),
      new LegworkExpressAdapter(),
      {
        bodyParser: false,
        logger,
      },
    );
    setupApp(app, config);
    await app.listen(0, '127.0.0.1');
    const baseUrl = await app.getUrl();
    const db = app.get(DataSource);

    const [{ id: agentId }] = await db.query(
      `INSERT INTO agents (email, password_hash) VALUES ('bench-${name}@example.com', 'bench-no-login') RETURNING id`,
    );
    const [{ id: workerId }] = await db.query(
      `INSERT INTO workers (phone_number, password_hash, skills) VALUES ('13900000000', 'bench-no-login', '{}')
       RETURNING id`,
    );
    const bearer = `Bearer ${(await app.get(Tokens).issuePair('worker', workerId)).access_token}`;
    const now = new Date();

    const phases: Phase[] = [];
    await seedTasks(db, agentId, 1, 10_000, now);
    phases.push(await measure(baseUrl, bearer, 10_000, 1));
    await seedTasks(db, agentId, 10_001, 100_000, now);
    phases.push(await measure(baseUrl, bearer, 100_000, 2));

    console.log('\nGET /v1/worker/tasks/available (5 km radius, limit 20), latency in ms through HTTP:');
    console.log('open tasks |    p50 |    p95 |    p99 |   mean |    max | mean total_eligible');
    for (const p of phases) {
      const f = (x: number) => x.toFixed(1).padStart(6);
      console.log(
        `${String(p.tasks).padStart(10)} | ${f(p.p50)} | ${f(p.p95)} | ${f(p.p99)} | ${f(p.mean)} | ${f(p.max)} | ${p.meanEligible.toFixed(0)}`,
      );
    }

    const { sql, params } = nearbyTasksQuery({
      workerId,
      worker: { skills: [], reputation: 4 },
      now: new Date(),
      position: { latitude: CITY.latitude, longitude: CITY.longitude },
      radiusMeters: 5000,
      minPayoutCents: 0,
      sort: 'payment_desc',
      limit: 20,
    });
    const plan: { 'QUERY PLAN': string }[] = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    console.log(`\nEXPLAIN (ANALYZE, BUFFERS) at 100,000 open tasks, city centre, payment_desc:\n${text}`);
    const used = Object.values(NEARBY_CELL_INDEXES).filter((n) => text.includes(n));
    console.log(`\nuses the per-cell indexes: ${used.length ? used.join(', ') : 'NO'}`);
  } finally {
    await app?.close();
    if (!KEEP_DB) await onServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
