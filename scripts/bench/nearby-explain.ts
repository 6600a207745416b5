import { Client } from 'pg';
import { NEARBY_TOTAL_CAP, nearbyTasksQuery, type NearbySort } from '../../src/matching/nearby-tasks.query';
import { databaseUrl } from './database';

/**
 * The nearby search's plan and cost on a database the available-tasks benchmark left behind
 * (`node dist/scripts/bench/run.js --only available_tasks --sizes 1000000 --keep`), as markdown:
 *
 *   node dist/scripts/bench/nearby-explain.js legwork_bench_<ts>_<pid> [cap]
 *
 * For each sort it times 500 searches from one connection at the benchmark's own points and workers, sent as the
 * server sends them (a named prepared statement) and as an unnamed statement planned each time, then prints
 * EXPLAIN (ANALYZE, BUFFERS) of one prepared search. `cap` replaces NEARBY_TOTAL_CAP (a parameter of the query) to
 * compare caps on the same data.
 */
const SEARCHES = 500;

async function main(): Promise<void> {
  const [name, capArg] = process.argv.slice(2);
  if (!name) throw new Error('usage: nearby-explain.js <database kept by the bench> [cap]');
  const cap = capArg ? Number(capArg) : NEARBY_TOTAL_CAP;
  const db = new Client({ connectionString: databaseUrl(name), application_name: 'legwork-bench' });
  await db.connect();
  try {
    const workers = (await db.query<{ worker_id: string }>('SELECT worker_id FROM bench_available_workers'))
      .rows;
    const points = (
      await db.query<{ lat: number; lon: number }>('SELECT lat, lon FROM bench_points ORDER BY k')
    ).rows;
    const open = (await db.query<{ n: string }>(`SELECT count(*) AS n FROM tasks WHERE status = 'pending'`))
      .rows[0].n;
    const search = (sort: NearbySort, i: number, workerId?: string) => {
      const p = points[i % points.length];
      return nearbyTasksQuery({
        workerId: workerId ?? workers[i % workers.length].worker_id,
        worker: { skills: [], reputation: 4 },
        now: new Date(),
        position: { latitude: p.lat, longitude: p.lon },
        radiusMeters: 5000,
        minPayoutCents: 0,
        sort,
        limit: 20,
        cap,
      });
    };
    console.log(`# Nearby search at ${Number(open).toLocaleString('en-US')} open tasks (cap ${cap})\n`);
    console.log(`5 km radius, 20 results, ${SEARCHES} searches one after another from one connection.\n`);
    console.log('| Sort | prepared ms/search | unnamed ms/search | mean total_eligible |');
    console.log('|---|---:|---:|---:|');
    /** SEARCHES searches one after another after 20 to warm up; `name` prepares the statement under that name. */
    const time = async (sort: NearbySort, name?: string, workerId?: string) => {
      let total = 0;
      let started = 0n;
      for (let i = -20; i < SEARCHES; i++) {
        if (i === 0) started = process.hrtime.bigint();
        const { sql, params } = search(sort, i + 20, workerId);
        const r = await db.query<{ total: string }>(
          name ? { name, text: sql, values: params } : { text: sql, values: params },
        );
        if (i >= 0) total += Number(r.rows[0]?.total ?? 0);
      }
      const ms = Number(process.hrtime.bigint() - started) / 1e6 / SEARCHES;
      return { ms: ms.toFixed(2), total: Math.round(total / SEARCHES) };
    };
    for (const sort of ['payment_desc', 'distance_asc', 'deadline_asc'] as const) {
      const prepared = await time(sort, `explain_${sort}`);
      const unnamed = await time(sort);
      console.log(`| ${sort} | ${prepared.ms} | ${unnamed.ms} | ${prepared.total} |`);
    }
    const veteran = await historyWorker(db);
    console.log(
      `\nA veteran worker (${HISTORY.past.toLocaleString('en-US')} assignments on tasks past their deadline, ` +
        `${HISTORY.live} on open tasks) against the benchmark's workers (${HISTORY.each} past assignments each), ` +
        'prepared, payment_desc:\n',
    );
    console.log('| Worker | ms/search |');
    console.log('|---|---:|');
    for (const [label, id] of [
      ["the benchmark's workers", undefined],
      ['the veteran', veteran],
    ] as const) {
      const { ms } = await time('payment_desc', `history_${label}`, id);
      console.log(`| ${label} | ${ms} |`);
    }
    // The plan a pooled connection runs after its first searches: PostgreSQL's generic plan for the statement.
    const { sql, params } = search('payment_desc', 7);
    await db.query(`PREPARE nearby AS ${sql}`);
    const literal = (v: unknown) =>
      v instanceof Date
        ? `'${v.toISOString()}'`
        : Array.isArray(v)
          ? `'{${v.join(',')}}'`
          : typeof v === 'string'
            ? `'${v}'`
            : String(v);
    for (let i = 0; i < 6; i++)
      await db.query(`EXECUTE nearby(${search('payment_desc', i).params.map(literal).join(',')})`);
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS, SUMMARY ON) EXECUTE nearby(${params.map(literal).join(',')})`,
    );
    console.log('\nEXPLAIN (ANALYZE, BUFFERS) EXECUTE, payment_desc, after six executions:\n\n```');
    console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
    console.log('```');
  } finally {
    await db.end();
  }
}

/** Past assignments of each benchmark worker and of the veteran, and the veteran's assignments on open tasks. */
const HISTORY = { each: 20, past: 2000, live: 50 };

/**
 * Histories, made once per database: HISTORY.each closed tasks (deadline a week ago) with an approved assignment
 * for each benchmark worker, HISTORY.past for a veteran worker, and the veteran's abandoned assignments on
 * HISTORY.live open tasks (which stay open, so the search must leave them out). The search reads only the last kind
 * (deadline ahead). Many workers' rows also give `assignments` the statistics of a real table, where the worker's
 * rows are a small share: with one worker's rows only, the planner would rightly scan the whole table.
 */
async function historyWorker(db: Client): Promise<string> {
  const phone = '19900000001';
  const found = await db.query<{ id: string }>('SELECT id FROM workers WHERE phone_number = $1', [phone]);
  if (found.rows[0]) return found.rows[0].id;
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO workers (phone_number, password_hash, display_name) VALUES ($1, 'bench-no-login', 'Veteran')
     RETURNING id`,
    [phone],
  );
  const id = rows[0].id;
  await db.query(
    `WITH owners AS (
       SELECT worker_id, $3::int AS n FROM bench_available_workers UNION ALL SELECT $1::uuid, $2::int),
     slots AS (SELECT worker_id, row_number() OVER () AS k FROM owners, generate_series(1, owners.n)),
     past AS (
       INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, budget_cents, fee_bps,
                          payout_cents, fee_cents, total_cents, status, open_slots, deadline_at,
                          estimated_completion_at, created_at, updated_at)
       SELECT (SELECT id FROM agents LIMIT 1), 'done ' || k, 'closed', 'photo', 31.23, 121.47, 5000, 1000, 4500, 500,
              5000, 'completed', 0, now() - interval '7 days', now() - interval '7 days',
              now() - interval '8 days', now() - interval '7 days'
         FROM slots ORDER BY k
       RETURNING id, title)
     INSERT INTO assignments (task_id, worker_id, status, created_at, updated_at)
     SELECT past.id, slots.worker_id, 'approved', now() - interval '8 days', now() - interval '7 days'
       FROM past JOIN slots ON past.title = 'done ' || slots.k`,
    [id, HISTORY.past, HISTORY.each],
  );
  await db.query(
    `INSERT INTO assignments (task_id, worker_id, status, created_at, updated_at)
     SELECT t.id, $1, 'abandoned', now(), now()
       FROM tasks t WHERE t.status = 'pending' AND t.id < '01000000-0000-0000-0000-000000000000' LIMIT $2`,
    [id, HISTORY.live],
  );
  await db.query('VACUUM ANALYZE assignments'); // as autovacuum would: the read of `mine` index-only
  return id;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
