import { sqlRows, type SqlRunner } from '../database/sql';
import type { OperatorAuditRow } from './audit.rows';
import type { AuditTargetType, OperatorAction } from './operator-audit';

export interface AuditLogFilter {
  adminId?: string;
  action?: OperatorAction;
  targetType?: AuditTargetType;
  targetId?: string;
  /** The id of the last row of the previous page: the page holds older rows. */
  startingAfter?: string;
  limit: number;
}

/**
 * One page of the audit log, newest first, by the filters given (each an index of the table). One row more than
 * the page is read to know whether another page follows.
 */
export async function auditLogPage(
  db: SqlRunner,
  filter: AuditLogFilter,
): Promise<{ rows: OperatorAuditRow[]; hasMore: boolean }> {
  // Unnamed statements are planned with their values, so the filters left out (NULL) fold away and each query
  // reads the one index its filters match.
  const rows = await sqlRows<OperatorAuditRow>(
    db,
    `SELECT id::text AS id, occurred_at, source, admin_id, session_id, action, target_type, target_id, before, after,
            request_id, host(ip) AS ip
       FROM operator_audit_log
      WHERE ($1::uuid IS NULL OR admin_id = $1) AND ($2::text IS NULL OR action = $2)
        AND ($3::text IS NULL OR target_type = $3) AND ($4::text IS NULL OR target_id = $4)
        AND ($5::bigint IS NULL OR id < $5)
      ORDER BY id DESC LIMIT $6`,
    [
      filter.adminId ?? null,
      filter.action ?? null,
      filter.targetType ?? null,
      filter.targetId ?? null,
      filter.startingAfter ?? null,
      filter.limit + 1,
    ],
  );
  return { rows: rows.slice(0, filter.limit), hasMore: rows.length > filter.limit };
}
