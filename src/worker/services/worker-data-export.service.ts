import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { sqlRows } from '../../database/sql';
import type { WorkerDataExportResponse } from '../dtos/worker-data-export.dto';
import { WorkerEarningsService } from './worker-earnings.service';

type Row = Record<string, unknown>;

/**
 * Every query is keyed by the worker's own id, and each names its columns: nothing of an agent (its id, keys,
 * secrets, email) and nothing of another worker leaves. Tasks are shown as the worker saw them (title, description,
 * place, pay). The tables of modules above this one (assignments, messages, uploads, ratings, notifications) are read
 * by SQL, as the earnings service reads assignments.
 */
const QUERIES = {
  profile: `SELECT id AS worker_id, phone_number, display_name, skills, account_status, reputation, finished_tasks,
                   approved_tasks, rating_count, rating_average, offer_sms_enabled, money_sms_enabled, created_at,
                   updated_at
              FROM workers WHERE id = $1`,
  availability: `SELECT online, on_call_until, latitude, longitude, position_at, last_seen_at
                   FROM worker_availability WHERE worker_id = $1`,
  assignments: `SELECT a.id AS assignment_id, a.task_id, t.title AS task_title, t.description AS task_description,
                       t.latitude AS task_latitude, t.longitude AS task_longitude, t.address AS task_address,
                       t.payout_cents, a.status, a.offered_at, a.accepted_at, a.started_at, a.submitted_at,
                       a.reviewed_at, a.closed_at, a.result_data, a.worker_notes, a.photos, a.device_location,
                       a.rating, a.quality_score, a.feedback_text, a.rejection_reason_code,
                       a.offer_distance_meters, a.created_at
                  FROM assignments a JOIN tasks t ON t.id = a.task_id
                 WHERE a.worker_id = $1 ORDER BY a.created_at, a.id`,
  messages: `SELECT m.id AS message_id, m.assignment_id, m.sender AS "from", m.body, m.created_at
               FROM assignment_messages m JOIN assignments a ON a.id = m.assignment_id
              WHERE a.worker_id = $1 ORDER BY m.seq`,
  uploads: `SELECT id AS upload_id, category, storage_key, original_name, content_type, size_bytes, sha256, latitude,
                   longitude, taken_at, created_at
              FROM uploads WHERE worker_id = $1 ORDER BY created_at, id`,
  withdrawals: `SELECT id AS withdrawal_id, amount_cents, provider, payee_account, payee_name, status, rejection_reason,
                       failure_reason, completed_at, created_at
                  FROM withdrawals WHERE worker_id = $1 ORDER BY created_at, id`,
  ratings_given: `SELECT task_id, rating, comment, created_at FROM agent_ratings WHERE worker_id = $1
                   ORDER BY created_at, id`,
  notifications: `SELECT id AS notification_id, kind, assignment_id, task_id, amount_cents, reason_code, reason_text,
                         dispute_outcome, created_at, read_at
                    FROM worker_notifications WHERE worker_id = $1 ORDER BY created_at, id`,
} as const;

/** GET /v1/worker/data-export: the worker's copy of their own data (product-decisions §19). */
@Injectable()
export class WorkerDataExportService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly earnings: WorkerEarningsService,
  ) {}

  async export(actor: WorkerActor): Promise<WorkerDataExportResponse> {
    const read = (sql: string) => sqlRows<Row>(this.ds, sql, [actor.id]);
    const [
      [profile],
      [availability],
      assignments,
      messages,
      uploads,
      withdrawals,
      ratings,
      notifications,
      earnings,
    ] = await Promise.all([
      read(QUERIES.profile),
      read(QUERIES.availability),
      read(QUERIES.assignments),
      read(QUERIES.messages),
      read(QUERIES.uploads),
      read(QUERIES.withdrawals),
      read(QUERIES.ratings_given),
      read(QUERIES.notifications),
      this.earnings.earnings(actor),
    ]);
    return {
      exported_at: this.clock.now().toISOString(),
      profile: plain(profile),
      availability: availability ? plain(availability) : null,
      assignments: assignments.map(plain),
      messages: messages.map(plain),
      uploads: uploads.map(plain),
      earnings,
      withdrawals: withdrawals.map(plain),
      ratings_given: ratings.map(plain),
      notifications: notifications.map(plain),
    };
  }
}

/** Dates as ISO text and numeric strings as numbers, so the file reads the same as the API's answers. */
function plain(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] =
      v instanceof Date
        ? v.toISOString()
        : typeof v === 'string' &&
            /^(reputation|rating_average|quality_score|payout_cents|amount_cents)$/.test(k)
          ? Number(v)
          : v;
  }
  return out;
}
