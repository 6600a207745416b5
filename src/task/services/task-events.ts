import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sqlExec } from '../../database/sql';
import type { AssignmentRow, TaskRow } from '../task.repository';

export type AssignmentEventName =
  | 'assignment.offered'
  | 'assignment.declined'
  | 'assignment.accepted'
  | 'assignment.started'
  | 'assignment.submitted'
  | 'assignment.approved'
  | 'assignment.rejected'
  | 'assignment.abandoned'
  | 'assignment.expired'
  | 'assignment.cancelled';

/**
 * Writes task and assignment events to the outbox (the `events` table) inside the caller's transaction, so an
 * event exists exactly when the change it describes committed. Delivery (webhooks, WebSocket) reads the outbox.
 * Task events go to the agent; assignment events to the worker.
 */
@Injectable()
export class TaskEvents {
  async task(
    em: EntityManager,
    name: string,
    task: Pick<TaskRow, 'id' | 'agent_id'>,
    data: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    await sqlExec(
      em,
      `INSERT INTO events (name, agent_id, task_id, data, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [name, task.agent_id, task.id, JSON.stringify({ task_id: task.id, ...data }), now],
    );
  }

  async assignment(
    em: EntityManager,
    name: AssignmentEventName,
    a: Pick<AssignmentRow, 'id' | 'task_id' | 'worker_id' | 'status'>,
    now: Date,
    data: Record<string, unknown> = {},
  ): Promise<void> {
    await sqlExec(
      em,
      `INSERT INTO events (name, worker_id, task_id, data, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [
        name,
        a.worker_id,
        a.task_id,
        JSON.stringify({ assignment_id: a.id, task_id: a.task_id, status: a.status, ...data }),
        now,
      ],
    );
  }
}
