import { ApiError } from '../common/errors/api-error';
import { sqlRows, type SqlRunner } from '../database/sql';

/**
 * What a confirmed fraud did to a worker's account (product-decisions §18): live rows of worker_suspensions, each
 * suspending the account (no going on call, no offers, no taking tasks), pausing withdrawals, or both, until a person
 * lifts it. Signing in is never refused for this: a suspended worker must still read why and ask for a review.
 */
export interface WorkerStanding {
  suspended: boolean;
  withdrawals_paused: boolean;
  /** The live suspension that refuses work (else the one that pauses withdrawals); null when none is live. */
  suspension_id: string | null;
  /** The one that pauses withdrawals. */
  pause_id: string | null;
}

/** SQL that is true when the worker `col` has a live suspension (for the matcher's and dispatch's queries). */
export const SUSPENDED_SQL = (col: string) =>
  `EXISTS (SELECT 1 FROM worker_suspensions s WHERE s.worker_id = ${col} AND s.suspended AND s.lifted_at IS NULL)`;

export async function workerStanding(db: SqlRunner, workerId: string): Promise<WorkerStanding> {
  const rows = await sqlRows<{ id: string; suspended: boolean; withdrawals_paused: boolean }>(
    db,
    `SELECT id, suspended, withdrawals_paused FROM worker_suspensions
      WHERE worker_id = $1 AND lifted_at IS NULL ORDER BY created_at`,
    [workerId],
  );
  const suspension = rows.find((r) => r.suspended) ?? null;
  const pause = rows.find((r) => r.withdrawals_paused) ?? null;
  return {
    suspended: suspension !== null,
    withdrawals_paused: pause !== null,
    suspension_id: suspension?.id ?? null,
    pause_id: pause?.id ?? null,
  };
}

/** Refuses going on call and taking a task while the account is suspended (403 worker_suspended). */
export async function assertMayWork(db: SqlRunner, workerId: string): Promise<void> {
  const s = await workerStanding(db, workerId);
  if (s.suspended) {
    throw new ApiError(
      'worker_suspended',
      'Your account is suspended after a confirmed fraud: you cannot go on call or take tasks. You may ask for a review.',
      { suspension_id: s.suspension_id! },
    );
  }
}

/** Refuses a withdrawal while withdrawals are paused (403 withdrawals_paused). */
export async function assertMayWithdraw(db: SqlRunner, workerId: string): Promise<void> {
  const s = await workerStanding(db, workerId);
  if (s.withdrawals_paused) {
    throw new ApiError(
      'withdrawals_paused',
      'Your withdrawals are paused for review after a confirmed fraud; your balance stays yours. You may ask for a review.',
      { suspension_id: s.pause_id! },
    );
  }
}
