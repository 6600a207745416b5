import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AgentActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import type { HeldClaims } from '../../idempotency/idempotency-context';
import { idempotentTransaction } from '../../idempotency/idempotent-transaction';
import type { TaskFeedbackRequest } from '../dtos/task-requests.dto';
import type { CancelTaskResponse, FeedbackResponse } from '../dtos/task-response.dto';
import { AssignmentRow, TaskFeedbackRow, TaskRepository, TaskRow } from '../task.repository';
import { ProofReviewService } from './proof-review.service';
import { TaskEvents } from './task-events';
import { taskNotFound } from './task-query.service';
import { Review, TaskSettlement } from './task-settlement';
import { countOffer } from '../../observability/metrics';

/**
 * The agent's decisions on a task: the verdict on submitted results and cancellation. Each moves money, so each
 * runs in one idempotentTransaction (its answer commits with the effect under the request's Idempotency-Key) that
 * first locks the task row, so a verdict, a cancellation and the sweeps on the same task happen one after another.
 */
@Injectable()
export class TaskReviewService {
  constructor(
    private readonly ds: DataSource,
    private readonly settlement: TaskSettlement,
    private readonly events: TaskEvents,
    private readonly clock: Clock,
  ) {}

  /**
   * Accepting pays each approved slot (payout to the worker, fee to the platform) and stops the task taking
   * workers (open slots are refunded); rejecting refunds the slot, which is not reopened.
   */
  async feedback(
    actor: AgentActor,
    taskId: string,
    dto: TaskFeedbackRequest,
    claims: HeldClaims,
  ): Promise<FeedbackResponse> {
    return idempotentTransaction(this.ds, claims, async (em) => {
      const task = await this.lockOwned(em, actor, taskId);
      const now = this.clock.now();
      const targets = pickTargets(task, await TaskRepository.assignments(em, task.id), dto.assignment_id);
      const review: Review = {
        rating: dto.rating ?? null,
        quality_score: dto.quality_score ?? null,
        feedback_text: dto.feedback_text ?? null,
        // A rejection without a reason (the interface spec's shape has none) is filed under `other`.
        reason_code: dto.accept_result ? null : (dto.reason_code ?? 'other'),
      };
      for (const a of targets) {
        if (dto.accept_result) await this.settlement.approve(em, task, a, now, review);
        else await this.settlement.refund(em, task, a, now, 'rejected', review);
        // The agent's verdict on a held result ends its review (product-decisions §18).
        await ProofReviewService.recordAgentVerdict(em, a, dto.accept_result, now);
      }
      const outcome = await this.settlement.reconcileTask(em, task, now, { closeIntake: dto.accept_result });
      const ids = targets.map((a) => a.id);
      const [row] = await sqlRows<Pick<TaskFeedbackRow, 'id'>>(
        em,
        `INSERT INTO task_feedback (task_id, agent_id, assignment_ids, accept_result, rating, quality_score,
                                    feedback_text, reason_code, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          task.id,
          actor.id,
          ids,
          dto.accept_result,
          review.rating,
          review.quality_score,
          review.feedback_text,
          review.reason_code,
          now,
        ],
      );
      const response: FeedbackResponse = {
        feedback_id: row.id,
        recorded_at: now.toISOString(),
        status: outcome.status,
        assignment_ids: ids,
      };
      return response;
    });
  }

  /**
   * Only while pending or assigned, and not while a result awaits review (the worker delivered; the agent reviews
   * it first). Open slots refund 100 %, accepted slots 70/30 (agent/worker), pending offers are withdrawn (their
   * slots refund 100 %); slots already approved or rejected stay as they were.
   */
  async cancel(actor: AgentActor, taskId: string, claims: HeldClaims): Promise<CancelTaskResponse> {
    return idempotentTransaction(this.ds, claims, async (em) => {
      const task = await this.lockOwned(em, actor, taskId);
      const now = this.clock.now();
      const assignments = await TaskRepository.assignments(em, task.id);
      const awaitingReview = assignments.some((a) => a.status === 'submitted');
      if ((task.status !== 'pending' && task.status !== 'assigned') || awaitingReview) {
        throw new ApiError(
          'invalid_state',
          awaitingReview
            ? 'A submitted result awaits your review; accept or reject it before cancelling.'
            : `A ${task.status} task cannot be cancelled (only pending or assigned tasks can).`,
          { current_status: task.status },
        );
      }
      let refund = 0;
      let compensation = 0;
      for (const a of assignments) {
        if (a.status === 'accepted') {
          const split = await this.settlement.compensate(em, task, a, now);
          refund += split.agentRefundCents;
          compensation += split.workerCents;
        } else if (a.status === 'pending') {
          await this.withdrawOffer(em, a, now);
        }
      }
      const outcome = await this.settlement.reconcileTask(em, task, now, { cancel: true });
      refund += outcome.refundedOpenSlots * task.budget_cents;
      const response: CancelTaskResponse = {
        task_id: task.id,
        status: outcome.status,
        refund_cents: refund,
        worker_compensation_cents: compensation,
      };
      return response;
    });
  }

  private async withdrawOffer(em: EntityManager, a: AssignmentRow, now: Date): Promise<void> {
    const moved = await TaskRepository.moveAssignment(em, a.id, ['pending'], 'cancelled', now, {
      closed_at: now,
      offer_ended_at: now,
    });
    if (!moved) return;
    countOffer('withdrawn');
    await this.events.assignment(em, 'assignment.cancelled', moved, now);
  }

  private async lockOwned(em: EntityManager, actor: AgentActor, taskId: string): Promise<TaskRow> {
    const task = await TaskRepository.lock(em, taskId);
    if (!task || task.agent_id !== actor.id) throw taskNotFound();
    return task;
  }
}

function pickTargets(task: TaskRow, assignments: AssignmentRow[], assignmentId?: string): AssignmentRow[] {
  if (assignmentId) {
    const a = assignments.find((x) => x.id === assignmentId);
    if (!a) throw new ApiError('assignment_not_found', 'No such assignment on this task.');
    if (a.status !== 'submitted') {
      throw new ApiError(
        'invalid_state',
        `The assignment is ${a.status}; only a submitted result can be reviewed.`,
        {
          current_status: task.status,
          assignment_status: a.status,
        },
      );
    }
    return [a];
  }
  const submitted = assignments.filter((a) => a.status === 'submitted');
  if (submitted.length === 0) {
    throw new ApiError(
      'invalid_state',
      `The task has no submitted result to review (it is ${task.status}).`,
      {
        current_status: task.status,
      },
    );
  }
  return submitted;
}
