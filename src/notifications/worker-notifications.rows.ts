import { sqlRows, type SqlRunner } from '../database/sql';

/**
 * The reason_code of a rejection that an operator's confirmed fraud made (product-decisions §18): the rejection's
 * text is the platform's, in English, so the worker is told in the words of their app and push instead.
 */
export const FRAUD_CONFIRMED = 'confirmed_fraud';

/**
 * What a worker hears about their money (product-decisions §19): a result paid, a "could not do it" report accepted
 * and paid its share, a result rejected (with the agent's reason; a confirmed fraud rejects this way), a dispute
 * decided, a cancellation's compensation paid.
 */
export const NOTIFICATION_KINDS = [
  'paid',
  'unable_paid',
  'rejected',
  'dispute_decided',
  'compensated',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_DISPUTE_OUTCOMES = ['upheld', 'overturned', 'split'] as const;
export type NotificationDisputeOutcome = (typeof NOTIFICATION_DISPUTE_OUTCOMES)[number];

/** A worker_notifications row (amount_cents, a bigint, converted to a number). */
export interface WorkerNotificationRow {
  id: string;
  event_id: string;
  worker_id: string;
  kind: NotificationKind;
  assignment_id: string;
  task_id: string;
  /** What this event paid the worker, net of the platform fee (0 for a rejection or an upheld dispute). */
  amount_cents: number;
  reason_code: string | null;
  reason_text: string | null;
  dispute_outcome: NotificationDisputeOutcome | null;
  created_at: Date;
  read_at: Date | null;
}

/** A notification with what its push and SMS need: the task's title and the worker's contact settings. */
export interface LadderNotice extends WorkerNotificationRow {
  title: string;
  phone_number: string;
  money_sms_enabled: boolean;
}

export type NewNotification = Omit<WorkerNotificationRow, 'id' | 'read_at'>;

type Raw<T> = Omit<T, 'amount_cents'> & { amount_cents: string | number };

export function toNotification<T extends WorkerNotificationRow>(row: Raw<T>): T {
  return { ...row, amount_cents: Number(row.amount_cents) } as T;
}

/** Inserts the notifications not made yet (one per outbox event, by event_id); the ids of those made now. */
export async function insertNotifications(db: SqlRunner, rows: NewNotification[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const made = await sqlRows<{ id: string }>(
    db,
    `INSERT INTO worker_notifications (event_id, worker_id, kind, assignment_id, task_id, amount_cents, reason_code,
                                       reason_text, dispute_outcome, created_at)
     SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(event_id uuid, worker_id uuid, kind text, assignment_id uuid,
       task_id uuid, amount_cents bigint, reason_code text, reason_text text, dispute_outcome text,
       created_at timestamptz)
     ON CONFLICT (event_id) DO NOTHING RETURNING id`,
    [JSON.stringify(rows)],
  );
  return made.map((r) => r.id);
}

export async function loadNotice(db: SqlRunner, id: string): Promise<LadderNotice | null> {
  const [row] = await sqlRows<Raw<LadderNotice>>(
    db,
    `SELECT n.*, t.title, w.phone_number, w.money_sms_enabled
       FROM worker_notifications n JOIN tasks t ON t.id = n.task_id JOIN workers w ON w.id = n.worker_id
      WHERE n.id = $1 AND w.deleted_at IS NULL`,
    [id],
  );
  return row ? toNotification(row) : null;
}
