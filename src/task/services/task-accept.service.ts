import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { assertMayWork } from '../../matching/worker-standing';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { liveAssignmentCap } from '../../matching/live-assignment-cap';
import { DECLINED_OR_LAPSED_STATUSES } from '../../matching/offer-policy';
import { WorkerRepository } from '../../worker/worker.repository';
import { countSlots, LIVE_TASK_STATUSES } from '../domain/task-status';
import type { TaskAcceptResponse } from '../dtos/worker-task.dto';
import { AssignmentRow, mapAssignment, TaskRepository, TaskRow } from '../task.repository';
import { TaskEvents } from './task-events';
import { TaskSettlement } from './task-settlement';
import { countOffer } from '../../observability/metrics';

/**
 * A worker takes a slot. Under the task row lock the open slots are counted from the assignments themselves, so
 * any number of concurrent accepts fill exactly max_workers slots. The worker row is locked next (always task,
 * then worker: no deadlock) so one worker's concurrent accepts on different tasks respect the live-assignment cap.
 */
@Injectable()
export class TaskAcceptService {
  constructor(
    private readonly ds: DataSource,
    private readonly settlement: TaskSettlement,
    private readonly events: TaskEvents,
    private readonly clock: Clock,
  ) {}

  async accept(actor: WorkerActor, taskId: string): Promise<TaskAcceptResponse> {
    return inTransaction(this.ds, async (em) => {
      const task = await TaskRepository.lock(em, taskId);
      if (!task) throw new ApiError('task_not_found', 'No such task.');
      const now = this.clock.now();
      assertTakingWorkers(task, now);
      const { skills, reputation } = await this.lockWorker(em, actor.id);
      // Under the worker row lock, which a suspension takes too: no task is taken after it commits.
      await assertMayWork(em, actor.id);
      assertEligible(task, skills, reputation);

      const { assignments, live } = await TaskRepository.assignmentsAndLive(em, task.id, actor.id);
      const mine = assignments.find((a) => a.worker_id === actor.id);
      if (mine && mine.status !== 'pending' && !declinedOrLapsed(mine)) {
        throw new ApiError(
          'already_assigned',
          `You already hold this task (your assignment is ${mine.status}).`,
          {
            assignment_id: mine.id,
            assignment_status: mine.status,
          },
        );
      }
      assertBelowCap(live, reputation);
      const accepted =
        mine?.status === 'pending'
          ? await this.takeOffer(em, mine, now)
          : await this.takeSlot(em, task, assignments, actor, now, mine);
      await this.events.assignment(em, 'assignment.accepted', accepted, now, {
        payment_cents: task.payout_cents,
      });
      // Under the task lock the assignments are those read above, with this one taken.
      const current = mine
        ? assignments.map((a) => (a.id === accepted.id ? accepted : a))
        : [...assignments, accepted];
      await this.settlement.reconcileTask(em, task, now, {}, current);
      return {
        assignment_id: accepted.id,
        task_id: task.id,
        status: 'accepted',
        accepted_at: now.toISOString(),
        payment_cents: task.payout_cents,
        deadline_at: task.deadline_at.toISOString(),
      };
    });
  }

  /**
   * An open slot, counted under the task lock. A worker whose offer of this task they declined or let lapse takes
   * it with that same assignment row (one row per task and worker), which then reads as accepted from the offer's
   * history on: when the offer ended stays in offer_ended_at for the matcher's responsiveness.
   */
  private async takeSlot(
    em: EntityManager,
    task: TaskRow,
    assignments: AssignmentRow[],
    actor: WorkerActor,
    now: Date,
    earlier: AssignmentRow | undefined,
  ): Promise<AssignmentRow> {
    const slots = countSlots(
      task.max_workers,
      task.closed_slots,
      assignments.map((a) => ({ status: a.status, settlement: a.slot_settlement })),
    );
    if (slots.open <= 0) {
      throw new ApiError('task_full', 'Every slot of this task is taken.', { max_workers: task.max_workers });
    }
    const rows = earlier
      ? await sqlRows(
          em,
          `UPDATE assignments SET status = 'accepted', accepted_at = $2, updated_at = $2, closed_at = NULL,
                  offer_ended_at = COALESCE(offer_ended_at, closed_at)
            WHERE id = $1 AND status = ANY($3) AND accepted_at IS NULL AND slot_settlement IS NULL RETURNING *`,
          [earlier.id, now, DECLINED_OR_LAPSED_STATUSES],
        )
      : await sqlRows(
          em,
          `INSERT INTO assignments (task_id, worker_id, status, accepted_at, created_at, updated_at)
           VALUES ($1, $2, 'accepted', $3, $3, $3) RETURNING *`,
          [task.id, actor.id, now],
        );
    return mapAssignment(rows[0]);
  }

  /**
   * A slot offered to this worker by dispatch is reserved for them. Past its window and not yet swept, the offer
   * has lapsed, but its slot is still held by it and nobody else can take it: the worker may still (a lapsed offer
   * keeps nobody from a task, product-decisions §16).
   */
  private async takeOffer(em: EntityManager, offer: AssignmentRow, now: Date): Promise<AssignmentRow> {
    const moved = await TaskRepository.moveAssignment(em, offer.id, ['pending'], 'accepted', now, {
      accepted_at: now,
      offer_ended_at: now,
    });
    countOffer('accepted');
    return moved!;
  }

  /** Reputation is read under the same lock that recomputations take, so the cap and floor see the latest value. */
  private async lockWorker(
    em: EntityManager,
    workerId: string,
  ): Promise<{ skills: string[]; reputation: number }> {
    const worker = await WorkerRepository.lockForAccept(em, workerId);
    if (!worker) throw new ApiError('invalid_token', 'The account of this token no longer exists.');
    return worker;
  }
}

/** Live = work still to do (accepted or in progress); results waiting for review do not count. */
function assertBelowCap(live: number, reputation: number): void {
  const cap = liveAssignmentCap(reputation);
  if (live >= cap) {
    throw new ApiError(
      'assignment_limit_reached',
      `You may hold at most ${cap} unfinished assignment${cap === 1 ? '' : 's'} at once; finish or abandon one first.`,
      { limit: cap, live_assignments: live },
    );
  }
}

/** An offer of the task the worker declined or let lapse: it keeps them from nothing. */
function declinedOrLapsed(a: AssignmentRow): boolean {
  return (
    (DECLINED_OR_LAPSED_STATUSES as readonly string[]).includes(a.status) &&
    a.accepted_at === null &&
    a.slot_settlement === null
  );
}

function assertTakingWorkers(task: TaskRow, now: Date): void {
  const reason = !LIVE_TASK_STATUSES.includes(task.status)
    ? `The task is ${task.status}.`
    : task.intake_closed_at || task.agreement_reached_at
      ? 'The task no longer takes workers.'
      : task.deadline_at.getTime() <= now.getTime()
        ? 'The task deadline has passed.'
        : null;
  if (reason) throw new ApiError('invalid_state', reason, { current_status: task.status });
}

function assertEligible(task: TaskRow, skills: string[], reputation: number): void {
  const missing = task.required_skills.filter((s) => !skills.includes(s));
  if (missing.length > 0) {
    throw new ApiError('not_eligible', `The task needs skills you do not have: ${missing.join(', ')}.`, {
      missing_skills: missing,
    });
  }
  if (task.min_reputation !== null && reputation < task.min_reputation) {
    throw new ApiError('not_eligible', `The task needs a reputation of at least ${task.min_reputation}.`, {
      min_reputation: task.min_reputation,
      worker_reputation: reputation,
    });
  }
}
