import { sqlExec, type SqlRunner } from '../database/sql';

/**
 * Every kind of operator action the audit log records (product-decisions §16). A closed list: the log's filter and
 * the console's words are built from it, and a new operator write adds its action here.
 */
export const OPERATOR_ACTIONS = [
  'operator.created',
  'operator.updated',
  'operator.signed_in',
  'operator.sign_in_failed',
  'operator.signed_out',
  'operator.totp_enrolled',
  'operator.totp_reset',
  'operator.recovery_codes_regenerated',
  'agent.updated',
  'agent.credited',
  'withdrawal.approved',
  'withdrawal.rejected',
  'payment_order.bank_transfer_confirmed',
  'proof_review.decided',
  'worker_review.decided',
  'dispute.decided',
  'task_report.decided',
] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/**
 * What an action is done to: an operator account, an agent, a worker's withdrawal, a payment order, a held
 * submission (its proof review, product-decisions §18), a worker's review request, a dispute, a
 * worker's report of a task (§19).
 */
export const AUDIT_TARGET_TYPES = [
  'operator',
  'agent',
  'withdrawal',
  'payment_order',
  'assignment',
  'worker_review',
  'dispute',
  'task_report',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** `api`: an operator's request; `cli`: `npm run admin:create`, run by whoever holds the server. */
export type AuditSource = 'api' | 'cli';

/**
 * Who acted. The IP address is kept on sign-in rows only: a stolen password or authenticator shows up as a sign-in
 * from an unexpected network, and every later action names its session (`sessionId`), whose sign-in row has it;
 * keeping it on every action would add personal data and no answer.
 */
export interface AuditActor {
  source: AuditSource;
  adminId: string | null;
  sessionId: string | null;
  requestId: string | null;
  ip: string | null;
}

/** One action: what was done to what, and the target's relevant fields before and after (never a secret). */
export interface AuditEntry {
  action: OperatorAction;
  target: { type: AuditTargetType; id: string };
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * Appends one row to the audit log. Called with the action's own transaction, so the action and its record commit
 * together (an action that rolls back leaves no row, and no action commits without one).
 */
export async function recordOperatorAction(
  db: SqlRunner,
  who: AuditActor,
  entry: AuditEntry,
  at: Date,
): Promise<void> {
  await sqlExec(
    db,
    `INSERT INTO operator_audit_log (occurred_at, source, admin_id, session_id, action, target_type, target_id,
                                     before, after, request_id, ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11::inet)`,
    [
      at,
      who.source,
      who.adminId,
      who.sessionId,
      entry.action,
      entry.target.type,
      entry.target.id,
      json(entry.before),
      json(entry.after),
      who.requestId,
      who.ip,
    ],
  );
}

function json(value: Record<string, unknown> | null | undefined): string | null {
  return value == null ? null : JSON.stringify(value);
}
