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
    const search = (sort: NearbySort, i: number) => {
      const p = points[i % points.length];
      return nearbyTasksQuery({
        workerId: workers[i % workers.length].worker_id,
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
    for (const sort of ['payment_desc', 'distance_asc', 'deadline_asc'] as const) {
      const time = async (prepared: boolean) => {
        let total = 0;
        let started = 0n;
        for (let i = -20; i < SEARCHES; i++) {
          if (i === 0) started = process.hrtime.bigint();
          const { sql, params } = search(sort, i + 20);
          const r = await db.query<{ total: string }>(
            prepared ? { name: `explain_${sort}`, text: sql, values: params } : { text: sql, values: params },
          );
          if (i >= 0) total += Number(r.rows[0]?.total ?? 0);
        }
        const ms = Number(process.hrtime.bigint() - started) / 1e6 / SEARCHES;
        return { ms: ms.toFixed(2), total: Math.round(total / SEARCHES) };
      };
      const prepared = await time(true);
      const unnamed = await time(false);
      console.log(`| ${sort} | ${prepared.ms} | ${unnamed.ms} | ${prepared.total} |`);
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

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
