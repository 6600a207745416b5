import { sqlRows, type SqlRunner } from '../database/sql';
import type { DisputeEventData, DisputeOutcome, DisputeStatus } from '../events/event-data';
import type { DisputeView } from './dtos/disputes.dto';

/** A disputes row with its task's time (a sandbox test clock's for a task on one, else the caller's now). */
export interface DisputeRow {
  id: string;
  assignment_id: string;
  task_id: string;
  agent_id: string;
  worker_id: string;
  statement: string;
  photo_urls: string[];
  opened_at: Date;
  response_due_at: Date;
  response_statement: string | null;
  response_photo_urls: string[] | null;
  answered_at: Date | null;
  outcome: DisputeOutcome | null;
  worker_percent: number | null;
  decision_note: string | null;
  decided_at: Date | null;
  worker_cents: number | null;
  fee_cents: number | null;
  owed_cents: number | null;
  task_now: Date;
}

/**
 * The status, from the times and the task's now: the agent may answer until answered or response_due_at, then an
 * operator decides. The same rule as STATUS_SQL below, which filters lists by it.
 */
export function statusOf(
  d: Pick<DisputeRow, 'decided_at' | 'answered_at' | 'response_due_at' | 'task_now'>,
): DisputeStatus {
  if (d.decided_at) return 'decided';
  if (d.answered_at || d.response_due_at <= d.task_now) return 'awaiting_decision';
  return 'awaiting_response';
}

/** `task_now` for a row of disputes `d` joined to its task `t` and the task's clock `c`; $now is real time. */
const taskNowSql = (now: string) => `COALESCE(c.frozen_time, ${now}::timestamptz)`;

const STATUS_SQL = (now: string) => `CASE WHEN d.decided_at IS NOT NULL THEN 'decided'
  WHEN d.answered_at IS NOT NULL OR d.response_due_at <= ${taskNowSql(now)} THEN 'awaiting_decision'
  ELSE 'awaiting_response' END`;

const FROM = `FROM disputes d JOIN tasks t ON t.id = d.task_id LEFT JOIN test_clocks c ON c.id = t.test_clock_id`;

export const DisputesRepository = {
  /** One dispute, locked for the rest of the caller's transaction when `lock` (a decision, an answer). */
  async find(db: SqlRunner, id: string, now: Date, lock = false): Promise<DisputeRow | null> {
    const rows = await sqlRows<DisputeRow>(
      db,
      `SELECT d.*, ${taskNowSql('$2')} AS task_now ${FROM} WHERE d.id = $1 ${lock ? 'FOR UPDATE OF d' : ''}`,
      [id, now],
    );
    return rows[0] ?? null;
  },

  async ofAssignment(db: SqlRunner, assignmentId: string, now: Date): Promise<DisputeRow | null> {
    const rows = await sqlRows<DisputeRow>(
      db,
      `SELECT d.*, ${taskNowSql('$2')} AS task_now ${FROM} WHERE d.assignment_id = $1`,
      [assignmentId, now],
    );
    return rows[0] ?? null;
  },

  async ofTask(db: SqlRunner, taskId: string, now: Date): Promise<DisputeRow[]> {
    return sqlRows<DisputeRow>(
      db,
      `SELECT d.*, ${taskNowSql('$2')} AS task_now ${FROM} WHERE d.task_id = $1 ORDER BY d.opened_at, d.id`,
      [taskId, now],
    );
  },

  /** The operators' queue: oldest first, with the task and the rejection an operator weighs. */
  async queue(
    db: SqlRunner,
    status: DisputeStatus | null,
    now: Date,
  ): Promise<(DisputeRow & QueueColumns)[]> {
    return sqlRows<DisputeRow & QueueColumns>(
      db,
      `SELECT d.*, ${taskNowSql('$2')} AS task_now, t.title AS task_title, t.budget_cents, t.payout_cents,
              a.rejection_reason_code, a.feedback_text AS rejection_feedback
         ${FROM} JOIN assignments a ON a.id = d.assignment_id
        WHERE $1::text IS NULL OR ${STATUS_SQL('$2')} = $1
        ORDER BY d.opened_at, d.id LIMIT 500`,
      [status, now],
    );
  },
};

export interface QueueColumns {
  task_title: string;
  budget_cents: number;
  payout_cents: number;
  rejection_reason_code: string | null;
  rejection_feedback: string | null;
}

export function disputeView(d: DisputeRow): DisputeView {
  return {
    dispute_id: d.id,
    assignment_id: d.assignment_id,
    task_id: d.task_id,
    status: statusOf(d),
    worker: { statement: d.statement, photo_urls: d.photo_urls, at: d.opened_at.toISOString() },
    agent:
      d.answered_at && d.response_statement !== null
        ? {
            statement: d.response_statement,
            photo_urls: d.response_photo_urls ?? [],
            at: d.answered_at.toISOString(),
          }
        : null,
    opened_at: d.opened_at.toISOString(),
    response_due_at: d.response_due_at.toISOString(),
    decision:
      d.decided_at && d.outcome
        ? {
            outcome: d.outcome,
            worker_percent: d.worker_percent,
            note: d.decision_note,
            worker_cents: d.worker_cents ?? 0,
            fee_cents: d.fee_cents ?? 0,
            charged_cents: (d.worker_cents ?? 0) + (d.fee_cents ?? 0),
            owed_cents: d.owed_cents ?? 0,
            decided_at: d.decided_at.toISOString(),
          }
        : null,
  };
}

/** What dispute.opened, dispute.answered and dispute.decided carry (the words are read through the API). */
export function disputeEventData(d: DisputeRow): DisputeEventData {
  const decided = d.decided_at !== null;
  return {
    dispute_id: d.id,
    assignment_id: d.assignment_id,
    task_id: d.task_id,
    status: statusOf(d),
    response_due_at: d.response_due_at.toISOString(),
    outcome: d.outcome,
    worker_percent: d.worker_percent,
    worker_cents: decided ? (d.worker_cents ?? 0) : null,
    charged_cents: decided ? (d.worker_cents ?? 0) + (d.fee_cents ?? 0) : null,
  };
}
