import type { Pool } from 'pg';

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
 * What one listing sends (src/task/services/worker-task-query.service.ts and the JWT account lookup), with a random
 * worker and a random point near a random city. Keep in step with the service's SQL.
 */
export const AVAILABLE_TASKS_SQL = `
\\set w random(1, :workers)
\\set c random(0, :cities - 1)
\\set dlat random(-2000, 2000)
\\set dlon random(-2000, 2000)
SELECT worker_id FROM bench_available_workers WHERE n = :w \\gset
SELECT lat, lon FROM bench_cities WHERE k = :c \\gset
\\set qlat :lat + :dlat / 10000.0
\\set qlon :lon + :dlon / 10000.0
SELECT account_status, 0 AS rate_limit_per_minute, 0 AS rate_limit_per_day FROM workers WHERE id = :worker_id;
WITH candidates AS (
  SELECT t.*, CASE WHEN :qlat::float8 IS NULL THEN NULL ELSE 2 * 6371008.8 * asin(LEAST(1, sqrt(
      power(sin(radians(t.latitude - :qlat::float8) / 2), 2)
    + cos(radians(:qlat::float8)) * cos(radians(t.latitude)) * power(sin(radians(t.longitude - :qlon::float8) / 2), 2)))) END AS distance,
         t.max_workers - t.closed_slots - (
           SELECT count(*) FROM assignments a WHERE a.task_id = t.id
              AND (a.status IN ('pending', 'accepted', 'in_progress', 'submitted') OR a.slot_settlement IS NOT NULL)
         ) AS open_slots
    FROM tasks t
   WHERE t.status = ANY('{pending,assigned,in_progress,submitted}'::text[]) AND t.intake_closed_at IS NULL AND t.deadline_at > now()
     AND t.required_skills <@ (SELECT skills FROM workers WHERE id = :worker_id)
     AND COALESCE(t.min_reputation, 0) <= 4.0
     AND t.payout_cents >= 0
     AND NOT EXISTS (SELECT 1 FROM assignments m WHERE m.task_id = t.id AND m.worker_id = :worker_id)
)
SELECT *, count(*) OVER () AS total FROM candidates
 WHERE open_slots > 0 AND (distance IS NULL OR distance <= 5000)
 ORDER BY payout_cents DESC, deadline_at ASC, id LIMIT 20;
`;
