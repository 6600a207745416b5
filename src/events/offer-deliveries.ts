import { sqlRows, type SqlRunner } from '../database/sql';
import type { OfferDeliveryRow } from './events.rows';

/**
 * How offers reach workers, per channel (product-decisions §16): the one writer and reader of `offer_deliveries`.
 * An offer is a pending assignment; each channel that tried to tell the worker about it records one row, which the
 * worker sees with the offer (GET /v1/worker/offers, GET /v1/worker/assignments/{id}).
 *
 * Channels, in the order an offer tries them: `socket` (the worker's open app, recorded when the outbox publisher
 * emits `assignment.offered`), then `push` (Web Push to the worker's devices) and `sms` (a deep link, for an offer
 * still unanswered after 30 s). Statuses mean the same on every channel:
 *
 * - `sent`: handed to the channel with someone there to take it: at least one of the worker's sockets was connected
 *   (on any instance), the push service accepted the message, the SMS gateway accepted the text.
 * - `no_connection`: the channel had no way to the worker: no socket connected, no push subscription.
 * - `failed`: the channel refused or errored (`detail` says how: a status code, a provider's code).
 * - `skipped`: a rule held it back (`detail`: `quiet_hours`, `daily_cap`, `turned_off`, ...).
 *
 * A channel that is tried again (a push retried after a failure) updates its row: `attempts` counts the tries and
 * `sent_at` is the latest; the unique (assignment_id, channel) keeps one answer per channel.
 */
export const OFFER_CHANNELS = ['socket', 'push', 'sms'] as const;
export type OfferChannel = (typeof OFFER_CHANNELS)[number];

export const OFFER_DELIVERY_STATUSES = ['sent', 'no_connection', 'failed', 'skipped'] as const;
export type OfferDeliveryStatus = (typeof OFFER_DELIVERY_STATUSES)[number];

export interface OfferDelivery {
  assignmentId: string;
  channel: OfferChannel;
  status: OfferDeliveryStatus;
  at: Date;
  /** A reason code for a status other than sent; never personal data (it is shown to the worker and logged). */
  detail?: string | null;
}

/** What the worker is shown of one delivery. */
export interface OfferDeliveryView {
  channel: OfferChannel;
  status: OfferDeliveryStatus;
  sent_at: string;
}

/** Records one channel's attempt at an offer; a second attempt on the same channel updates the row. */
export async function recordOfferDelivery(db: SqlRunner, d: OfferDelivery): Promise<void> {
  await sqlRows(
    db,
    `INSERT INTO offer_deliveries (assignment_id, channel, status, sent_at, detail, updated_at)
     VALUES ($1, $2, $3, $4, $5, $4)
     ON CONFLICT (assignment_id, channel) DO UPDATE SET
       status = EXCLUDED.status, sent_at = EXCLUDED.sent_at, detail = EXCLUDED.detail,
       attempts = offer_deliveries.attempts + 1, updated_at = EXCLUDED.updated_at`,
    [d.assignmentId, d.channel, d.status, d.at, d.detail ?? null],
  );
}

/** The deliveries of each of the given offers, in channel order (an offer without any maps to []). */
export async function offerDeliveriesOf(
  db: SqlRunner,
  assignmentIds: string[],
): Promise<Map<string, OfferDeliveryView[]>> {
  const byOffer = new Map<string, OfferDeliveryView[]>(assignmentIds.map((id) => [id, []]));
  if (assignmentIds.length === 0) return byOffer;
  const rows = await sqlRows<Pick<OfferDeliveryRow, 'assignment_id' | 'channel' | 'status' | 'sent_at'>>(
    db,
    `SELECT assignment_id, channel, status, sent_at FROM offer_deliveries
      WHERE assignment_id = ANY($1::uuid[])
      ORDER BY array_position($2::text[], channel)`,
    [assignmentIds, OFFER_CHANNELS],
  );
  for (const r of rows) {
    byOffer.get(r.assignment_id)?.push({
      channel: r.channel,
      status: r.status,
      sent_at: r.sent_at.toISOString(),
    });
  }
  return byOffer;
}
