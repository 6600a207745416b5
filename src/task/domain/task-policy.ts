import { ApiError } from '../../common/errors/api-error';

/**
 * Numbers the task rules depend on, in one place (each is recorded in docs/decisions.md).
 */
export const TASK_TYPES = ['photo', 'verification', 'data_collection', 'delivery', 'other'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const BUDGET_MIN_CENTS = 1000;
/** Per slot; the same ceiling as one payment (5,000,000 cents), so one slot can always be funded by one payment. */
export const BUDGET_MAX_CENTS = 5_000_000;
export const MAX_WORKERS_LIMIT = 10;
export const METADATA_MAX_BYTES = 1024;
export const RESULT_DATA_MAX_BYTES = 16 * 1024;
/** A deadline further out than this is almost certainly a unit mistake (ms vs s) and would lock escrow for years. */
export const DEADLINE_MAX_DAYS = 365;
export const DEFAULT_MAX_DISTANCE_METERS = 1000;
/** A photo proves presence when its EXIF GPS position is at most this far from the task (spec: 100 m). */
export const PHOTO_MAX_DISTANCE_METERS = 100;

/**
 * Typical time from posting to an approved result, by type, including the time to find a worker. The estimate is
 * created_at + this, but never later than the deadline (the deadline is the agent's hard limit).
 */
export const TYPICAL_COMPLETION_MINUTES: Record<TaskType, number> = {
  photo: 120,
  verification: 180,
  data_collection: 240,
  delivery: 180,
  other: 240,
};

export function estimateCompletion(createdAt: Date, deadlineAt: Date, type: TaskType): Date {
  const typical = createdAt.getTime() + TYPICAL_COMPLETION_MINUTES[type] * 60_000;
  return new Date(Math.min(typical, deadlineAt.getTime()));
}

/** The deadline rules the DTO cannot express (they depend on now); creation and the quote apply the same ones. */
export function checkDeadline(value: string, now: Date): Date {
  const deadline = new Date(value);
  if (Number.isNaN(deadline.getTime())) throw ApiError.field('deadline_at', 'is not a valid date-time');
  if (deadline.getTime() <= now.getTime()) throw ApiError.field('deadline_at', 'must be in the future');
  if (deadline.getTime() > now.getTime() + DEADLINE_MAX_DAYS * 86_400_000) {
    throw ApiError.field('deadline_at', `must be at most ${DEADLINE_MAX_DAYS} days ahead`);
  }
  return deadline;
}

/** Why an agent rejects a result (product-decisions §10): the worker reads it with the assignment. */
export const REJECTION_REASONS = [
  'wrong_location',
  'poor_quality',
  'incomplete',
  'not_as_described',
  'other',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** "Could not do it" (product-decisions §19): why a worker reports it, in the words the agent reads. */
export const UNABLE_REASONS = ['closed', 'not_found', 'no_access', 'unsafe', 'other'] as const;
export type UnableReason = (typeof UNABLE_REASONS)[number];
/** The share of a slot's budget an accepted unable report pays, in percent, unless the task says otherwise. */
export const DEFAULT_UNABLE_PAYOUT_PERCENT = 20;
export const MAX_UNABLE_PAYOUT_PERCENT = 50;
/** An assignment's submission is a result (`done`) or a "could not do it" report (`unable`). */
export type AssignmentOutcome = 'done' | 'unable';
