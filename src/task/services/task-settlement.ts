import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sqlExec } from '../../database/sql';
import { cancellationSplit, shareSplit } from '../../escrow/fees';
import type { UnableSummary } from '../../events/event-data';
import { Ledger } from '../../escrow/services/ledger';
import {
  AssignmentStatus,
  countSlots,
  deriveTaskStatus,
  LIVE_TASK_STATUSES,
  TASK_STATUS_EVENT,
  TaskStatus,
} from '../domain/task-status';
import type { RejectionReason } from '../domain/task-policy';
import { submittedAssignments, submittedWork } from '../task.presenter';
import { AssignmentRow, TaskRepository, TaskRow } from '../task.repository';
import { WorkerReputation } from '../../matching/services/worker-reputation';
import { TaskEvents } from './task-events';
import { higherRisk, type ProofRisk } from '../domain/proof-signals';
import { DISPUTE_WINDOW_HOURS, hoursAfter } from '../domain/dispute-windows';
import { TestClocks } from '../test-clocks';

/** An agent's verdict on one result; the scores are required to accept, the reason only on a rejection. */
export interface Review {
  rating: number | null;
  quality_score: number | null;
  feedback_text: string | null;
  reason_code: RejectionReason | null;
}

export interface TaskChanges {
  /** Stop taking workers: open slots, and any slot freed later, are refunded. */
  closeIntake?: boolean;
  cancel?: boolean;
  deadlineProcessed?: boolean;
  /** A worker submitted in this transaction: the agent hears of it (task.submitted) even if the status stays. */
  submitted?: boolean;
}

export interface TaskReconciliation {
  status: TaskStatus;
  previousStatus: TaskStatus;
  refundedOpenSlots: number;
}

/**
 * The money side of assignment transitions and the recomputation of task status. Callers hold the task row lock
 * (TaskRepository.lock) and pass the task they locked; everything here runs in their transaction.
 *
 * An assignment's slot money leaves escrow once (release, refund or cancellation split, whichever happened: one
 * journal reference per assignment), and the n-th slot closed without a holder is refunded under its own reference,
 * with n counted by tasks.closed_slots under the same lock. The ledger refuses a reference that is taken
 * (DuplicateJournalError), so a transition that ran twice aborts the transaction instead of moving money again.
 */
@Injectable()
export class TaskSettlement {
  constructor(
    private readonly ledger: Ledger,
    private readonly events: TaskEvents,
    private readonly reputation: WorkerReputation,
  ) {}

  async approve(em: EntityManager, task: TaskRow, a: AssignmentRow, now: Date, review: Review | null) {
    const moved = await TaskRepository.moveOrRefuse(em, a, ['submitted'], 'approved', now, {
      slot_settlement: 'released',
      reviewed_at: now,
      closed_at: now,
      ...reviewColumns(review),
    });
    let paid = task.payout_cents;
    if (a.outcome === 'unable') {
      // "Could not do it" accepted (product-decisions §19): the task's share of the slot, not the whole payout.
      const split = unableSplit(task);
      paid = split.workerCents;
      await this.ledger.releaseUnableSlot(em, {
        ...slotOf(task, a),
        budgetCents: task.budget_cents,
        ...split,
      });
    } else {
      await this.ledger.releaseSlot(em, {
        ...slotOf(task, a),
        payoutCents: task.payout_cents,
        feeCents: task.fee_cents,
      });
    }
    await this.events.assignment(em, 'assignment.approved', moved, now, { payment_cents: paid });
    await this.reputation.recompute(em, a.worker_id, now);
    return moved;
  }

  /** A rejected result, or held work that expired at the deadline: the slot's budget goes back to the agent. */
  async refund(
    em: EntityManager,
    task: TaskRow,
    a: AssignmentRow,
    now: Date,
    to: 'rejected' | 'expired',
    review: Review | null = null,
  ) {
    const from: AssignmentStatus[] = to === 'rejected' ? ['submitted'] : ['accepted', 'in_progress'];
    // A rejection may be disputed for 72 hours on the task's time (product-decisions §19): a sandbox test clock's
    // for a task on one, although the review itself happens at real time.
    const taskNow = task.test_clock_id ? ((await TestClocks.timeOfTask(em, task.id)) ?? now) : now;
    const moved = await TaskRepository.moveOrRefuse(em, a, from, to, now, {
      slot_settlement: 'refunded',
      closed_at: now,
      ...(to === 'rejected'
        ? {
            reviewed_at: now,
            dispute_window_ends_at: hoursAfter(taskNow, DISPUTE_WINDOW_HOURS),
            ...reviewColumns(review),
          }
        : {}),
    });
    await this.ledger.refundSlot(em, { ...slotOf(task, a), amountCents: task.budget_cents, cause: to });
    if (to === 'rejected') {
      // The worker learns why at once (the same reason their task list shows).
      await this.events.assignment(em, 'assignment.rejected', moved, now, {
        reason_code: review?.reason_code ?? null,
        feedback_text: review?.feedback_text ?? null,
      });
    } else {
      await this.events.assignment(em, 'assignment.expired', moved, now);
    }
    await this.reputation.recompute(em, a.worker_id, now);
    return moved;
  }

  /** Cancelling a task an accepted worker holds: 70 % back to the agent, 30 % to the worker, no fee. */
  async compensate(em: EntityManager, task: TaskRow, a: AssignmentRow, now: Date) {
    const moved = await TaskRepository.moveOrRefuse(em, a, ['accepted'], 'cancelled', now, {
      slot_settlement: 'compensated',
      closed_at: now,
    });
    const split = cancellationSplit(task.budget_cents);
    await this.ledger.compensateCancellation(em, {
      ...slotOf(task, a),
      agentRefundCents: split.agentRefundCents,
      workerCents: split.workerCents,
    });
    await this.events.assignment(em, 'assignment.cancelled', moved, now, {
      compensation_cents: split.workerCents,
    });
    return split;
  }

  /**
   * An operator cancelled the task on a worker's report (product-decisions §19, docs/decisions.md): work taken, under
   * way or submitted ends `cancelled` and the whole slot goes back to the agent. The worker is paid nothing, but it
   * is not held against them (no reputation change) and they hear `assignment.cancelled`.
   */
  async refundCancelled(em: EntityManager, task: TaskRow, a: AssignmentRow, now: Date) {
    const moved = await TaskRepository.moveOrRefuse(
      em,
      a,
      ['accepted', 'in_progress', 'submitted'],
      'cancelled',
      now,
      {
        slot_settlement: 'refunded',
        closed_at: now,
      },
    );
    await this.ledger.refundSlot(em, {
      ...slotOf(task, a),
      amountCents: task.budget_cents,
      cause: 'cancelled',
    });
    await this.events.assignment(em, 'assignment.cancelled', moved, now);
    return moved;
  }

  /**
   * Brings the task row in line with its assignments after a transition (creation, accept, a worker's action, a
   * review, cancellation, a timer): applies task-level changes, refunds open slots once the task takes no more
   * workers, and stores the derived status and open slots, with the status event when the status changed. Call it
   * last in every transition, with the task as locked. A caller
   * that holds the task's assignments as they now are (read under this lock, plus its own change) may pass them
   * to save reading them again.
   */
  async reconcileTask(
    em: EntityManager,
    task: TaskRow,
    now: Date,
    changes: TaskChanges = {},
    current?: AssignmentRow[],
  ): Promise<TaskReconciliation> {
    const cancelledAt = task.cancelled_at ?? (changes.cancel ? now : null);
    const intakeClosedAt = task.intake_closed_at ?? (changes.closeIntake || changes.cancel ? now : null);
    const assignments = current ?? (await TaskRepository.assignments(em, task.id));
    const slots = countSlots(task.max_workers, task.closed_slots, assignments.map(toSlot));
    let closedSlots = task.closed_slots;
    if (intakeClosedAt && slots.open > 0) {
      for (let n = closedSlots + 1; n <= closedSlots + slots.open; n++) {
        await this.ledger.refundOpenSlot(em, {
          agentId: task.agent_id,
          taskId: task.id,
          slotNumber: n,
          amountCents: task.budget_cents,
        });
      }
      closedSlots += slots.open;
    }
    const status = deriveTaskStatus({
      cancelled: cancelledAt !== null,
      maxWorkers: task.max_workers,
      closedSlots,
      assignments: assignments.map(toSlot),
    });
    // Open slots as a worker sees them: none once intake closed (they were refunded just above) or once the task
    // left the live statuses.
    // Nor once agreement was reached (product-decisions §17): those slots stay unfilled and are refunded at the
    // deadline.
    const openSlots =
      intakeClosedAt || task.agreement_reached_at || !LIVE_TASK_STATUSES.includes(status) ? 0 : slots.open;
    await sqlExec(
      em,
      `UPDATE tasks SET status = $2, closed_slots = $3, intake_closed_at = $4, cancelled_at = $5,
              deadline_processed_at = COALESCE(deadline_processed_at, $6),
              completed_at = CASE WHEN $2 = 'completed' THEN COALESCE(completed_at, $7) ELSE completed_at END,
              open_slots = $8, updated_at = $7
        WHERE id = $1`,
      [
        task.id,
        status,
        closedSlots,
        intakeClosedAt,
        cancelledAt,
        changes.deadlineProcessed ? now : null,
        now,
        openSlots,
      ],
    );
    const event = TASK_STATUS_EVENT[status];
    const changed = status !== task.status;
    if (changed && event && event !== 'task.submitted') {
      await this.events.task(
        em,
        event,
        task,
        { status, previous_status: task.status, ...(status === 'failed' ? unableOf(task, assignments) : {}) },
        now,
      );
    }
    // task.submitted carries the results awaiting review, so the agent can decide without another request. It is
    // written when the task becomes submitted and on every submission (with several workers the task may stay
    // in_progress while one of them submits), once per transaction.
    if ((changed && status === 'submitted') || changes.submitted) {
      const awaiting = submittedAssignments(assignments).filter((a) => a.status === 'submitted');
      const submissions = awaiting.map(submittedWork);
      await this.events.task(
        em,
        'task.submitted',
        task,
        {
          status,
          previous_status: task.status,
          submissions,
          answer_schema: task.answer_schema,
          risk: submissions.reduce<ProofRisk>((r, w) => higherRisk(r, w.risk), 'low'),
          review_required: submissions.some((w) => w.review_required),
        },
        now,
      );
    }
    return { status, previousStatus: task.status, refundedOpenSlots: closedSlots - task.closed_slots };
  }
}

function toSlot(a: AssignmentRow) {
  return { status: a.status, settlement: a.slot_settlement, outcome: a.outcome };
}

/** The share an accepted "could not do it" report of this task pays (product-decisions §19). */
export function unableSplit(task: TaskRow) {
  const s = shareSplit(task.budget_cents, task.unable_payout_percent, task.fee_bps);
  return { workerCents: s.workerCents, feeCents: s.feeCents, agentRefundCents: s.agentRefundCents };
}

/**
 * What `task.failed` says of accepted "could not do it" reports: the first one's reason, and what they paid the
 * workers in all (nothing when the task had none).
 */
function unableOf(task: TaskRow, assignments: AssignmentRow[]): { unable?: UnableSummary } {
  const reports = assignments.filter((a) => a.status === 'approved' && a.outcome === 'unable');
  if (reports.length === 0) return {};
  return {
    unable: { reason: reports[0].unable_reason!, paid_cents: reports.length * unableSplit(task).workerCents },
  };
}

function reviewColumns(review: Review | null): Record<string, unknown> {
  if (!review) return {};
  return {
    rating: review.rating,
    quality_score: review.quality_score,
    feedback_text: review.feedback_text,
    rejection_reason_code: review.reason_code,
  };
}

function slotOf(task: TaskRow, a: AssignmentRow) {
  return { agentId: task.agent_id, taskId: task.id, assignmentId: a.id, workerId: a.worker_id };
}
