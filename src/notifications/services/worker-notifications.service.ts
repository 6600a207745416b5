import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { sqlRows } from '../../database/sql';
import { noticeDeliveriesOf } from '../../events/worker-notification-deliveries';
import type {
  MarkNotificationsReadRequest,
  MarkNotificationsReadResponse,
  WorkerNotificationsQuery,
  WorkerNotificationsResponse,
  WorkerNotificationView,
} from '../dtos/worker-notification.dto';
import { toNotification, type WorkerNotificationRow } from '../worker-notifications.rows';

type ListedRow = WorkerNotificationRow & { title: string };

/** A worker's own money notifications (product-decisions §19): their inbox, and marking it read. */
@Injectable()
export class WorkerNotificationsService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async list(actor: WorkerActor, q: WorkerNotificationsQuery): Promise<WorkerNotificationsResponse> {
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const rows = (
      await sqlRows<Omit<ListedRow, 'amount_cents'> & { amount_cents: string }>(
        this.ds,
        `SELECT n.*, t.title FROM worker_notifications n JOIN tasks t ON t.id = n.task_id
          WHERE n.worker_id = $1 ORDER BY n.created_at DESC, n.id DESC LIMIT $2 OFFSET $3`,
        [actor.id, limit, offset],
      )
    ).map((r) => toNotification<ListedRow>(r));
    const [counts] = await sqlRows<{ total: number; unread: number }>(
      this.ds,
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE read_at IS NULL)::int AS unread
         FROM worker_notifications WHERE worker_id = $1`,
      [actor.id],
    );
    const deliveries = await noticeDeliveriesOf(
      this.ds,
      rows.map((r) => r.id),
    );
    return {
      notifications: rows.map((r) => view(r, deliveries.get(r.id) ?? [])),
      total: counts.total,
      unread_count: counts.unread,
      limit,
      offset,
    };
  }

  async markRead(
    actor: WorkerActor,
    dto: MarkNotificationsReadRequest,
  ): Promise<MarkNotificationsReadResponse> {
    await sqlRows(
      this.ds,
      `UPDATE worker_notifications SET read_at = $3
        WHERE worker_id = $1 AND id = ANY($2::uuid[]) AND read_at IS NULL`,
      [actor.id, dto.notification_ids, this.clock.now()],
    );
    const [row] = await sqlRows<{ unread: number }>(
      this.ds,
      `SELECT count(*)::int AS unread FROM worker_notifications WHERE worker_id = $1 AND read_at IS NULL`,
      [actor.id],
    );
    return { unread_count: row.unread };
  }
}

function view(r: ListedRow, deliveries: WorkerNotificationView['deliveries']): WorkerNotificationView {
  return {
    notification_id: r.id,
    kind: r.kind,
    assignment_id: r.assignment_id,
    task_id: r.task_id,
    task_title: r.title,
    amount_cents: r.amount_cents,
    reason_code: r.reason_code,
    reason_text: r.reason_text,
    dispute_outcome: r.dispute_outcome,
    created_at: r.created_at.toISOString(),
    read_at: r.read_at ? r.read_at.toISOString() : null,
    deliveries,
  };
}
