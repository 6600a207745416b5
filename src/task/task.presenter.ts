import { countSlots } from './domain/task-status';
import { withRisk } from './domain/location-proof';
import { holdDeadline, submissionRisk } from './domain/proof-hold';
import type { ResultPhoto, SubmittedWork } from '../events/event-data';
import type {
  CostBreakdown,
  SubmissionView,
  TaskAssignmentView,
  TaskListItem,
  TaskLocationView,
  TaskResponse,
  TaskResult,
  TaskStatusResponse,
} from './dtos/task-response.dto';
import type { AssignmentRow, Photo, TaskRow } from './task.repository';
import { shownWorker, type WorkerPseudonyms } from './domain/worker-pseudonym';
import type { AvailableTaskItem } from './dtos/worker-task.dto';
import type { NearbyTaskRow } from '../matching/nearby-tasks.query';
import { agentRatingView } from '../matching/services/agent-ratings.service';
import { agentRecordView } from '../matching/agent-record';
import type { AgentRecordView } from '../matching/dtos/agent-record.dto';

/** Row-to-response mapping, so both surfaces and every service answer with identical shapes. */
export function costBreakdown(t: TaskRow): CostBreakdown {
  return {
    worker_payout_cents: t.payout_cents * t.max_workers,
    platform_fee_cents: t.fee_cents * t.max_workers,
    total_cents: t.total_cents,
  };
}

/** The creation answer. Status is `pending`, as at creation, so a replay returns the original response. */
export function taskCreatedResponse(t: TaskRow): TaskResponse {
  return {
    task_id: t.id,
    status: 'pending',
    estimated_completion_at: t.estimated_completion_at.toISOString(),
    cost_breakdown: costBreakdown(t),
    created_at: t.created_at.toISOString(),
  };
}

export function locationView(
  t: Pick<TaskRow, 'latitude' | 'longitude' | 'address' | 'max_distance_meters'>,
): TaskLocationView {
  return {
    latitude: t.latitude,
    longitude: t.longitude,
    address: t.address,
    max_distance_meters: t.max_distance_meters,
  };
}

/**
 * A task as the worker sees it in the available list (and in an offer): the listing's row, without its count, and
 * its agent's record (looked up once for the page).
 */
export function availableTaskItem(
  t: Omit<NearbyTaskRow, 'total' | 'total_is_estimate'>,
  records: ReadonlyMap<string, AgentRecordView>,
): AvailableTaskItem {
  return {
    task_id: t.id,
    title: t.title,
    description: t.description,
    task_type: t.task_type,
    payment_cents: Number(t.payout_cents),
    distance_meters: t.distance === null ? null : Math.round(Number(t.distance)),
    deadline_at: t.deadline_at.toISOString(),
    estimated_duration_minutes: null,
    required_skills: t.required_skills,
    location: locationView(t),
    open_slots: t.open_slots,
    location_proof: t.location_proof,
    answer_schema: t.answer_schema,
    agent_rating: agentRatingView(t.agent_rating_count, t.agent_rating_sum),
    agent_record: records.get(t.agent_id) ?? agentRecordView(0, 0, 0),
  };
}

const HOLDING = new Set(['accepted', 'in_progress', 'submitted', 'approved']);

export function taskStatusResponse(
  t: TaskRow,
  assignments: AssignmentRow[],
  reputations: Map<string, number>,
  pseudonyms: WorkerPseudonyms,
): TaskStatusResponse {
  const slots = countSlots(
    t.max_workers,
    t.closed_slots,
    assignments.map((a) => ({ status: a.status, settlement: a.slot_settlement, outcome: a.outcome })),
  );
  return {
    task_id: t.id,
    status: t.status,
    title: t.title,
    description: t.description,
    task_type: t.task_type,
    location: locationView(t),
    requirements: {
      skills: t.required_skills,
      min_reputation: t.min_reputation,
      location_proof: t.location_proof,
    },
    budget_cents: t.budget_cents,
    max_workers: t.max_workers,
    cost_breakdown: costBreakdown(t),
    unable_payout_percent: t.unable_payout_percent,
    metadata: t.metadata,
    answer_schema: t.answer_schema,
    review_policy: t.review_policy,
    agreement_reached_at: iso(t.agreement_reached_at),
    progress: {
      assigned_workers: assignments.filter((a) => HOLDING.has(a.status)).length,
      completed_workers: slots.approved,
      open_slots: t.intake_closed_at || t.agreement_reached_at ? 0 : slots.open,
      max_workers: t.max_workers,
      estimated_completion_at: t.estimated_completion_at.toISOString(),
    },
    assignments: assignments.map((a) => assignmentView(a, reputations, pseudonyms)),
    created_at: t.created_at.toISOString(),
    deadline_at: t.deadline_at.toISOString(),
    completed_at: iso(t.completed_at),
    cancelled_at: iso(t.cancelled_at),
  };
}

/** A worker who has not accepted (an offer) is named by a pseudonym until they do (product-decisions §16). */
function assignmentView(
  a: AssignmentRow,
  reputations: Map<string, number>,
  pseudonyms: WorkerPseudonyms,
): TaskAssignmentView {
  return {
    assignment_id: a.id,
    ...shownWorker(a, reputations.get(a.worker_id) ?? 0, pseudonyms),
    assigned_at: (a.accepted_at ?? a.offered_at ?? a.created_at).toISOString(),
    status: a.status,
    submitted_at: iso(a.submitted_at),
    reviewed_at: iso(a.reviewed_at),
    reason_code: a.rejection_reason_code,
    submission: a.submitted_at ? taskResult(a) : null,
  };
}

/** What a worker submitted (only meaningful once submitted_at is set). */
export function taskResult(a: AssignmentRow): TaskResult {
  // Submissions from before location checks were recorded lack the last two fields.
  const photos = a.photos.map(resultPhoto);
  const held = a.review_required && a.status === 'submitted' && a.submitted_at !== null;
  return {
    data: a.result_data ?? {},
    photos,
    worker_notes: a.worker_notes,
    device_location: a.device_location,
    ...(a.outcome === 'unable' ? { unable_reason: a.unable_reason! } : {}),
    risk: submissionRisk(photos),
    review_required: a.review_required,
    review_deadline_at: held ? holdDeadline(a.submitted_at!).toISOString() : null,
  };
}

/** A stored photo as the agent and the worker read it (older submissions lack the later fields). */
export function resultPhoto(p: Photo): ResultPhoto {
  return {
    url: p.url,
    taken_at: p.taken_at,
    distance_meters: p.distance_meters ?? null,
    field: p.field ?? null,
    verification: p.verification ? withRisk(p.verification) : null,
  };
}

/** A submitted result as `task.submitted` carries it. */
export function submittedWork(a: AssignmentRow): SubmittedWork {
  return {
    assignment_id: a.id,
    worker_id: a.worker_id,
    status: a.status,
    submitted_at: a.submitted_at!.toISOString(),
    ...taskResult(a),
  };
}

/** A submitted result with the verdict on it, as the result endpoint lists it. */
export function submissionView(a: AssignmentRow): SubmissionView {
  return { ...submittedWork(a), reviewed_at: iso(a.reviewed_at), reason_code: a.rejection_reason_code };
}

/** Assignments whose worker submitted a result (awaiting review, approved or rejected), oldest submission first. */
export function submittedAssignments(assignments: AssignmentRow[]): AssignmentRow[] {
  return assignments
    .filter((a) => a.submitted_at !== null && REVIEWABLE.has(a.status))
    .sort((x, y) => x.submitted_at!.getTime() - y.submitted_at!.getTime() || x.id.localeCompare(y.id));
}

const REVIEWABLE = new Set(['submitted', 'approved', 'rejected']);

export function taskListItem(t: TaskRow): TaskListItem {
  return {
    task_id: t.id,
    title: t.title,
    status: t.status,
    budget_cents: t.budget_cents,
    max_workers: t.max_workers,
    task_type: t.task_type,
    created_at: t.created_at.toISOString(),
    deadline_at: t.deadline_at.toISOString(),
  };
}

export function iso(d: Date | null): string | null {
  return d ? d.toISOString() : null;
}
