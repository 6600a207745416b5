import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { AgentRatingView, WorkerRatingCreate, WorkerRatingResponse } from '../dtos/rating.dto';
import type { AgentRatingRow } from '../matching.rows';

/** Average and count as shown to workers; the average to 2 decimals. */
export function agentRatingView(count: unknown, sum: unknown): AgentRatingView {
  const n = count === null || count === undefined ? 0 : Number(count);
  return { average: n > 0 ? Math.round((Number(sum) / n) * 100) / 100 : null, count: n };
}

/**
 * Workers rate the agent of a task they completed. Only a worker whose own result was approved on a task that is
 * completed may rate it, once. The agent's running totals are updated in the same transaction, so listings read
 * one row per agent instead of averaging every rating.
 */
@Injectable()
export class AgentRatingsService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async rate(actor: WorkerActor, taskId: string, dto: WorkerRatingCreate): Promise<WorkerRatingResponse> {
    return inTransaction(this.ds, async (em) => {
      const tasks = await sqlRows<{ agent_id: string; status: string; approved: boolean }>(
        em,
        `SELECT t.agent_id, t.status, EXISTS (SELECT 1 FROM assignments a WHERE a.task_id = t.id
                  AND a.worker_id = $2 AND a.status = 'approved') AS approved
           FROM tasks t WHERE t.id = $1`,
        [taskId, actor.id],
      );
      if (!tasks.length) throw new ApiError('task_not_found', 'No such task.');
      const task = tasks[0];
      if (!task.approved) {
        throw new ApiError('forbidden', 'Only a worker whose result on this task was approved may rate it.');
      }
      if (task.status !== 'completed') {
        throw new ApiError('forbidden', `The task is ${task.status}; it can be rated once it is completed.`, {
          current_status: task.status,
        });
      }
      const now = this.clock.now();
      const inserted = await sqlRows<Pick<AgentRatingRow, 'id'>>(
        em,
        `INSERT INTO agent_ratings (task_id, agent_id, worker_id, rating, comment, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (task_id, worker_id) DO NOTHING RETURNING id`,
        [taskId, task.agent_id, actor.id, dto.rating, dto.comment ?? null, now],
      );
      if (!inserted.length) throw new ApiError('already_rated', 'You have already rated this task.');
      await sqlExec(
        em,
        `INSERT INTO agent_rating_stats (agent_id, rating_count, rating_sum) VALUES ($1, 1, $2)
         ON CONFLICT (agent_id) DO UPDATE SET rating_count = agent_rating_stats.rating_count + 1,
                                              rating_sum = agent_rating_stats.rating_sum + EXCLUDED.rating_sum`,
        [task.agent_id, dto.rating],
      );
      return {
        rating_id: inserted[0].id,
        task_id: taskId,
        rating: dto.rating,
        comment: dto.comment ?? null,
        created_at: now.toISOString(),
      };
    });
  }
}
