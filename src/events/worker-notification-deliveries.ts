import { sqlRows, type SqlRunner } from '../database/sql';
import { OFFER_CHANNELS, type OfferChannel } from './offer-deliveries';

/**
 * How a worker's money notifications reach them, per channel (product-decisions §19 through the ladder of §16): the
 * one writer and reader of `worker_notification_deliveries`, beside offer_deliveries and with the same channels and
 * statuses (see offer-deliveries.ts), plus `waiting`: an SMS held until the quiet hours end.
 *
 * A row is claimed before its channel sends (the primary key (notification_id, channel) lets one claim win), so a
 * job run twice, or by two runners, sends once. The socket row is written after the emit, as for offers.
 */
export type NoticeChannel = OfferChannel;
export const NOTICE_CHANNELS = OFFER_CHANNELS;

export const NOTICE_DELIVERY_STATUSES = ['sent', 'no_connection', 'failed', 'skipped', 'waiting'] as const;
export type NoticeDeliveryStatus = (typeof NOTICE_DELIVERY_STATUSES)[number];

export interface NoticeDelivery {
  notificationId: string;
  channel: NoticeChannel;
  status: NoticeDeliveryStatus;
  at: Date;
  /** A reason code for a status other than sent; never personal data (it is shown to the worker and logged). */
  detail?: string | null;
}

export interface NoticeDeliveryView {
  channel: NoticeChannel;
  status: NoticeDeliveryStatus;
  sent_at: string;
}

/** The socket rung of the notifications made from these outbox events (by event id): sent or no_connection. */
export async function recordSocketNotices(
  db: SqlRunner,
  eventIds: string[],
  status: 'sent' | 'no_connection',
  at: Date,
): Promise<void> {
  await sqlRows(
    db,
    `INSERT INTO worker_notification_deliveries (notification_id, channel, status, sent_at, updated_at)
     SELECT id, 'socket', $2, $3, $3 FROM worker_notifications WHERE event_id = ANY($1::uuid[])
     ON CONFLICT (notification_id, channel) DO NOTHING`,
    [eventIds, status, at],
  );
}

/**
 * Takes a channel's row before sending: inserted when the notification has none on that channel, or taken over from
 * `waiting` (an SMS held for the quiet hours, now due). Whether this call took it.
 */
export async function claimNoticeDelivery(db: SqlRunner, d: NoticeDelivery): Promise<boolean> {
  const rows = await sqlRows(
    db,
    `INSERT INTO worker_notification_deliveries (notification_id, channel, status, sent_at, detail, updated_at)
     VALUES ($1, $2, $3, $4, $5, $4)
     ON CONFLICT (notification_id, channel) DO UPDATE SET
       status = EXCLUDED.status, sent_at = EXCLUDED.sent_at, detail = EXCLUDED.detail,
       attempts = worker_notification_deliveries.attempts + 1, updated_at = EXCLUDED.updated_at
       WHERE worker_notification_deliveries.status = 'waiting'
     RETURNING notification_id`,
    [d.notificationId, d.channel, d.status, d.at, d.detail ?? null],
  );
  return rows.length > 0;
}

/** How a claimed send ended, when not as claimed (it failed after the claim): the same try, so no new attempt. */
export async function settleNoticeDelivery(db: SqlRunner, d: NoticeDelivery): Promise<void> {
  await sqlRows(
    db,
    `UPDATE worker_notification_deliveries SET status = $3, detail = $4, updated_at = $5
      WHERE notification_id = $1 AND channel = $2`,
    [d.notificationId, d.channel, d.status, d.detail ?? null, d.at],
  );
}

/** The deliveries of each of the given notifications, in channel order (one without any maps to []). */
export async function noticeDeliveriesOf(
  db: SqlRunner,
  notificationIds: string[],
): Promise<Map<string, NoticeDeliveryView[]>> {
  const byNotice = new Map<string, NoticeDeliveryView[]>(notificationIds.map((id) => [id, []]));
  if (notificationIds.length === 0) return byNotice;
  const rows = await sqlRows<{
    notification_id: string;
    channel: NoticeChannel;
    status: NoticeDeliveryStatus;
    sent_at: Date;
  }>(
    db,
    `SELECT notification_id, channel, status, sent_at FROM worker_notification_deliveries
      WHERE notification_id = ANY($1::uuid[]) ORDER BY array_position($2::text[], channel)`,
    [notificationIds, NOTICE_CHANNELS],
  );
  for (const r of rows) {
    byNotice
      .get(r.notification_id)
      ?.push({ channel: r.channel, status: r.status, sent_at: r.sent_at.toISOString() });
  }
  return byNotice;
}

/** Money SMS sent to a worker since `since` (their own daily cap counts them, apart from offer SMS). */
export async function noticeSmsSentSince(db: SqlRunner, workerId: string, since: Date): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM worker_notification_deliveries d
       JOIN worker_notifications n ON n.id = d.notification_id
      WHERE n.worker_id = $1 AND d.channel = 'sms' AND d.status = 'sent' AND d.sent_at > $2`,
    [workerId, since],
  );
  return row.n;
}
