import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { sqlRows } from '../../database/sql';

/** Positions reported by workers are kept this long (product-decisions §18, §19). */
export const POSITION_RETENTION_DAYS = 30;
/** Where proof photos were taken is kept this long after the task ends (product-decisions §19). */
export const PROOF_LOCATION_RETENTION_DAYS = 180;

/** When a task ended: the time it reached completed, failed or cancelled; null while it is live. */
const TASK_ENDED_AT = `CASE WHEN t.status IN ('completed', 'failed', 'cancelled')
  THEN COALESCE(t.completed_at, t.cancelled_at, t.deadline_processed_at, t.updated_at) END`;

/**
 * One place a position is stored, how long it is kept, and how to erase up to $2 of the ones past that: $1 is the
 * cutoff (now minus the retention), $3 now (only for the stores that say `usesNow`). Each statement answers one row
 * per erased position (`RETURNING 1`), and only touches rows still holding a position past the cutoff, so a sweep is
 * safe to run concurrently and again.
 */
interface PositionStore {
  name: string;
  retentionDays: number;
  usesNow?: boolean;
  sql: string;
}

const STORES: readonly PositionStore[] = [
  {
    // The position trail (§18): every position reported, for impossible travel.
    name: 'position_reports',
    retentionDays: POSITION_RETENTION_DAYS,
    sql: `DELETE FROM position_reports WHERE id IN (
            SELECT id FROM position_reports WHERE reported_at < $1 ORDER BY reported_at LIMIT $2)
          RETURNING 1`,
  },
  {
    // The latest position of each worker. A worker still on call keeps theirs (it is at most ON_CALL_HOURS old when
    // they are matched on it); an old one off call loses it, and a stale on-call row (its on_call_until passed) goes
    // off call with it, which is what every reader already takes it to be.
    name: 'worker_availability',
    retentionDays: POSITION_RETENTION_DAYS,
    usesNow: true,
    sql: `UPDATE worker_availability
             SET latitude = NULL, longitude = NULL, position_at = NULL, online = false, on_call_until = NULL
           WHERE worker_id IN (
             SELECT worker_id FROM worker_availability
              WHERE position_at < $1 AND (NOT online OR on_call_until <= $3) LIMIT $2)
       RETURNING 1`,
  },
  {
    // The device's position a submission carried, once its task ended long enough ago.
    name: 'assignment_device_locations',
    retentionDays: PROOF_LOCATION_RETENTION_DAYS,
    sql: `UPDATE assignments SET device_location = NULL
           WHERE id IN (
             SELECT a.id FROM assignments a JOIN tasks t ON t.id = a.task_id
              WHERE a.device_location IS NOT NULL AND ${TASK_ENDED_AT} < $1 LIMIT $2)
       RETURNING 1`,
  },
  {
    // Where a photo was taken (its EXIF GPS and facts, as recorded at upload): uploaded before the cutoff, and no
    // submission of the worker that cites it belongs to a task that is live or ended after the cutoff.
    name: 'upload_locations',
    retentionDays: PROOF_LOCATION_RETENTION_DAYS,
    sql: `UPDATE uploads SET latitude = NULL, longitude = NULL, exif = NULL
           WHERE id IN (
             SELECT u.id FROM uploads u
              WHERE (u.latitude IS NOT NULL OR u.exif IS NOT NULL) AND u.created_at < $1
                AND NOT EXISTS (
                  SELECT 1 FROM assignments a JOIN tasks t ON t.id = a.task_id
                   CROSS JOIN LATERAL jsonb_array_elements(a.photos) p
                   WHERE a.worker_id = u.worker_id AND p->>'url' LIKE '%' || u.storage_key
                     AND COALESCE(${TASK_ENDED_AT} >= $1, true))
              LIMIT $2)
       RETURNING 1`,
  },
];

/**
 * Erases positions past their retention (PIPL; product-decisions §18, §19), by the job runner's `position-erasure`
 * schedule (hourly): every store of STORES, in batches, so one run never holds many rows locked. One list, one
 * schedule: a new place that stores a position is one more entry.
 */
@Injectable()
export class PositionErasure {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  /** How many positions each store erased. */
  async sweep(batch = 5000): Promise<Record<string, number>> {
    const now = this.clock.now();
    const erased: Record<string, number> = {};
    for (const store of STORES) {
      const cutoff = new Date(now.getTime() - store.retentionDays * 86_400_000);
      erased[store.name] = 0;
      for (;;) {
        const rows = await sqlRows(
          this.ds,
          store.sql,
          store.usesNow ? [cutoff, batch, now] : [cutoff, batch],
        );
        erased[store.name] += rows.length;
        if (rows.length < batch) break;
      }
    }
    return erased;
  }
}
