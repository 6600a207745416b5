import type { AuditSource, AuditTargetType, OperatorAction } from './operator-audit';

/** An operator_audit_log row (append-only: the database refuses UPDATE, DELETE and TRUNCATE). */
export interface OperatorAuditRow {
  /** bigint identity: text from pg. Ordered by insertion, which is the log's order. */
  id: string;
  occurred_at: Date;
  source: AuditSource;
  /** The operator who acted; null for the command line. */
  admin_id: string | null;
  session_id: string | null;
  action: OperatorAction;
  target_type: AuditTargetType;
  target_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string | null;
  ip: string | null;
}
