import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { WORKER_PSEUDONYM_PATTERN } from '../domain/worker-pseudonym';
import { ASSIGNMENT_STATUSES, TASK_STATUSES } from '../domain/task-status';
import { DeviceLocation, ResultPhoto, SubmissionReview } from '../../events/event-data';
import { LOCATION_PROOFS } from '../domain/location-proof';
import { REJECTION_REASONS, TASK_TYPES, UNABLE_REASONS, type UnableReason } from '../domain/task-policy';
import { NextCursor } from '../../common/http/cursor-page';
import { AnswerSchema, ReviewPolicy } from './answer-schema.dto';

export class CostBreakdown {
  @ApiProperty({
    type: 'integer',
    example: 4500,
    description: 'What the workers receive in total (per-slot payout × max_workers).',
  })
  worker_payout_cents: number;

  @ApiProperty({ type: 'integer', example: 500 })
  platform_fee_cents: number;

  @ApiProperty({
    type: 'integer',
    example: 5000,
    description: 'worker_payout_cents + platform_fee_cents = budget_cents × max_workers',
  })
  total_cents: number;
}

/** 201 answer to task creation (and to any repeat of it with the same idempotency key). */
export class TaskResponse {
  @ApiProperty({ format: 'uuid' })
  task_id: string;

  @ApiProperty({ enum: TASK_STATUSES, example: 'pending' })
  status: string;

  @ApiProperty({
    format: 'date-time',
    description:
      'created_at + the typical time for the task type (photo 2 h, delivery and verification 3 h, data collection and other 4 h), never later than deadline_at.',
  })
  estimated_completion_at: string;

  @ApiProperty({ type: CostBreakdown })
  cost_breakdown: CostBreakdown;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class TaskProgress {
  @ApiProperty({
    type: 'integer',
    description: 'Workers holding the task now or approved: accepted, in progress, submitted, approved.',
  })
  assigned_workers: number;

  @ApiProperty({ type: 'integer', description: 'Approved results.' })
  completed_workers: number;

  @ApiProperty({ type: 'integer', description: 'Slots a worker can still take.' })
  open_slots: number;

  @ApiProperty({ type: 'integer' })
  max_workers: number;

  @ApiProperty({ format: 'date-time' })
  estimated_completion_at: string;
}

class TaskResultFields {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The answers: following the task’s answer_schema when it has one (typed), else free-form JSON.',
  })
  data: Record<string, unknown>;
  @ApiProperty({ type: [ResultPhoto] }) photos: ResultPhoto[];
  @ApiProperty({ type: String, nullable: true }) worker_notes: string | null;
  @ApiProperty({
    type: DeviceLocation,
    nullable: true,
    description: 'The device location the worker sent with the submission, if any.',
  })
  device_location: DeviceLocation | null;
  @ApiPropertyOptional({
    enum: UNABLE_REASONS,
    description:
      'Present when this is a "could not do it" report (product-decisions §19) instead of a result: why (worker_notes ' +
      'says what happened, photos show it). Accepting it pays the task’s unable_payout_percent, not the whole payout.',
  })
  unable_reason?: UnableReason;
}

/** What a worker submitted, with the review fields every submission carries. */
export class TaskResult extends IntersectionType(TaskResultFields, SubmissionReview) {}

export class TaskAssignmentView {
  @ApiProperty({ format: 'uuid' })
  assignment_id: string;

  @ApiProperty({
    pattern: `^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|${WORKER_PSEUDONYM_PATTERN.slice(1, -1)})$`,
    example: '9b2f6c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b',
    description:
      "The worker's id (a uuid) once they have accepted the slot. Before that (an offer waiting for the worker's answer, or one declined, lapsed or withdrawn) a pseudonym, `anon_` and 16 hex characters: the same for that worker throughout this task, unrelated to their name in any other task, and leading back to no one, so an offer never tells you who is near.",
  })
  worker_id: string;

  @ApiProperty({
    example: 4.0,
    description:
      "The worker's reputation, 0 to 5; while worker_id is a pseudonym, cut to one decimal (the precision of min_reputation).",
  })
  worker_reputation: number;

  @ApiProperty({ format: 'date-time', description: 'When the worker took the slot (or was offered it).' })
  assigned_at: string;

  @ApiProperty({ enum: ASSIGNMENT_STATUSES })
  status: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  submitted_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it was approved or rejected.',
  })
  reviewed_at: string | null;

  @ApiProperty({
    type: String,
    enum: REJECTION_REASONS,
    nullable: true,
    description: 'Why you rejected it (rejected assignments only).',
  })
  reason_code: string | null;

  @ApiProperty({
    type: TaskResult,
    nullable: true,
    description: 'What the worker submitted (data, notes, photos); null until they submit.',
  })
  submission: TaskResult | null;
}

export class TaskLocationView {
  @ApiProperty() latitude: number;
  @ApiProperty() longitude: number;
  @ApiProperty({ type: String, nullable: true }) address: string | null;
  @ApiProperty({ type: 'integer' }) max_distance_meters: number;
}

export class TaskRequirementsView {
  @ApiProperty({ type: [String] }) skills: string[];
  @ApiProperty({ type: Number, nullable: true }) min_reputation: number | null;
  @ApiProperty({ enum: LOCATION_PROOFS }) location_proof: string;
}

/** Task detail: the spec's fields plus what an agent needs to read the task back. */
export class TaskStatusResponse {
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ enum: TASK_STATUSES }) status: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: TASK_TYPES }) task_type: string;
  @ApiProperty({ type: TaskLocationView }) location: TaskLocationView;
  @ApiProperty({ type: TaskRequirementsView }) requirements: TaskRequirementsView;
  @ApiProperty({ type: 'integer' }) budget_cents: number;
  @ApiProperty({ type: 'integer' }) max_workers: number;
  @ApiProperty({ type: CostBreakdown }) cost_breakdown: CostBreakdown;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 50,
    example: 20,
    description: 'The share of a slot’s budget, in percent, an accepted "could not do it" report pays.',
  })
  unable_payout_percent: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata: Record<string, unknown>;
  @ApiProperty({
    type: () => AnswerSchema,
    nullable: true,
    description: 'What the worker must answer (product-decisions §17); null: free-form result_data.',
  })
  answer_schema: Record<string, unknown> | null;
  @ApiProperty({
    type: () => ReviewPolicy,
    nullable: true,
    description: 'Agreement review, if the task has it.',
  })
  review_policy: ReviewPolicy | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When min_agreeing submissions first agreed (agreement review); null before, or without a policy.',
  })
  agreement_reached_at: string | null;
  @ApiProperty({ type: TaskProgress }) progress: TaskProgress;
  @ApiProperty({ type: [TaskAssignmentView] }) assignments: TaskAssignmentView[];
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) deadline_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) cancelled_at: string | null;
}

export class ApprovedResult extends TaskResult {
  @ApiProperty({ format: 'uuid' }) assignment_id: string;
  @ApiProperty({ format: 'uuid' }) worker_id: string;
  @ApiProperty({ format: 'date-time' }) submitted_at: string;
  @ApiProperty({ format: 'date-time' }) approved_at: string;
  @ApiProperty({ type: Number, nullable: true, description: 'null when approved automatically' })
  quality_score: number | null;
}

/** A submitted, approved or rejected result, for review. */
export class SubmissionView extends TaskResult {
  @ApiProperty({ format: 'uuid' }) assignment_id: string;
  @ApiProperty({ format: 'uuid' }) worker_id: string;
  @ApiProperty({ enum: ['submitted', 'approved', 'rejected'] }) status: string;
  @ApiProperty({ format: 'date-time' }) submitted_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) reviewed_at: string | null;
  @ApiProperty({ type: String, enum: REJECTION_REASONS, nullable: true }) reason_code: string | null;
}

/**
 * Available as soon as a worker has submitted (product-decisions §10), so the agent reviews before deciding. `result` is the
 * first approved result, else the first one awaiting review (null when every submission was rejected);
 * `completed_at` and `quality_score` belong to the first approved result; `results` lists every approved result,
 * oldest approval first; `submissions` every submitted, approved or rejected one, oldest submission first.
 */
export class TaskResultResponse {
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ enum: TASK_STATUSES }) status: string;
  @ApiProperty({
    type: TaskResult,
    nullable: true,
    description: 'The first approved result, else the first awaiting review; null if all were rejected.',
  })
  result: TaskResult | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When the task completed, else when its first result was approved; null before any approval.',
  })
  completed_at: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Of the first approved result.' })
  quality_score: number | null;
  @ApiProperty({ type: [ApprovedResult] }) results: ApprovedResult[];
  @ApiProperty({ type: [SubmissionView] }) submissions: SubmissionView[];
  @ApiProperty({
    type: () => AnswerSchema,
    nullable: true,
    description: 'The schema every `data` here follows (product-decisions §17); null when the task has none.',
  })
  answer_schema: Record<string, unknown> | null;
}

export class TaskListItem {
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty() title: string;
  @ApiProperty({ enum: TASK_STATUSES }) status: string;
  @ApiProperty({ type: 'integer' }) budget_cents: number;
  @ApiProperty({ type: 'integer' }) max_workers: number;
  @ApiProperty({ enum: TASK_TYPES }) task_type: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) deadline_at: string;
}

export class TaskListPage {
  @ApiProperty({ type: [TaskListItem] }) data: TaskListItem[];
  @ApiProperty() has_more: boolean;
  @NextCursor()
  next_cursor: string | null;
}

export class CancelTaskResponse {
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ enum: ['cancelled'] }) status: string;
  @ApiProperty({ type: 'integer', description: 'Returned to the agent’s balance by this cancellation.' })
  refund_cents: number;
  @ApiProperty({
    type: 'integer',
    description: 'Paid to workers who had accepted (30 % of each accepted slot).',
  })
  worker_compensation_cents: number;
}

export class FeedbackResponse {
  @ApiProperty({ format: 'uuid' }) feedback_id: string;
  @ApiProperty({ format: 'date-time' }) recorded_at: string;
  @ApiPropertyOptional({ enum: TASK_STATUSES, description: 'The task status after the verdict.' })
  status: string;
  @ApiProperty({ type: [String], description: 'The assignments the verdict applied to.' })
  assignment_ids: string[];
}
