import { sqlRows, type SqlRunner } from '../database/sql';

/** What the push and SMS of one offer need to know about it, its task and its worker. */
export interface LadderOffer {
  id: string;
  worker_id: string;
  task_id: string;
  status: string;
  offered_at: Date;
  offer_expires_at: Date;
  title: string;
  payout_cents: number;
  test_clock_id: string | null;
  /** The task's test clock time (sandbox), when it is on one. */
  clock_time: Date | null;
  phone_number: string;
  offer_sms_enabled: boolean;
  /** A sandbox agent's simulated worker: no phone, no browser; it answers by itself. */
  simulated: boolean;
}

export async function loadOffer(db: SqlRunner, assignmentId: string): Promise<LadderOffer | null> {
  const [row] = await sqlRows<LadderOffer & { payout_cents: string | number }>(
    db,
    `SELECT a.id, a.worker_id, a.task_id, a.status, a.offered_at, a.offer_expires_at, t.title, t.payout_cents,
            t.test_clock_id, c.frozen_time AS clock_time, w.phone_number, w.offer_sms_enabled,
            w.simulated_by_agent_id IS NOT NULL AS simulated
       FROM assignments a JOIN tasks t ON t.id = a.task_id JOIN workers w ON w.id = a.worker_id
       LEFT JOIN test_clocks c ON c.id = t.test_clock_id
      WHERE a.id = $1 AND a.offered_at IS NOT NULL AND a.offer_expires_at IS NOT NULL`,
    [assignmentId],
  );
  return row ? { ...row, payout_cents: Number(row.payout_cents) } : null;
}
