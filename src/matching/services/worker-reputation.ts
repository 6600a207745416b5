import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { sqlExec, sqlRows } from '../../database/sql';
import { computeReputation, NEW_WORKER_REPUTATION, ReputationStats } from '../reputation';

export { NEW_WORKER_REPUTATION };

type Runner = Pick<EntityManager, 'query'> | Pick<DataSource, 'query'>;

/** The reputation columns of a workers row (WorkerRow extends it), as the profile and the agent read them. */
export interface ReputationDetails {
  reputation: number;
  finished_tasks: number;
  approved_tasks: number;
  rating_count: number;
  rating_average: number | null;
  median_response_seconds: number | null;
}

/**
 * What counts toward reputation, from the worker's assignments (formula in reputation.ts). Expired work counts
 * only if the worker had accepted it (a lapsed offer is not a failed task). An accepted "could not do it" report
 * (product-decisions §19) counts neither way in the completion ratio; a rejected one is a rejection. Confirmed frauds
 * (product-decisions §18) are counted from proof_reviews.
 */
const STATS_SQL = `
  SELECT count(*) FILTER (WHERE status = 'approved' AND outcome = 'done')::int AS approved,
         count(*) FILTER (WHERE (status IN ('approved', 'rejected', 'abandoned') AND NOT (status = 'approved' AND outcome = 'unable'))
                             OR (status = 'expired' AND accepted_at IS NOT NULL))::int AS finished,
         count(rating)::int AS rating_count,
         COALESCE(sum(rating), 0)::int AS rating_sum,
         count(*) FILTER (WHERE submitted_at IS NOT NULL AND accepted_at IS NOT NULL)::int AS response_count,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM submitted_at - accepted_at))
           FILTER (WHERE submitted_at IS NOT NULL AND accepted_at IS NOT NULL) AS median_response_seconds,
         (SELECT count(*) FROM proof_reviews p
           WHERE p.worker_id = $1 AND p.outcome = 'confirmed_fraud' AND p.reversed_at IS NULL)::int AS frauds
    FROM assignments WHERE worker_id = $1`;

/**
 * The one place the API reads and recomputes a worker's reputation. The value is stored on the worker row and
 * recomputed in the transaction of every outcome that feeds it (approval, rejection with its rating, expiry,
 * abandonment), so readers never compute it and every rule sees the same number.
 */
@Injectable()
export class WorkerReputation {
  constructor(private readonly ds: DataSource) {}

  async of(workerId: string, db: Runner = this.ds): Promise<number> {
    const rows = await sqlRows<{ reputation: string }>(db, `SELECT reputation FROM workers WHERE id = $1`, [
      workerId,
    ]);
    return rows.length ? Number(rows[0].reputation) : NEW_WORKER_REPUTATION;
  }

  async ofMany(workerIds: string[], db: Runner = this.ds): Promise<Map<string, number>> {
    if (workerIds.length === 0) return new Map();
    const rows = await sqlRows<{ id: string; reputation: string }>(
      db,
      `SELECT id, reputation FROM workers WHERE id = ANY($1)`,
      [workerIds],
    );
    return new Map(rows.map((r) => [r.id, Number(r.reputation)]));
  }

  async details(workerId: string, db: Runner = this.ds): Promise<ReputationDetails | null> {
    const rows = await sqlRows<Record<string, string | number | null>>(
      db,
      `SELECT reputation, finished_tasks, approved_tasks, rating_count, rating_average, median_response_seconds
         FROM workers WHERE id = $1`,
      [workerId],
    );
    if (!rows.length) return null;
    const r = rows[0];
    return {
      reputation: Number(r.reputation),
      finished_tasks: Number(r.finished_tasks),
      approved_tasks: Number(r.approved_tasks),
      rating_count: Number(r.rating_count),
      rating_average: r.rating_average === null ? null : Number(r.rating_average),
      median_response_seconds: r.median_response_seconds === null ? null : Number(r.median_response_seconds),
    };
  }

  /**
   * Recomputes and stores the reputation inside the caller's transaction (which has just changed one of the
   * worker's assignments). Callers hold the task row lock; the worker row is locked after it, the same order as
   * accept, so the two never deadlock.
   */
  async recompute(em: EntityManager, workerId: string, now: Date): Promise<number> {
    const [row] = await sqlRows<Record<string, number | string | null>>(em, STATS_SQL, [workerId]);
    const stats: ReputationStats = {
      approved: Number(row.approved),
      finished: Number(row.finished),
      ratingCount: Number(row.rating_count),
      ratingSum: Number(row.rating_sum),
      responseCount: Number(row.response_count),
      medianResponseSeconds:
        row.median_response_seconds === null ? null : Number(row.median_response_seconds),
      confirmedFrauds: Number(row.frauds),
    };
    const { score } = computeReputation(stats);
    await sqlExec(
      em,
      `UPDATE workers SET reputation = $2, finished_tasks = $3, approved_tasks = $4, rating_count = $5,
              rating_average = $6, median_response_seconds = $7, reputation_updated_at = $8
        WHERE id = $1`,
      [
        workerId,
        score,
        stats.finished,
        stats.approved,
        stats.ratingCount,
        stats.ratingCount > 0 ? Math.round((stats.ratingSum / stats.ratingCount) * 100) / 100 : null,
        stats.medianResponseSeconds === null ? null : Math.round(stats.medianResponseSeconds),
        now,
      ],
    );
    return score;
  }
}
