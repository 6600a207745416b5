import { sqlRows, type SqlRunner } from '../database/sql';

/**
 * What open and still-disputable rejections of an agent's tasks could cost it at most (product-decisions §19): the
 * slot's budget for each rejection still inside its 72-hour window and not disputed, and for each dispute not yet
 * decided (an overturn pays the payout and the fee, a split at most 99 % of the budget, so the budget bounds both).
 * A refund to the payer keeps this in the balance. Windows are on each task's time (a sandbox test clock's for a task
 * on one); `now` is real time for the others.
 */
export async function disputeReserveCents(db: SqlRunner, agentId: string, now: Date): Promise<number> {
  const [row] = await sqlRows<{ cents: string }>(
    db,
    `SELECT COALESCE(sum(t.budget_cents), 0)::text AS cents
       FROM assignments a JOIN tasks t ON t.id = a.task_id
       LEFT JOIN test_clocks c ON c.id = t.test_clock_id
       LEFT JOIN disputes d ON d.assignment_id = a.id
      WHERE t.agent_id = $1 AND a.status = 'rejected'
        AND CASE WHEN d.id IS NOT NULL THEN d.decided_at IS NULL
                 ELSE a.dispute_window_ends_at > COALESCE(c.frozen_time, $2::timestamptz) END`,
    [agentId, now],
  );
  return Number(row.cents);
}
