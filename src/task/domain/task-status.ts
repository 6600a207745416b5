import type { TaskEventName } from '../../events/event-catalog';

/**
 * Task status and slot accounting (product-decisions §4), as pure functions so the rules can be read and tested in one
 * place. The stored task status is always the output of deriveTaskStatus over the task's assignments, recomputed in
 * the transaction that changes them.
 */
export const TASK_STATUSES = [
  'pending',
  'assigned',
  'in_progress',
  'submitted',
  'completed',
  'failed',
  'cancelled',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const ASSIGNMENT_STATUSES = [
  'pending',
  'accepted',
  'in_progress',
  'submitted',
  'approved',
  'rejected',
  'declined',
  'expired',
  'abandoned',
  'cancelled',
] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/** How an assignment's slot money left escrow, when it left through that assignment. */
export type SlotSettlement = 'released' | 'refunded' | 'compensated';

/** Statuses that hold a slot whose money is still in escrow and whose outcome is still open. */
export const LIVE_ASSIGNMENT_STATUSES: readonly AssignmentStatus[] = [
  'pending',
  'accepted',
  'in_progress',
  'submitted',
];
export const LIVE_TASK_STATUSES: readonly TaskStatus[] = ['pending', 'assigned', 'in_progress', 'submitted'];
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

export interface AssignmentSlot {
  status: AssignmentStatus;
  settlement: SlotSettlement | null;
  /** `unable`: an accepted "could not do it" report, which settles its slot but is no approval (§19). */
  outcome?: 'done' | 'unable';
}

export interface SlotCounts {
  /** Held by a pending, accepted, in-progress or submitted assignment. */
  live: number;
  /** Settled through an assignment (released, refunded or compensated). */
  settled: number;
  /** Closed while nobody held them (refunded). */
  closed: number;
  /** Free for a worker to take. */
  open: number;
  /** Approved results; an approved "could not do it" report is not one (product-decisions §19). */
  approved: number;
}

export function isLive(status: AssignmentStatus): boolean {
  return LIVE_ASSIGNMENT_STATUSES.includes(status);
}

/**
 * Every slot is exactly one of live, settled, closed or open. An assignment that ended without settling money
 * (declined, abandoned, an expired offer, a cancelled offer) gave its slot back, so it counts as open again.
 */
export function countSlots(
  maxWorkers: number,
  closedSlots: number,
  assignments: AssignmentSlot[],
): SlotCounts {
  const live = assignments.filter((a) => isLive(a.status)).length;
  const settled = assignments.filter((a) => a.settlement !== null).length;
  const open = maxWorkers - live - settled - closedSlots;
  if (open < 0) {
    throw new Error(
      `slot accounting broken: ${maxWorkers} slots < ${live} live + ${settled} settled + ${closedSlots} closed`,
    );
  }
  const approved = assignments.filter((a) => a.status === 'approved' && a.outcome !== 'unable').length;
  return { live, settled, closed: closedSlots, open, approved };
}

export interface TaskStatusInput {
  cancelled: boolean;
  maxWorkers: number;
  closedSlots: number;
  assignments: AssignmentSlot[];
}

/** The first matching rule of product-decisions §4 wins. */
export function deriveTaskStatus(input: TaskStatusInput): TaskStatus {
  if (input.cancelled) return 'cancelled';
  const slots = countSlots(input.maxWorkers, input.closedSlots, input.assignments);
  const has = (s: AssignmentStatus) => input.assignments.some((a) => a.status === s);
  if (slots.open === 0 && slots.live === 0) return slots.approved > 0 ? 'completed' : 'failed';
  if (has('submitted') && !has('accepted') && !has('in_progress')) return 'submitted';
  if (has('in_progress')) return 'in_progress';
  if (has('accepted')) return 'assigned';
  return 'pending';
}

/** Task events named by the status the task enters (product-decisions §4); `pending` has none. */
export const TASK_STATUS_EVENT: Partial<Record<TaskStatus, TaskEventName>> = {
  assigned: 'task.assigned',
  in_progress: 'task.started',
  submitted: 'task.submitted',
  completed: 'task.completed',
  failed: 'task.failed',
  cancelled: 'task.cancelled',
};
