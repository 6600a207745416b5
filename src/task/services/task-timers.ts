import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlExec, sqlRows } from '../../database/sql';
import { HOLD_LAPSED_NOTE, REVIEW_HOLD_DAYS } from '../domain/proof-hold';
import { inTransaction } from '../../database/transaction';
import { LIVE_TASK_STATUSES } from '../domain/task-status';
import { AssignmentRow, TaskRepository, TaskRow } from '../task.repository';
import { TaskDispatch } from './task-dispatch';
import { TaskEvents } from './task-events';
import { TaskSettlement } from './task-settlement';
import { countOffer } from '../../observability/metrics';

const BATCH = 20;

/**
 * Which tasks a sweep looks at: those on real time (the job runner's sweeps: null), or those on one sandbox test
 * clock (its advance, run at the clock's time). Real time never touches a clock's tasks, nor a clock anyone else's.
 */
export type TimeScope = { clockId: string } | null;

/** The SQL condition on a tasks row (alias `alias`) for `scope`, its parameter at $`n` when there is one. */
function scopeSql(scope: TimeScope, alias: string, n: number): { sql: string; params: unknown[] } {
  return scope
    ? { sql: `${alias}.test_clock_id = $${n}`, params: [scope.clockId] }
    : { sql: `${alias}.test_clock_id IS NULL`, params: [] };
}

export interface SweepCounts {
  deadlines: number;
  offers: number;
  autoApproved: number;
}

/**
 * The time-based rules, run by the job queue every minute (and called directly by tests with a moved clock).
 * Each sweep picks due tasks in small batches and handles every task in its own transaction under
 * `FOR UPDATE SKIP LOCKED`: a task that a request or another runner holds is left for the next pass, and the
 * due condition is re-checked under the lock, so several runners never double-process.
 */
@Injectable()
export class TaskTimers {
  constructor(
    private readonly ds: DataSource,
    private readonly settlement: TaskSettlement,
    private readonly dispatch: TaskDispatch,
    private readonly events: TaskEvents,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async runDue(): Promise<SweepCounts> {
    return {
      deadlines: await this.sweepDeadlines(),
      offers: await this.expireOffers(),
      autoApproved: await this.autoApprove(),
    };
  }

  /**
   * At the deadline: open slots close (100 % refund), accepted and in-progress work expires (100 % refund,
   * counts against the worker), pending offers lapse; submitted results stay and wait for review.
   */
  sweepDeadlines(scope: TimeScope = null): Promise<number> {
    const now = this.clock.now();
    const on = scopeSql(scope, 't', 3);
    return this.forEachDue(
      (seen, limit) =>
        `SELECT id FROM tasks t WHERE deadline_processed_at IS NULL AND status = ANY($1) AND deadline_at <= $2
            AND ${on.sql} AND id <> ALL(${seen}) ORDER BY deadline_at LIMIT ${limit}`,
      [LIVE_TASK_STATUSES, now, ...on.params],
      async (em, task) => {
        const due =
          !task.deadline_processed_at && LIVE_TASK_STATUSES.includes(task.status) && task.deadline_at <= now;
        if (!due) return false;
        for (const a of await TaskRepository.assignments(em, task.id)) {
          if (a.status === 'accepted' || a.status === 'in_progress') {
            await this.settlement.refund(em, task, a, now, 'expired');
          } else if (a.status === 'pending') {
            await this.lapseOffer(em, a.id, now);
          }
        }
        await this.settlement.reconcileTask(em, task, now, { closeIntake: true, deadlineProcessed: true });
        return true;
      },
    );
  }

  /**
   * Offers not answered in time lapse and their slots go to the next best online worker (never one who had this
   * task before), or reopen for anyone to take when nobody is left.
   */
  expireOffers(scope: TimeScope = null): Promise<number> {
    const now = this.clock.now();
    return this.forEachDueAssignment(scope, 'pending', 'offer_expires_at', now, async (em, task, lapsed) => {
      for (const a of lapsed) await this.lapseOffer(em, a.id, now);
      if (!lapsed.length) return false;
      await this.dispatch.offerOpenSlots(em, task, now);
      await this.settlement.reconcileTask(em, task, now);
      return true;
    });
  }

  /**
   * Results nobody reviewed within AUTO_APPROVE_HOURS are approved, so workers are always paid. A result held for a
   * person's decision (high risk, product-decisions §18) waits instead, for REVIEW_HOLD_DAYS: then it is approved
   * too, with a note that keeps it in the operators' queue.
   */
  autoApprove(scope: TimeScope = null): Promise<number> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - this.config.autoApproveHours * 3_600_000);
    const holdCutoff = new Date(now.getTime() - REVIEW_HOLD_DAYS * 86_400_000);
    return this.forEachDueAssignment(
      scope,
      'submitted',
      'submitted_at',
      cutoff,
      async (em, task, due) => {
        // A hold an operator cleared gives the agent AUTO_APPROVE_HOURS again from the clearing (docs/decisions.md).
        const free = due.filter((a) =>
          a.review_required
            ? a.submitted_at! <= holdCutoff
            : a.hold_cleared_at === null || a.hold_cleared_at <= cutoff,
        );
        for (const a of free) {
          if (a.review_required) {
            await sqlExec(em, `UPDATE assignments SET review_note = $2 WHERE id = $1`, [
              a.id,
              HOLD_LAPSED_NOTE,
            ]);
          }
          await this.settlement.approve(em, task, a, now, null);
        }
        if (free.length) await this.settlement.reconcileTask(em, task, now);
        return free.length > 0;
      },
      // Held results only once their hold has lapsed.
      {
        sql: '(CASE WHEN a.review_required THEN a.submitted_at <= $N ELSE COALESCE(a.hold_cleared_at <= $1, true) END)',
        param: holdCutoff,
      },
    );
  }

  /**
   * Deleting a sandbox test clock ends its live tasks (product-decisions §12): offers lapse, held and submitted work is
   * refunded (a submitted result would never be reviewed on a clock that is gone), open slots close, and the task
   * is cancelled, so every cent held for it goes back to the agent. Run at the clock's time.
   */
  endClockTasks(clockId: string): Promise<number> {
    return this.forEachDue(
      (seen, limit) =>
        `SELECT id FROM tasks WHERE test_clock_id = $1 AND status = ANY($2) AND id <> ALL(${seen}) LIMIT ${limit}`,
      [clockId, LIVE_TASK_STATUSES],
      async (em, task) => {
        if (!LIVE_TASK_STATUSES.includes(task.status)) return false;
        const now = this.clock.now();
        for (const a of await TaskRepository.assignments(em, task.id)) {
          if (a.status === 'accepted' || a.status === 'in_progress') {
            await this.settlement.refund(em, task, a, now, 'expired');
          } else if (a.status === 'submitted') {
            await this.settlement.refund(em, task, a, now, 'rejected');
          } else if (a.status === 'pending') {
            await this.lapseOffer(em, a.id, now);
          }
        }
        await this.settlement.reconcileTask(em, task, now, { cancel: true });
        return true;
      },
    );
  }

  private async lapseOffer(em: EntityManager, assignmentId: string, now: Date): Promise<void> {
    const moved = await TaskRepository.moveAssignment(em, assignmentId, ['pending'], 'expired', now, {
      closed_at: now,
      offer_ended_at: now,
    });
    if (!moved) return;
    countOffer('expired');
    await this.events.assignment(em, 'assignment.expired', moved, now);
  }

  /**
   * forEachDue over the tasks (in `scope`) with an assignment in `status` whose `at` time is at or before `cutoff`:
   * `handle` gets those assignments as read under the task lock (none, when another runner got there first).
   */
  private forEachDueAssignment(
    scope: TimeScope,
    status: 'pending' | 'submitted',
    at: 'offer_expires_at' | 'submitted_at',
    cutoff: Date,
    handle: (em: EntityManager, task: TaskRow, due: AssignmentRow[]) => Promise<boolean>,
    extra: { sql: string; param: unknown } | null = null,
  ): Promise<number> {
    const on = scopeSql(scope, 't', 2);
    const n = 2 + on.params.length;
    const also = extra ? `AND ${extra.sql.replace('$N', `$${n}`)}` : '';
    return this.forEachDue(
      (seen, limit) =>
        `SELECT DISTINCT a.task_id AS id FROM assignments a JOIN tasks t ON t.id = a.task_id
          WHERE a.status = '${status}' AND a.${at} <= $1 AND ${on.sql} ${also} AND a.task_id <> ALL(${seen})
          LIMIT ${limit}`,
      [cutoff, ...on.params, ...(extra ? [extra.param] : [])],
      async (em, task) => {
        const due = (await TaskRepository.assignments(em, task.id)).filter((a) => {
          const time = a[at];
          return a.status === status && time !== null && time <= cutoff;
        });
        return handle(em, task, due);
      },
    );
  }

  /**
   * Selects due task ids (`select` gets the placeholders of the ids already seen and of the batch size, which
   * follow `params`) and runs `handle` for each in its own transaction with the task row locked, skipping tasks locked elsewhere. Returns how many
   * tasks were changed.
   */
  private async forEachDue(
    select: (seen: string, limit: string) => string,
    params: unknown[],
    handle: (em: EntityManager, task: TaskRow) => Promise<boolean>,
  ): Promise<number> {
    const seen: string[] = [];
    let changed = 0;
    for (;;) {
      const sql = select(`$${params.length + 1}::uuid[]`, `$${params.length + 2}`);
      const ids = await sqlRows<{ id: string }>(this.ds, sql, [...params, seen, BATCH]);
      if (ids.length === 0) return changed;
      for (const { id } of ids) {
        seen.push(id);
        const did = await inTransaction(this.ds, async (em) => {
          const task = await TaskRepository.lockIfFree(em, id);
          return task ? handle(em, task) : false;
        });
        if (did) changed++;
      }
    }
  }
}
