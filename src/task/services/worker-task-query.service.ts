import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { offerDeliveriesOf } from '../../events/offer-deliveries';
import {
  AssignmentReviewView,
  AvailableTasksQuery,
  AvailableTasksResponse,
  MY_TASK_FILTERS,
  MyTasksQuery,
  MyTaskItem,
  MyTasksResponse,
  VerdictProofReview,
  WorkerAssignmentDetail,
} from '../dtos/worker-task.dto';
import { availableTaskItem, iso, locationView, resultPhoto } from '../task.presenter';
import { AssignmentRow, mapAssignment, mapTask, TaskRow } from '../task.repository';
import { NearbyTasks } from '../../matching/services/nearby-tasks';
import { agentRecords } from '../../matching/agent-record';
import { Clock } from '../../common/clock';

/** Assignment statuses a worker's unfiltered task list shows: everything they accepted at some point. */
const ACCEPTED_AT_SOME_POINT = [
  ...new Set(
    Object.entries(MY_TASK_FILTERS)
      .filter(([name]) => name !== 'offered')
      .flatMap(([, statuses]) => statuses),
  ),
];

/** An assignment is the worker's task once accepted; before that only a live offer is shown (under `offered`). */
const TAKEN_OR_OFFERED = `(a.accepted_at IS NOT NULL OR a.status = 'pending')`;

@Injectable()
export class WorkerTaskQueryService {
  constructor(
    private readonly ds: DataSource,
    private readonly nearby: NearbyTasks,
    private readonly clock: Clock,
  ) {}

  /**
   * Eligible tasks: live and taking workers, an open slot, deadline ahead, every required skill held, reputation
   * at least min_reputation, not already taken by this worker; within the radius of the query's position, or of
   * the worker's last reported one when the query has none (the search itself: src/matching/nearby-tasks.query.ts).
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
    const found = await this.nearby.search(actor.id, {
      position: hasLat ? { latitude: q.latitude!, longitude: q.longitude! } : undefined,
      radiusMeters: radius,
      minPayoutCents: q.min_payment_cents ?? 0,
      sort: q.sort_by ?? 'payment_desc',
      limit: q.limit ?? 20,
    });
    const metadata: Record<string, number> = {
      total_eligible: found.total,
      total_is_estimate: found.totalIsEstimate ? 1 : 0,
      returned: found.rows.length,
    };
    if (found.position) metadata.max_distance_meters = radius;
    if (found.positionSource === 'last_known') metadata.last_known_position = 1;
    const records = await agentRecords(
      this.ds,
      found.rows.map((r) => r.agent_id),
      this.clock.now(),
    );
    return { tasks: found.rows.map((r) => availableTaskItem(r, records)), metadata };
  }

  /** The worker's assignments, newest first, with offset paging. */
  async mine(actor: WorkerActor, q: MyTasksQuery): Promise<MyTasksResponse> {
    const statuses = q.status ? [...MY_TASK_FILTERS[q.status]] : ACCEPTED_AT_SOME_POINT;
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const rows = await sqlRows(
      this.ds,
      `SELECT a.*, row_to_json(t.*) AS task, ${FRAUD_COLUMNS}, count(*) OVER () AS total
         FROM assignments a JOIN tasks t ON t.id = a.task_id ${FRAUD_JOIN}
        WHERE a.worker_id = $1 AND a.status = ANY($2) AND ${TAKEN_OR_OFFERED}
        ORDER BY a.created_at DESC, a.id DESC LIMIT $3 OFFSET $4`,
      [actor.id, statuses, limit, offset],
    );
    const total = rows.length ? Number(rows[0].total) : await this.count(actor.id, statuses);
    return {
      tasks: rows.map((r) =>
        myTaskItem(mapAssignment(r), mapTask(reviveTask(r.task as Record<string, unknown>)), fraudOf(r)),
      ),
      total,
      limit,
      offset,
    };
  }

  /** One of the worker's own assignments, whatever its status; another worker's is 404 like a missing one. */
  async one(actor: WorkerActor, assignmentId: string): Promise<WorkerAssignmentDetail> {
    const rows = await sqlRows(
      this.ds,
      `SELECT a.*, row_to_json(t.*) AS task, (SELECT d.id FROM disputes d WHERE d.assignment_id = a.id) AS dispute_id,
              ${FRAUD_COLUMNS}
         FROM assignments a JOIN tasks t ON t.id = a.task_id ${FRAUD_JOIN}
        WHERE a.id = $1 AND a.worker_id = $2`,
      [assignmentId, actor.id],
    );
    if (!rows[0]) throw new ApiError('assignment_not_found', 'You have no assignment with this id.');
    const a = mapAssignment(rows[0]);
    const t = mapTask(reviveTask(rows[0].task as Record<string, unknown>));
    const deliveries = await offerDeliveriesOf(this.ds, [a.id]);
    return {
      ...myTaskItem(a, t, fraudOf(rows[0])),
      description: t.description,
      required_skills: t.required_skills,
      answer_schema: t.answer_schema,
      submission:
        a.submitted_at === null
          ? null
          : {
              result_data: a.result_data ?? {},
              worker_notes: a.worker_notes,
              photos: a.photos.map(resultPhoto),
              device_location: (a.device_location as Record<string, unknown> | null) ?? null,
              review_required: a.review_required,
              ...(a.outcome === 'unable' ? { unable_reason: a.unable_reason! } : {}),
            },
      deliveries: deliveries.get(a.id) ?? [],
      dispute_window_ends_at:
        a.status === 'rejected' ? (a.dispute_window_ends_at?.toISOString() ?? null) : null,
      dispute_id: (rows[0].dispute_id as string | null) ?? null,
    };
  }

  /** A page past the end has no rows to carry the total; count separately then. */
  private async count(workerId: string, statuses: readonly string[]): Promise<number> {
    const [{ n }] = await sqlRows<{ n: number }>(
      this.ds,
      `SELECT count(*)::int AS n FROM assignments a WHERE a.worker_id = $1 AND a.status = ANY($2) AND ${TAKEN_OR_OFFERED}`,
      [workerId, statuses],
    );
    return n;
  }
}

/**
 * An operator's confirmed fraud on the assignment (proof_reviews, one row per assignment at most), so the verdict
 * says a person decided it rather than the agent (product-decisions §18).
 */
const FRAUD_JOIN = `LEFT JOIN proof_reviews fr ON fr.assignment_id = a.id AND fr.outcome = 'confirmed_fraud'`;
const FRAUD_COLUMNS = `fr.decided_at AS fraud_decided_at, fr.reversed_at AS fraud_reversed_at`;

function fraudOf(r: Record<string, unknown>): VerdictProofReview | null {
  const decided = r.fraud_decided_at as Date | null;
  if (!decided) return null;
  const reversed = r.fraud_reversed_at as Date | null;
  return { outcome: 'confirmed_fraud', decided_at: decided.toISOString(), reversed_at: iso(reversed) };
}

/** An assignment with its task as the worker's lists show it. */
function myTaskItem(a: AssignmentRow, t: TaskRow, fraud: VerdictProofReview | null): MyTaskItem {
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
    location_proof: t.location_proof,
    offer_expires_at: a.status === 'pending' ? iso(a.offer_expires_at) : null,
    accepted_at: iso(a.accepted_at),
    started_at: iso(a.started_at),
    submitted_at: iso(a.submitted_at),
    reviewed_at: iso(a.reviewed_at),
    review: reviewOf(a, fraud),
  };
}

/** The verdict on an approved or rejected result, for the worker who submitted it. */
function reviewOf(a: AssignmentRow, fraud: VerdictProofReview | null): AssignmentReviewView | null {
  if (a.status !== 'approved' && a.status !== 'rejected') return null;
  return {
    decision: a.status,
    reason_code: a.rejection_reason_code,
    feedback_text: a.feedback_text,
    rating: a.rating,
    quality_score: a.quality_score,
    proof_review: fraud,
  };
}

/** row_to_json gives timestamps as strings; the task mapper expects Dates for the ones shown. */
function reviveTask(t: Record<string, unknown>): Record<string, unknown> {
  return { ...t, deadline_at: new Date(t.deadline_at as string) };
}
