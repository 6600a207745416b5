import type { LatLng } from './geo';

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

const ORDER: Record<NearbySort, string> = {
  payment_desc: 'payout_cents DESC, deadline_at ASC, id',
  distance_asc: 'distance NULLS LAST, payout_cents DESC, id',
  deadline_asc: 'deadline_at ASC, payout_cents DESC, id',
};

/**
 * The available-tasks query. With a position, `earth_box(center, r) @> ll_to_earth(lat, lng)` is the indexable
 * bounding-cube test (GiST on ll_to_earth) and earth_distance the exact filter and the sort key. The worker's own
 * tasks (any assignment, whatever became of it) are excluded; the agent's rating is joined after the limit, so it
 * costs one lookup per returned row.
 */
export function nearbyTasksQuery(f: NearbyTasksFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [f.now, f.skills, f.reputation, f.minPayoutCents, f.workerId, f.limit];
  let distance = 'NULL::float8';
  let within = '';
  if (f.position) {
    params.push(f.position.latitude, f.position.longitude, f.radiusMeters);
    const center = `ll_to_earth($7::float8, $8::float8)`;
    distance = `earth_distance(${center}, ll_to_earth(t.latitude, t.longitude))`;
    within = `AND earth_box(${center}, $9::float8) @> ll_to_earth(t.latitude, t.longitude)
     AND ${distance} <= $9::float8`;
  }
  const order = ORDER[f.sort];
  const sql = `
  WITH page AS (
    SELECT t.*, ${distance} AS distance, count(*) OVER () AS total
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
  SELECT page.*, s.rating_count AS agent_rating_count, s.rating_sum AS agent_rating_sum
    FROM page LEFT JOIN agent_rating_stats s ON s.agent_id = page.agent_id
   ORDER BY ${order}`;
  return { sql, params };
}
