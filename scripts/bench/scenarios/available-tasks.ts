import type { Request, RequestParams } from 'autocannon';
import type { BenchContext, ScenarioReport } from '../context';
import { fraction } from '../context';
import { BenchWorker, CITIES, createAgents, createWorkers, seedOpenTasks } from '../fixtures';
import { load } from '../load';
import { openLoop } from '../open-loop';
import { pgbench } from '../pgbench';
import {
  availableQueryVersion,
  availableTasksScript,
  BASELINE_POINTS,
  seedBaselinePoints,
} from './available-sql';

const SEED_AGENTS = 16;
const WORKERS = 200;
const CONNECTIONS = 32;
/** Queries land within this many degrees (about 20 km) of a city centre; the radius is the default 5 km. */
const QUERY_SPREAD = 0.2;

export function availableRequests(workers: BenchWorker[]): Request[] {
  let next = 0;
  return [
    {
      method: 'GET',
      setupRequest: (req: RequestParams) => {
        const worker = workers[next++ % workers.length];
        const [, lat, lon] = CITIES[Math.floor(Math.random() * CITIES.length)];
        const qlat = (lat + (Math.random() * 2 - 1) * QUERY_SPREAD).toFixed(5);
        const qlon = (lon + (Math.random() * 2 - 1) * QUERY_SPREAD).toFixed(5);
        return {
          ...req,
          path: `/v1/worker/tasks/available?latitude=${qlat}&longitude=${qlon}&max_distance_km=5&limit=20`,
          headers: { authorization: `Bearer ${worker.token}` },
        };
      },
    },
  ];
}

/**
 * GET /v1/worker/tasks/available while the backlog of open tasks grows from 10,000 to 100,000 to 1,000,000.
 * Tasks cluster around eight cities (uniform within about 25 km of each centre); each query is a random point
 * within 20 km of a random centre with the default 5 km radius, so about 3 % of one city's tasks are in range.
 */
export async function availableTasksScenario(ctx: BenchContext, sizes: number[]): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    id: 'available_tasks',
    title: 'Available tasks for a worker (GET /v1/worker/tasks/available, 5 km radius)',
    status: 'ok',
    runs: [],
    notes: [
      'Open tasks seeded with set-based SQL: task rows plus, per task, its escrow account and a balanced `task:<id>:hold` journal (agent available -> task escrow), exactly what a creation posts; then VACUUM ANALYZE and a CHECKPOINT, so the write-back of the seed is not in the measured runs; the run ends with the ledger check over all of it.',
      `Query version: ${await availableQueryVersion(ctx.db)}.`,
      `${CONNECTIONS} connections, ${WORKERS} workers round-robin; baseline: pgbench replays the worker lookup and the listing query, prepared as the server prepares them.`,
    ],
    checks: {},
  };
  const seedAgents = await createAgents(ctx.db, SEED_AGENTS, 1_000_000_000_000);
  const workers = await createWorkers(ctx.db, WORKERS);
  await ctx.db.query(
    `CREATE TABLE IF NOT EXISTS bench_available_workers (n int PRIMARY KEY, worker_id uuid NOT NULL)`,
  );
  await ctx.db.query(
    `INSERT INTO bench_available_workers SELECT n, id FROM unnest($1::uuid[]) WITH ORDINALITY AS v(id, n)`,
    [workers.map((w) => w.id)],
  );
  await seedBaselinePoints(ctx.db, CITIES, QUERY_SPREAD);
  const requests = availableRequests(workers);
  let seeded = 0;
  for (const size of sizes) {
    const started = Date.now();
    await seedOpenTasks(
      ctx.db,
      seedAgents.map((a) => a.id),
      size - seeded,
      (n) => ctx.log(`available_tasks: seeded ${seeded + n}/${size}`),
    );
    const seedSeconds = Math.round((Date.now() - started) / 100) / 10;
    seeded = size;
    ctx.log(`available_tasks: ${size} open tasks seeded in ${seedSeconds} s`);
    await load({ server: ctx.server, connections: CONNECTIONS, seconds: 2, requests, expected: [200] });
    // The server sends the worker lookup and the listing as prepared statements (preparedRows).
    const listingBaseline = (name: string, rate?: number) =>
      pgbench({
        url: ctx.databaseUrl,
        dir: ctx.dir,
        name,
        script: availableTasksScript(),
        clients: ctx.poolSize,
        seconds: ctx.seconds,
        vars: { workers: WORKERS, points: BASELINE_POINTS },
        protocol: 'prepared',
        rate,
      });
    const baseline = await listingBaseline(`available-${size}`);
    const { total } = await load({
      server: ctx.server,
      connections: CONNECTIONS,
      seconds: ctx.seconds,
      requests,
      expected: [200],
    });
    ctx.log(
      `available_tasks: ${size}: ${total.rps} req/s p99 ${total.p99} ms (baseline ${baseline.tps} tps)`,
    );
    report.runs.push({
      label: `${size.toLocaleString('en-US')} open tasks`,
      api: total,
      baseline,
      fraction: fraction(total.rps, baseline.tps),
      extra: { seed_seconds: seedSeconds },
    });
    // Latency at a steady rate (open loop at half the throughput just measured).
    const steady = await openLoop({
      server: ctx.server,
      rate: total.rps / 2,
      seconds: ctx.seconds,
      requests,
      expected: [200],
    });
    // The database alone at the same rate: how much of the steady tail is the database on this machine.
    const steadyBaseline = await listingBaseline(`available-${size}-steady`, steady.total.offered_rate);
    report.runs.push({
      label: `${size.toLocaleString('en-US')} open tasks, open loop at ${steady.total.offered_rate} req/s`,
      api: steady.total,
      baseline: steadyBaseline,
    });
  }
  return report;
}
