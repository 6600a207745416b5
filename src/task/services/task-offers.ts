import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { LIVE_TASK_STATUSES } from '../domain/task-status';
import { WorkerRanking } from '../../matching/services/worker-ranking';
import { AssignmentRow, TaskRepository } from '../task.repository';
import { TaskDispatch } from './task-dispatch';
import { TaskSettlement } from './task-settlement';

/** At most this many of an agent's tasks are offered again in one call. */
const AGENT_TASKS_LIMIT = 100;

/**
 * Offers open slots again, for when eligible workers appeared after the slots opened (dispatch otherwise runs only
 * when a slot opens): all of an agent's live tasks (the sandbox, when a simulated worker is created or becomes
 * free), or the tasks near one worker going on call (product-decisions §16). Each task is handled in its own
 * transaction under its row lock, like every dispatch.
 */
@Injectable()
export class TaskOffers {
  constructor(
    private readonly ds: DataSource,
    private readonly dispatch: TaskDispatch,
    private readonly settlement: TaskSettlement,
    private readonly ranking: WorkerRanking,
    private readonly clock: Clock,
  ) {}

  /**
   * A worker went on call: the open tasks it could be offered, best first by the offer score (WorkerRanking), each
   * dispatched as any open slot is, until one is offered to this worker. Dispatch ranks every worker free for the
   * task, so a better-placed worker may get a task first; the next one is tried then. Returns the offer made to the
   * worker, or null (not on call with a fresh position, an offer already waiting, at its cap, or nothing nearby).
   */
  async offerBestTaskTo(workerId: string): Promise<AssignmentRow | null> {
    for (const candidate of await this.ranking.tasksFor(this.ds, workerId, this.clock.now())) {
      const offer = await inTransaction(this.ds, async (em) => {
        const task = await TaskRepository.lockIfFree(em, candidate.taskId);
        if (!task) return null;
        const now = this.clock.now();
        const made = await this.dispatch.offerOpenSlots(em, task, now);
        if (made.length) await this.settlement.reconcileTask(em, task, now);
        return made.find((o) => o.worker_id === workerId) ?? null;
      });
      if (offer) return offer;
    }
    return null;
  }

  /**
   * Returns how many offers were made. `clockId` picks the tasks of one time: those on real time (null) or those on
   * one sandbox test clock, whose caller runs this at the clock's time.
   */
  async offerOpenSlotsOf(agentId: string, clockId: string | null): Promise<number> {
    const tasks = await sqlRows<{ id: string }>(
      this.ds,
      `SELECT id FROM tasks WHERE agent_id = $1 AND status = ANY($2) AND open_slots > 0 AND intake_closed_at IS NULL
          AND test_clock_id IS NOT DISTINCT FROM $4
        ORDER BY created_at LIMIT $3`,
      [agentId, LIVE_TASK_STATUSES, AGENT_TASKS_LIMIT, clockId],
    );
    let offers = 0;
    for (const { id } of tasks) {
      offers += await inTransaction(this.ds, async (em) => {
        const task = await TaskRepository.lock(em, id);
        if (!task) return 0;
        const now = this.clock.now();
        const made = await this.dispatch.offerOpenSlots(em, task, now);
        if (made.length) await this.settlement.reconcileTask(em, task, now);
        return made.length;
      });
    }
    return offers;
  }
}
