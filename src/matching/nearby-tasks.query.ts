import { distanceSql, EARTH_BOX_MARGIN, type LatLng } from '../common/geo';

export const NEARBY_SORTS = ['payment_desc', 'distance_asc', 'deadline_asc'] as const;
export type NearbySort = (typeof NEARBY_SORTS)[number];

export interface NearbyTasksFilter {
  workerId: string;
  skills: string[];
  reputation: number;
  now: Date;
  /** null: no distance filter, distance null. */
  position: LatLng | null;
  radiusMeters: number;
  minPayoutCents: number;
  sort: NearbySort;
  limit: number;
}

/** Name of the GiST index the nearby search relies on (checked by the EXPLAIN test and the benchmark). */
export const NEARBY_INDEX = 'tasks_open_nearby_gist';

/**
 * Exactly the predicate of tasks_open_nearby_gist (migration 1732200010000), written literally: the planner uses a
 * partial index only when it can prove the query implies the index predicate, which bound parameters would hide.
 */
const TAKING_WORKERS = `t.intake_closed_at IS NULL AND t.open_slots > 0
     AND t.status IN ('pending', 'assigned', 'in_progress', 'submitted')`;

/** Sort keys, with a table prefix for the outer query (the inner one sorts by its own output columns). */
const ORDER: Record<NearbySort, (p: string) => string> = {
  payment_desc: (p) => `${p}payout_cents DESC, ${p}deadline_at ASC, ${p}id`,
  distance_asc: (p) => `${p}distance NULLS LAST, ${p}payout_cents DESC, ${p}id`,
  deadline_asc: (p) => `${p}deadline_at ASC, ${p}payout_cents DESC, ${p}id`,
};

/**
 * The available-tasks query. With a position, `earth_box(center, r) @> ll_to_earth(lat, lng)` is the indexable
 * bounding-cube test (GiST on ll_to_earth) and the haversine distance (geo.ts: distanceSql) the exact filter and
 * the sort key. The worker's own tasks (any assignment, whatever became of it) are excluded; the agent's rating is
 * joined after the limit, so it costs one lookup per returned row.
 */
export function nearbyTasksQuery(f: NearbyTasksFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [f.now, f.skills, f.reputation, f.minPayoutCents, f.workerId, f.limit];
  let distance = 'NULL::float8';
  let within = '';
  if (f.position) {
    params.push(f.position.latitude, f.position.longitude, f.radiusMeters);
    distance = distanceSql('$7::float8', '$8::float8', 't.latitude', 't.longitude');
    within = `AND earth_box(ll_to_earth($7::float8, $8::float8), $9::float8 * ${EARTH_BOX_MARGIN})
                 @> ll_to_earth(t.latitude, t.longitude)
     AND ${distance} <= $9::float8`;
  }
  const order = ORDER[f.sort]('');
  const outerOrder = ORDER[f.sort]('page.');
  // The page is chosen on narrow rows (id and sort keys: the window count and the sort carry no descriptions),
  // then the 20 or so chosen tasks are read whole.
  const sql = `
  WITH page AS (
    SELECT t.id, t.payout_cents, t.deadline_at, ${distance} AS distance, count(*) OVER () AS total
      FROM tasks t
     WHERE ${TAKING_WORKERS}
     ${within}
       AND t.deadline_at > $1
       AND t.required_skills <@ $2::text[]
       AND COALESCE(t.min_reputation, 0) <= $3::numeric
       AND t.payout_cents >= $4
       AND NOT EXISTS (SELECT 1 FROM assignments m WHERE m.task_id = t.id AND m.worker_id = $5)
     ORDER BY ${order}
     LIMIT $6)
  SELECT t.*, page.distance, page.total, s.rating_count AS agent_rating_count, s.rating_sum AS agent_rating_sum
    FROM page
    JOIN tasks t ON t.id = page.id
    LEFT JOIN agent_rating_stats s ON s.agent_id = t.agent_id
   ORDER BY ${outerOrder}`;
  return { sql, params };
}
