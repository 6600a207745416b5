import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { LIVE_TASK_STATUSES } from '../domain/task-status';
import { TaskRepository } from '../task.repository';
import { TaskDispatch } from './task-dispatch';
import { TaskSettlement } from './task-settlement';

/** At most this many of an agent's tasks are offered again in one call. */
const AGENT_TASKS_LIMIT = 100;

/**
 * Offers the open slots of an agent's live tasks again, for when eligible workers appeared after the slots opened
 * (dispatch otherwise runs only when a slot opens). The sandbox calls it when a simulated worker is created or
 * becomes free, as a real worker would find those tasks in the available list. Each task is handled in its own
 * transaction under its row lock, like every dispatch.
 */
@Injectable()
export class TaskOffers {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly dispatch: TaskDispatch,
    private readonly settlement: TaskSettlement,
    private readonly clock: Clock,
  ) {}

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
