import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentActor } from '../../common/actor';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import type { ListTasksQuery } from '../dtos/task-requests.dto';
import type {
  ApprovedResult,
  TaskListPage,
  TaskResultResponse,
  TaskStatusResponse,
} from '../dtos/task-response.dto';
import {
  iso,
  submissionView,
  submittedAssignments,
  taskListItem,
  taskResult,
  taskStatusResponse,
} from '../task.presenter';
import { AssignmentRow, mapTask, TaskRepository, TaskRow } from '../task.repository';
import { WorkerReputation } from '../../matching/services/worker-reputation';
import { WorkerPseudonyms } from '../domain/worker-pseudonym';

/** Reading an agent's tasks. Another agent's task does not exist as far as the caller can tell (404). */
@Injectable()
export class TaskQueryService {
  constructor(
    private readonly ds: DataSource,
    private readonly reputation: WorkerReputation,
    private readonly pseudonyms: WorkerPseudonyms,
  ) {}

  async get(actor: AgentActor, taskId: string): Promise<TaskStatusResponse> {
    const task = await this.owned(actor, taskId);
    const assignments = await TaskRepository.assignments(this.ds.manager, task.id);
    const reputations = await this.reputation.ofMany([...new Set(assignments.map((a) => a.worker_id))]);
    return taskStatusResponse(task, assignments, reputations, this.pseudonyms);
  }

  /**
   * Results become readable as soon as a worker submits (product-decisions §10): the agent reviews them before accepting
   * or rejecting. Before any submission: 404 result_not_available with the task's status.
   */
  async result(actor: AgentActor, taskId: string): Promise<TaskResultResponse> {
    const task = await this.owned(actor, taskId);
    const submitted = submittedAssignments(await TaskRepository.assignments(this.ds.manager, task.id));
    if (submitted.length === 0) {
      throw new ApiError(
        'result_not_available',
        `No worker has submitted a result yet (the task is ${task.status}).`,
        { current_status: task.status },
      );
    }
    const approved = submitted
      .filter((a) => a.status === 'approved')
      .sort((a, b) => a.reviewed_at!.getTime() - b.reviewed_at!.getTime());
    const shown = approved[0] ?? submitted.find((a) => a.status === 'submitted') ?? null;
    const results = approved.map(approvedResult);
    return {
      task_id: task.id,
      status: task.status,
      result: shown ? taskResult(shown) : null,
      completed_at: iso(task.completed_at) ?? results[0]?.approved_at ?? null,
      quality_score: results[0]?.quality_score ?? null,
      results,
      submissions: submitted.map(submissionView),
      answer_schema: task.answer_schema,
    };
  }

  /** Newest first; the cursor is the id of the last task of the previous page (keyset on created_at, id). */
  async list(actor: AgentActor, q: ListTasksQuery): Promise<TaskListPage> {
    const limit = q.limit ?? 20;
    const params: unknown[] = [actor.id, limit + 1];
    const where = ['agent_id = $1'];
    if (q.status) {
      params.push(q.status);
      where.push(`status = $${params.length}`);
    }
    if (q.starting_after) {
      const cursor = await TaskRepository.findOwned(this.ds.manager, actor.id, q.starting_after);
      if (!cursor) throw ApiError.field('starting_after', 'is not one of your tasks');
      params.push(cursor.created_at, cursor.id);
      where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
    }
    const rows = await sqlRows(
      this.ds,
      `SELECT * FROM tasks WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $2`,
      params,
    );
    const page = rows.slice(0, limit).map(mapTask);
    const hasMore = rows.length > limit;
    return {
      data: page.map(taskListItem),
      has_more: hasMore,
      next_cursor: hasMore ? page[page.length - 1].id : null,
    };
  }

  private async owned(actor: AgentActor, taskId: string): Promise<TaskRow> {
    const task = await TaskRepository.findOwned(this.ds.manager, actor.id, taskId);
    if (!task) throw taskNotFound();
    return task;
  }
}

export function taskNotFound(): ApiError {
  return new ApiError('task_not_found', 'No such task.');
}

function approvedResult(a: AssignmentRow): ApprovedResult {
  return {
    assignment_id: a.id,
    worker_id: a.worker_id,
    ...taskResult(a),
    submitted_at: a.submitted_at!.toISOString(),
    approved_at: a.reviewed_at!.toISOString(),
    quality_score: a.quality_score,
  };
}
