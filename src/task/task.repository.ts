import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { numericColumns, sqlRows } from '../database/sql';
import type { AssignmentStatus, SlotSettlement, TaskStatus } from './domain/task-status';
import type { DeviceLocation, PhotoVerification } from '../events/event-data';
import type { LocationProof } from './domain/location-proof';
import type { AssignmentOutcome, RejectionReason, TaskType, UnableReason } from './domain/task-policy';
import type { ReviewPolicy } from './domain/agreement';

/** A task row with money as numbers (bigint cents stay far below 2^53) and times as Dates. */
export interface TaskRow {
  id: string;
  agent_id: string;
  title: string;
  description: string;
  task_type: TaskType;
  latitude: number;
  longitude: number;
  address: string | null;
  max_distance_meters: number;
  budget_cents: number;
  max_workers: number;
  fee_bps: number;
  payout_cents: number;
  fee_cents: number;
  total_cents: number;
  required_skills: string[];
  min_reputation: number | null;
  metadata: Record<string, unknown>;
  location_proof: LocationProof;
  /** The agent's answer schema as sent (product-decisions §17); null: free-form result_data. */
  answer_schema: Record<string, unknown> | null;
  review_policy: ReviewPolicy | null;
  /** The share of a slot's budget (0-50 %) an accepted "could not do it" report pays (product-decisions §19). */
  unable_payout_percent: number;
  /** When min_agreeing submissions first agreed (agreement review); no new offers from then on. */
  agreement_reached_at: Date | null;
  status: TaskStatus;
  closed_slots: number;
  /** Slots a worker could take now (0 once intake closed); kept by TaskSettlement.reconcileTask. */
  open_slots: number;
  deadline_at: Date;
  estimated_completion_at: Date;
  completed_at: Date | null;
  cancelled_at: Date | null;
  intake_closed_at: Date | null;
  deadline_processed_at: Date | null;
  /** The sandbox test clock the task lives on (product-decisions §12); null: real time. */
  test_clock_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * A photo (or other proof file) of a submission, stored with the assignment in the shape the agent reads
 * (ResultPhoto). Submissions from before location checks were recorded lack the last two fields.
 */
export interface Photo {
  url: string;
  taken_at: string | null;
  distance_meters?: number | null;
  verification?: PhotoVerification | null;
  /** The answer_schema's photo field this photo answers (product-decisions §17); absent or null for photo_urls. */
  field?: string | null;
}

export interface AssignmentRow {
  id: string;
  task_id: string;
  worker_id: string;
  status: AssignmentStatus;
  slot_settlement: SlotSettlement | null;
  offered_at: Date | null;
  offer_expires_at: Date | null;
  /** When the offer stopped waiting: accepted, declined, lapsed or withdrawn (null before, and for pulled tasks). */
  offer_ended_at: Date | null;
  /** Why the offer went to this worker: the ranking's inputs when it was made (null for pulled tasks). */
  offer_distance_meters: number | null;
  offer_reputation: number | null;
  /** The worker's responsiveness then, 0 to 1 (offer-policy.ts). */
  offer_response: number | null;
  accepted_at: Date | null;
  started_at: Date | null;
  submitted_at: Date | null;
  reviewed_at: Date | null;
  /** Until when a rejection may be disputed (product-decisions §19), on the task's time; null unless rejected. */
  dispute_window_ends_at: Date | null;
  closed_at: Date | null;
  result_data: Record<string, unknown> | null;
  worker_notes: string | null;
  photos: Photo[];
  /** The device fix sent with the submission, if any (product-decisions §11). */
  device_location: DeviceLocation | null;
  rating: number | null;
  quality_score: number | null;
  feedback_text: string | null;
  /** Set when the agent rejected the result: why (product-decisions §10). */
  rejection_reason_code: RejectionReason | null;
  /** `unable`: the submission is a "could not do it" report (product-decisions §19), with its reason. */
  outcome: AssignmentOutcome;
  unable_reason: UnableReason | null;
  /** The submission's risk was high: held from auto-approval until a person decides (product-decisions §18). */
  review_required: boolean;
  /** For the operators: what happened to a held submission without them (approved after 14 days). */
  review_note: string | null;
  /** An operator cleared the hold: auto-approval counts its hours from then (product-decisions §18). */
  hold_cleared_at: Date | null;
  created_at: Date;
}

/** A task_feedback row: one review by the agent, covering the assignments it decided. */
export interface TaskFeedbackRow {
  id: string;
  task_id: string;
  agent_id: string;
  assignment_ids: string[];
  accept_result: boolean;
  rating: number | null;
  quality_score: number | null;
  feedback_text: string | null;
  reason_code: RejectionReason | null;
  created_at: Date;
}

/** A task as statistics and exports list it. */
export type TaskSummary = Pick<
  TaskRow,
  | 'id'
  | 'title'
  | 'status'
  | 'budget_cents'
  | 'max_workers'
  | 'total_cents'
  | 'created_at'
  | 'deadline_at'
  | 'completed_at'
>;

type Runner = Pick<EntityManager, 'query'>;

export function mapTask(r: Record<string, unknown>): TaskRow {
  return {
    ...(r as unknown as TaskRow),
    budget_cents: Number(r.budget_cents),
    payout_cents: Number(r.payout_cents),
    fee_cents: Number(r.fee_cents),
    total_cents: Number(r.total_cents),
    min_reputation: r.min_reputation === null ? null : Number(r.min_reputation),
  };
}

export function mapAssignment(r: Record<string, unknown>): AssignmentRow {
  return {
    ...(r as unknown as AssignmentRow),
    quality_score: r.quality_score === null ? null : Number(r.quality_score),
    offer_reputation: r.offer_reputation == null ? null : Number(r.offer_reputation),
    offer_response: r.offer_response == null ? null : Number(r.offer_response),
  };
}

/** SQL shared by the task services. Everything takes the caller's EntityManager (its transaction). */
export const TaskRepository = {
  /**
   * Every state change of a task starts here: the row lock serialises accept, start, submit, review, cancel and
   * the sweeps on one task, so slot counts and money are decided on current data.
   */
  async lock(em: Runner, taskId: string): Promise<TaskRow | null> {
    const rows = await sqlRows(em, `SELECT * FROM tasks WHERE id = $1 FOR UPDATE`, [taskId]);
    return rows.length ? mapTask(rows[0]) : null;
  },

  /** The same lock, found through one of the task's assignments (a worker acting on an assignment). */
  async lockByAssignment(em: Runner, assignmentId: string): Promise<TaskRow | null> {
    const rows = await sqlRows(
      em,
      `SELECT t.* FROM tasks t WHERE t.id = (SELECT task_id FROM assignments WHERE id = $1) FOR UPDATE OF t`,
      [assignmentId],
    );
    return rows.length ? mapTask(rows[0]) : null;
  },

  /** For sweeps: a task another runner is already working on is skipped, not waited for. */
  async lockIfFree(em: Runner, taskId: string): Promise<TaskRow | null> {
    const rows = await sqlRows(em, `SELECT * FROM tasks WHERE id = $1 FOR UPDATE SKIP LOCKED`, [taskId]);
    return rows.length ? mapTask(rows[0]) : null;
  },

  async findById(em: Runner, taskId: string): Promise<TaskRow | null> {
    const rows = await sqlRows(em, `SELECT * FROM tasks WHERE id = $1`, [taskId]);
    return rows.length ? mapTask(rows[0]) : null;
  },

  async findOwned(em: Runner, agentId: string, taskId: string): Promise<TaskRow | null> {
    const rows = await sqlRows(em, `SELECT * FROM tasks WHERE id = $1 AND agent_id = $2`, [taskId, agentId]);
    return rows.length ? mapTask(rows[0]) : null;
  },

  /**
   * The check before an agent reads or writes something hanging off its task (messages, disputes): another agent's
   * task answers 404 task_not_found like an unknown id, so ids cannot be probed.
   */
  async requireOwned(em: Runner, agentId: string, taskId: string): Promise<void> {
    const rows = await sqlRows(em, `SELECT id FROM tasks WHERE id = $1 AND agent_id = $2`, [taskId, agentId]);
    if (!rows.length) throw new ApiError('task_not_found', 'No such task.');
  },

  async assignments(em: Runner, taskId: string): Promise<AssignmentRow[]> {
    const rows = await sqlRows(em, `SELECT * FROM assignments WHERE task_id = $1 ORDER BY created_at, id`, [
      taskId,
    ]);
    return rows.map(mapAssignment);
  },

  /**
   * The task's assignments (as `assignments`) and, in the same statement, the worker's live assignments (accepted
   * or in progress) across all tasks: the accept's cap check without a round trip of its own. Call it after the
   * worker row is locked, in a later statement: a statement reads the rows committed when it starts, so only a
   * statement begun after the lock was granted sees the assignments of that worker's concurrent accepts.
   */
  async assignmentsAndLive(
    em: Runner,
    taskId: string,
    workerId: string,
  ): Promise<{ assignments: AssignmentRow[]; live: number }> {
    const rows = await sqlRows<Record<string, unknown> & { worker_live: number }>(
      em,
      `SELECT live.n AS worker_live, a.*
         FROM (SELECT count(*)::int AS n FROM assignments
                WHERE worker_id = $2 AND status IN ('accepted', 'in_progress')) live
         LEFT JOIN assignments a ON a.task_id = $1
        ORDER BY a.created_at, a.id`,
      [taskId, workerId],
    );
    return {
      assignments: rows.filter((r) => r.id !== null).map(({ worker_live: _live, ...r }) => mapAssignment(r)),
      live: rows[0].worker_live,
    };
  },

  async assignment(em: Runner, assignmentId: string): Promise<AssignmentRow | null> {
    const rows = await sqlRows(em, `SELECT * FROM assignments WHERE id = $1`, [assignmentId]);
    return rows.length ? mapAssignment(rows[0]) : null;
  },

  /**
   * Moves one assignment from one of `from` to `to`, setting the given timestamp/value columns. Returns null when
   * the assignment is no longer in an expected state (the caller decides whether that is a 409). The keys of
   * `set` are column names written by task code, never request input; values are bound parameters.
   */
  async moveAssignment(
    em: Runner,
    assignmentId: string,
    from: readonly AssignmentStatus[],
    to: AssignmentStatus,
    now: Date,
    set: Record<string, unknown> = {},
  ): Promise<AssignmentRow | null> {
    const columns = Object.keys(set);
    const assignments = columns.map((c, i) => `${c} = $${i + 5}`);
    const rows = await sqlRows(
      em,
      `UPDATE assignments SET status = $3, updated_at = $4${assignments.length ? ', ' + assignments.join(', ') : ''}
        WHERE id = $1 AND status = ANY($2) RETURNING *`,
      [assignmentId, from, to, now, ...columns.map((c) => set[c])],
    );
    return rows.length ? mapAssignment(rows[0]) : null;
  },

  /**
   * moveAssignment for a move a request or a review asked for: when the assignment has already left `from` (a late
   * or repeated request), 409 invalid_state with the status it is in.
   */
  async moveOrRefuse(
    em: Runner,
    a: AssignmentRow,
    from: readonly AssignmentStatus[],
    to: AssignmentStatus,
    now: Date,
    set: Record<string, unknown> = {},
  ): Promise<AssignmentRow> {
    const moved = await TaskRepository.moveAssignment(em, a.id, from, to, now, set);
    if (!moved) {
      throw new ApiError('invalid_state', `The assignment is ${a.status}; it cannot become ${to}.`, {
        current_status: a.status,
      });
    }
    return moved;
  },

  /**
   * Earlier submissions that included these bytes (by SHA-256), on any task by any worker: how many, the first, and
   * how many of them were by a worker other than `workerId`.
   * Answered by the GIN index on assignments.photos.
   */
  async earlierUses(
    em: Runner,
    sha256: string,
    workerId: string,
  ): Promise<{ count: number; first: Date | null; byOthers: number }> {
    const [row] = await sqlRows<{ count: number; first: Date | null; byOthers: number }>(
      em,
      `SELECT count(*)::int AS count, min(submitted_at) AS first,
              (count(*) FILTER (WHERE worker_id <> $2))::int AS "byOthers" FROM assignments
        WHERE photos @> jsonb_build_array(jsonb_build_object('verification', jsonb_build_object('sha256', $1::text)))`,
      [sha256, workerId],
    );
    return row;
  },

  /** The agent's tasks per status (dashboard counts). */
  async countByStatus(db: Runner, agentId: string): Promise<Map<TaskStatus, number>> {
    const rows = await sqlRows<{ status: TaskStatus; n: number }>(
      db,
      `SELECT status, count(*)::int AS n FROM tasks WHERE agent_id = $1 GROUP BY status`,
      [agentId],
    );
    return new Map(rows.map((r) => [r.status, r.n]));
  },

  /** Tasks the agent created per UTC day in [from, to), keyed YYYY-MM-DD; days without any are absent. */
  async createdByDay(db: Runner, agentId: string, from: Date, to: Date): Promise<Map<string, number>> {
    const rows = await sqlRows<{ day: string; n: number }>(
      db,
      `SELECT to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*)::int AS n
         FROM tasks WHERE agent_id = $1 AND created_at >= $2 AND created_at < $3
        GROUP BY 1`,
      [agentId, from, to],
    );
    return new Map(rows.map((r) => [r.day, r.n]));
  },

  /** The agent's tasks created in [from, to), oldest first (exports). */
  async createdInRange(db: Runner, agentId: string, from: Date, to: Date): Promise<TaskSummary[]> {
    const rows = await sqlRows(
      db,
      `SELECT id, title, status, budget_cents, max_workers, total_cents, created_at, deadline_at, completed_at
         FROM tasks WHERE agent_id = $1 AND created_at >= $2 AND created_at < $3
        ORDER BY created_at, id`,
      [agentId, from, to],
    );
    return rows.map((r) => numericColumns<TaskSummary>(r, ['budget_cents', 'total_cents']));
  },
};
