import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { auditLogPage } from '../../audit/audit-log.query';
import type { OperatorAuditRow } from '../../audit/audit.rows';
import { sqlRows } from '../../database/sql';
import type { AdminRow } from '../admin.rows';
import type { AuditLogEntryResponse, AuditLogPageResponse, AuditLogQuery } from '../dtos/audit-log.dto';

/** The operator audit log, newest first, filtered by operator, action or target, cursor paged. */
@Injectable()
export class AuditLogService {
  constructor(private readonly ds: DataSource) {}

  async list(q: AuditLogQuery): Promise<AuditLogPageResponse> {
    const { rows, hasMore } = await auditLogPage(this.ds, {
      adminId: q.operator_id,
      action: q.action,
      targetType: q.target_type,
      targetId: q.target_id,
      startingAfter: q.starting_after,
      limit: q.limit ?? 50,
    });
    const emails = await this.emails(rows);
    const data = rows.map((r) => entryView(r, emails));
    return { data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1].id : null };
  }

  /** The operators named on the page (admins are this module's table; the log stores their ids). */
  private async emails(rows: OperatorAuditRow[]): Promise<Map<string, string>> {
    const ids = [...new Set(rows.flatMap((r) => (r.admin_id ? [r.admin_id] : [])))];
    if (ids.length === 0) return new Map();
    const admins = await sqlRows<Pick<AdminRow, 'id' | 'email'>>(
      this.ds,
      `SELECT id, email FROM admins WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(admins.map((a) => [a.id, a.email]));
  }
}

function entryView(r: OperatorAuditRow, emails: Map<string, string>): AuditLogEntryResponse {
  return {
    id: r.id,
    occurred_at: r.occurred_at,
    source: r.source,
    operator: r.admin_id ? { admin_id: r.admin_id, email: emails.get(r.admin_id) ?? '' } : null,
    session_id: r.session_id,
    action: r.action,
    target_type: r.target_type,
    target_id: r.target_id,
    before: r.before,
    after: r.after,
    request_id: r.request_id,
    ip: r.ip,
  };
}
