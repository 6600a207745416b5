import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../auth/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { LIVE_TASK_STATUSES } from '../domain/task-status';
import {
  AvailableSort,
  AvailableTasksQuery,
  AvailableTasksResponse,
  MY_TASK_FILTERS,
  MyTasksQuery,
  MyTasksResponse,
} from '../dtos/worker-task.dto';
import { iso, locationView } from '../task.presenter';
import { mapAssignment, mapTask } from '../task.repository';
import { WorkerReputation } from '../../worker/services/worker-reputation.service';

/** Great-circle distance in metres from ($1, $2) to the task (haversine; the matching issue adds a spatial index). */
const DISTANCE_SQL = `2 * 6371008.8 * asin(LEAST(1, sqrt(
    power(sin(radians(t.latitude - $1::float8) / 2), 2)
  + cos(radians($1::float8)) * cos(radians(t.latitude)) * power(sin(radians(t.longitude - $2::float8) / 2), 2))))`;

const ORDER: Record<AvailableSort, string> = {
  payment_desc: 'payout_cents DESC, deadline_at ASC, id',
  distance_asc: 'distance NULLS LAST, payout_cents DESC, id',
  deadline_asc: 'deadline_at ASC, payout_cents DESC, id',
};

/** Assignment statuses a worker's unfiltered task list shows: everything they accepted at some point. */
const ACCEPTED_AT_SOME_POINT = [...new Set(Object.values(MY_TASK_FILTERS).flat())];

@Injectable()
export class WorkerTaskQueryService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly reputation: WorkerReputation,
    private readonly clock: Clock,
  ) {}

  /**
   * Eligible tasks: live and taking workers, an open slot, deadline ahead, every required skill held, reputation
   * at least min_reputation, not already taken by this worker; within the radius when coordinates are given.
   */
  async available(actor: WorkerActor, q: AvailableTasksQuery): Promise<AvailableTasksResponse> {
    const hasLat = q.latitude !== undefined;
    if (hasLat !== (q.longitude !== undefined)) {
      throw ApiError.field(
        hasLat ? 'longitude' : 'latitude',
        'latitude and longitude must be given together',
      );
    }
    const radius = Math.round((q.max_distance_km ?? 5) * 1000);
    const limit = q.limit ?? 20;
    const rows = await sqlRows(
      this.ds,
      `WITH candidates AS (
         SELECT t.*, CASE WHEN $1::float8 IS NULL THEN NULL ELSE ${DISTANCE_SQL} END AS distance,
                t.max_workers - t.closed_slots - (
                  SELECT count(*) FROM assignments a WHERE a.task_id = t.id
                     AND (a.status IN ('pending', 'accepted', 'in_progress', 'submitted') OR a.slot_settlement IS NOT NULL)
                ) AS open_slots
           FROM tasks t
          WHERE t.status = ANY($3) AND t.intake_closed_at IS NULL AND t.deadline_at > $4
            AND t.required_skills <@ (SELECT skills FROM workers WHERE id = $5)
            AND COALESCE(t.min_reputation, 0) <= $6
            AND t.payout_cents >= $7
            AND NOT EXISTS (SELECT 1 FROM assignments m WHERE m.task_id = t.id AND m.worker_id = $5)
       )
       SELECT *, count(*) OVER () AS total FROM candidates
        WHERE open_slots > 0 AND (distance IS NULL OR distance <= $8)
        ORDER BY ${ORDER[q.sort_by ?? 'payment_desc']} LIMIT $9`,
      [
        q.latitude ?? null,
        q.longitude ?? null,
        LIVE_TASK_STATUSES,
        this.clock.now(),
        actor.id,
        await this.reputation.of(actor.id),
        q.min_payment_cents ?? 0,
        radius,
        limit,
      ],
    );
    const metadata: Record<string, number> = {
      total_eligible: rows.length ? Number(rows[0].total) : 0,
      returned: rows.length,
    };
    if (hasLat) metadata.max_distance_meters = radius;
    return {
      tasks: rows.map((r) => {
        const t = mapTask(r);
        return {
          task_id: t.id,
          title: t.title,
          description: t.description,
          task_type: t.task_type,
          payment_cents: t.payout_cents,
          distance_meters: r.distance === null ? null : Math.round(Number(r.distance)),
          deadline_at: t.deadline_at.toISOString(),
          estimated_duration_minutes: null,
          required_skills: t.required_skills,
          location: locationView(t),
          open_slots: Number(r.open_slots),
        };
      }),
      metadata,
    };
  }

  /** The worker's assignments, newest first, with offset paging. */
  async mine(actor: WorkerActor, q: MyTasksQuery): Promise<MyTasksResponse> {
    const statuses = q.status ? [...MY_TASK_FILTERS[q.status]] : ACCEPTED_AT_SOME_POINT;
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const rows = await sqlRows(
      this.ds,
      `SELECT a.*, row_to_json(t.*) AS task, count(*) OVER () AS total
         FROM assignments a JOIN tasks t ON t.id = a.task_id
        WHERE a.worker_id = $1 AND a.status = ANY($2)
        ORDER BY a.created_at DESC, a.id DESC LIMIT $3 OFFSET $4`,
      [actor.id, statuses, limit, offset],
    );
    const total = rows.length ? Number(rows[0].total) : await this.count(actor.id, statuses);
    return {
      tasks: rows.map((r) => {
        const a = mapAssignment(r);
        const t = mapTask(reviveTask(r.task as Record<string, unknown>));
        return {
          assignment_id: a.id,
          task_id: t.id,
          title: t.title,
          task_type: t.task_type,
          status: a.status,
          task_status: t.status,
          payment_cents: t.payout_cents,
          deadline_at: t.deadline_at.toISOString(),
          location: locationView(t),
          accepted_at: iso(a.accepted_at),
          started_at: iso(a.started_at),
          submitted_at: iso(a.submitted_at),
          reviewed_at: iso(a.reviewed_at),
        };
      }),
      total,
      limit,
      offset,
    };
  }

  /** A page past the end has no rows to carry the total; count separately then. */
  private async count(workerId: string, statuses: readonly string[]): Promise<number> {
    const [{ n }] = await sqlRows<{ n: number }>(
      this.ds,
      `SELECT count(*)::int AS n FROM assignments WHERE worker_id = $1 AND status = ANY($2)`,
      [workerId, statuses],
    );
    return n;
  }
}

/** row_to_json gives timestamps as strings; the task mapper expects Dates for the ones shown. */
function reviveTask(t: Record<string, unknown>): Record<string, unknown> {
  return { ...t, deadline_at: new Date(t.deadline_at as string) };
}
