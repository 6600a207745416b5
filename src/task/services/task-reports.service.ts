import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { TAKING_WORKERS } from '../../matching/nearby-tasks.query';
import type { TaskReportRequest, TaskReportResponse } from '../dtos/task-reports.dto';
import { taskNotFound } from './task-query.service';

/**
 * A worker's report of a task to the operators (product-decisions §19, "Also"). A worker may report a task they can
 * see: one offered to them or that they hold or held (any assignment of theirs, whatever became of it), or one the
 * available list would show them (the nearby search's own conditions: taking workers, deadline ahead, skills held,
 * reputation enough; the place is left out, since a worker may search around any position). Any other task is 404
 * task_not_found like an unknown id, so reporting cannot probe for tasks.
 */
@Injectable()
export class TaskReportsService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async report(actor: WorkerActor, taskId: string, dto: TaskReportRequest): Promise<TaskReportResponse> {
    return inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const [task] = await sqlRows<{ id: string; agent_id: string }>(
        em,
        `SELECT t.id, t.agent_id FROM tasks t
          WHERE t.id = $1
            AND (EXISTS (SELECT 1 FROM assignments a WHERE a.task_id = t.id AND a.worker_id = $2)
                 OR (${TAKING_WORKERS} AND t.deadline_at > $3
                     AND EXISTS (SELECT 1 FROM workers w WHERE w.id = $2 AND t.required_skills <@ w.skills
                                   AND COALESCE(t.min_reputation, 0) <= w.reputation)))`,
        [taskId, actor.id, now],
      );
      if (!task) throw taskNotFound();
      // The partial unique index allows one open report per worker and task: of two at once, one inserts.
      const [row] = await sqlRows<{ id: string; created_at: Date }>(
        em,
        `INSERT INTO task_reports (task_id, agent_id, worker_id, reason, note, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (task_id, worker_id) WHERE decided_at IS NULL DO NOTHING
         RETURNING id, created_at`,
        [task.id, task.agent_id, actor.id, dto.reason, dto.note, now],
      );
      if (!row) {
        const [open] = await sqlRows<{ id: string }>(
          em,
          `SELECT id FROM task_reports WHERE task_id = $1 AND worker_id = $2 AND decided_at IS NULL`,
          [task.id, actor.id],
        );
        throw new ApiError(
          'already_reported',
          'You have reported this task already; an operator will decide on your report.',
          { report_id: open?.id },
        );
      }
      return {
        report_id: row.id,
        task_id: task.id,
        reason: dto.reason,
        status: 'open',
        created_at: row.created_at.toISOString(),
      };
    });
  }
}
