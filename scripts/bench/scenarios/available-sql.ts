import type { Pool } from 'pg';
import { cellsWithin } from '../../../src/matching/nearby-cells';
import { NEARBY_TOTAL_CAP, nearbyTasksQuery } from '../../../src/matching/nearby-tasks.query';

/** Which listing the server runs: reported with the figures, since the indexes change everything. */
export async function availableQueryVersion(db: Pool): Promise<string> {
  const { rows } = await db.query<{ indexname: string }>(
    `SELECT indexname FROM pg_indexes WHERE tablename = 'tasks' AND (indexdef ILIKE '%gist%' OR indexdef ILIKE '%nearby_cell%')
      ORDER BY indexname`,
  );
  const cells = rows.filter((r) => r.indexname.includes('cell'));
  if (cells.length) return `per-cell covering indexes (${cells.map((r) => r.indexname).join(', ')})`;
  return rows.length
    ? `spatial GiST index (${rows.map((r) => r.indexname).join(', ')})`
    : 'haversine over every live task (no spatial index yet)';
}

/** Search points for the baseline: pgbench cannot compute a circle's cells, so each point carries them. */
export const BASELINE_POINTS = 1000;

export async function seedBaselinePoints(
  db: Pool,
  cities: [string, number, number][],
  spread: number,
): Promise<void> {
  const points = Array.from({ length: BASELINE_POINTS }, () => {
    const [, lat, lon] = cities[Math.floor(Math.random() * cities.length)];
    const p = {
      latitude: lat + (Math.random() * 2 - 1) * spread,
      longitude: lon + (Math.random() * 2 - 1) * spread,
    };
    return { ...p, cells: `{${(cellsWithin(p, 5000) ?? []).map((c) => c.cell).join(',')}}` };
  });
  await db.query(
    `CREATE TABLE IF NOT EXISTS bench_points (k int PRIMARY KEY, lat float8, lon float8, cells int[])`,
  );
  await db.query(
    `INSERT INTO bench_points SELECT k - 1, lat, lon, cells::int[]
       FROM unnest($1::float8[], $2::float8[], $3::text[]) WITH ORDINALITY AS v(lat, lon, cells, k)`,
    [points.map((p) => p.latitude), points.map((p) => p.longitude), points.map((p) => p.cells)],
  );
}
/**
 * What one listing sends: the JWT account lookup (the API answers it from AuthCache after a worker's first request;
 * the baseline runs it every time) and the nearby query itself, which reads the worker's skills and reputation in
 * the same statement (src/matching/services/nearby-tasks.ts), taken from nearbyTasksQuery so the baseline always
 * runs the server's current SQL. Its parameters become pgbench variables: a random worker at one of the
 * BASELINE_POINTS (within about 20 km of a city centre, with the cells of its circle), 5 km radius, 20 results,
 * highest payment first.
 */
export function availableTasksScript(): string {
  const { sql } = nearbyTasksQuery({
    workerId: 'w',
    worker: { skills: [], reputation: 4 },
    now: new Date(),
    position: { latitude: 0, longitude: 0 },
    radiusMeters: 5000,
    minPayoutCents: 0,
    sort: 'payment_desc',
    limit: 20,
  });
  // $1 now, $2 min payout, $3 worker, $4 limit, $5 lat, $6 lng, $7 radius, $8 cells, $9 the total's cap.
  const vars = [
    'now()',
    '0',
    ':worker_id',
    '20',
    ':qlat',
    ':qlon',
    '5000',
    ':cells',
    String(NEARBY_TOTAL_CAP),
  ];
  const query = sql
    .replace(/\$(\d+)/g, (_, n: string) => vars[Number(n) - 1])
    .replace(/\s+/g, ' ')
    .trim();
  return `
\\set w random(1, :workers)
\\set k random(0, :points - 1)
SELECT worker_id FROM bench_available_workers WHERE n = :w \\gset
SELECT lat AS qlat, lon AS qlon, cells FROM bench_points WHERE k = :k \\gset
SELECT account_status, 0 AS rate_limit_per_minute, 0 AS rate_limit_per_day FROM workers WHERE id = :worker_id;
${query};
`;
}
