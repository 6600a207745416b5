import type { Pool } from 'pg';
import { nearbyTasksQuery } from '../../../src/matching/nearby-tasks.query';

/** Which listing the server runs: reported with the figures, since the spatial index changes everything. */
export async function availableQueryVersion(db: Pool): Promise<string> {
  const { rows } = await db.query<{ indexname: string }>(
    `SELECT indexname FROM pg_indexes WHERE tablename = 'tasks' AND indexdef ILIKE '%gist%'`,
  );
  return rows.length
    ? `spatial GiST index (${rows.map((r) => r.indexname).join(', ')})`
    : 'haversine over every live task (no spatial index yet)';
}

/**
 * What one listing sends: the JWT account lookup, the worker's skills/reputation/position
 * (src/matching/services/nearby-tasks.ts) and the nearby query itself, taken from nearbyTasksQuery so the baseline
 * always runs the server's current SQL. Its parameters become pgbench variables: a random worker at a random point
 * within about 20 km of a random city centre, 5 km radius, 20 results, highest payment first.
 */
export function availableTasksScript(): string {
  const { sql } = nearbyTasksQuery({
    workerId: 'w',
    skills: [],
    reputation: 4,
    now: new Date(),
    position: { latitude: 0, longitude: 0 },
    radiusMeters: 5000,
    minPayoutCents: 0,
    sort: 'payment_desc',
    limit: 20,
  });
  // $1 now, $2 skills, $3 reputation, $4 min payout, $5 worker, $6 limit, $7 lat, $8 lng, $9 radius.
  const vars = ['now()', ':skills', ':reputation', '0', ':worker_id', '20', ':qlat', ':qlon', '5000'];
  const query = sql
    .replace(/\$(\d+)/g, (_, n: string) => vars[Number(n) - 1])
    .replace(/\s+/g, ' ')
    .trim();
  return `
\\set w random(1, :workers)
\\set c random(0, :cities - 1)
\\set dlat random(-2000, 2000)
\\set dlon random(-2000, 2000)
SELECT worker_id FROM bench_available_workers WHERE n = :w \\gset
SELECT lat, lon FROM bench_cities WHERE k = :c \\gset
\\set qlat :lat + :dlat / 10000.0
\\set qlon :lon + :dlon / 10000.0
SELECT account_status, 0 AS rate_limit_per_minute, 0 AS rate_limit_per_day FROM workers WHERE id = :worker_id;
SELECT w.skills, w.reputation, av.latitude, av.longitude FROM workers w LEFT JOIN worker_availability av ON av.worker_id = w.id WHERE w.id = :worker_id \\gset
${query};
`;
}
