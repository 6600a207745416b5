import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AssignmentEventName, EventData, TaskEventName } from '../../events/event-catalog';
import { writeEvent } from '../../events/outbox';
import type { AssignmentRow, TaskRow } from '../task.repository';

/** What an assignment event adds to the assignment's own fields (assignment_id, task_id, status). */
type AssignmentExtra<N extends AssignmentEventName> = Omit<
  EventData[N],
  'assignment_id' | 'task_id' | 'status'
>;
/** The extra fields as a trailing argument, optional when the event has none of its own. */
type ExtraArg<N extends AssignmentEventName> =
  Partial<AssignmentExtra<N>> extends AssignmentExtra<N>
    ? [data?: AssignmentExtra<N>]
    : [data: AssignmentExtra<N>];

/**
 * Task and assignment events for the outbox (writeEvent), inside the caller's transaction. Task events go to the
 * agent; assignment events to the worker. Both carry task_id in data.
 */
@Injectable()
export class TaskEvents {
  async task<N extends TaskEventName>(
    em: EntityManager,
    name: N,
    task: Pick<TaskRow, 'id' | 'agent_id'>,
    data: Omit<EventData[N], 'task_id'>,
    now: Date,
  ): Promise<void> {
    await writeEvent(em, {
      name,
      agentId: task.agent_id,
      taskId: task.id,
      // task_id plus Omit<EventData[N], 'task_id'> is EventData[N]; TypeScript cannot see it through N.
      data: { task_id: task.id, ...data } as EventData[N],
      at: now,
    });
  }

  async assignment<N extends AssignmentEventName>(
    em: EntityManager,
    name: N,
    a: Pick<AssignmentRow, 'id' | 'task_id' | 'worker_id' | 'status'>,
    now: Date,
    ...extra: ExtraArg<N>
  ): Promise<void> {
    const data = { assignment_id: a.id, task_id: a.task_id, status: a.status, ...extra[0] };
    await writeEvent(em, {
      name,
      workerId: a.worker_id,
      taskId: a.task_id,
      // The assignment's fields plus AssignmentExtra<N> is EventData[N]; TypeScript cannot see it through N.
      data: data as EventData[N],
      at: now,
    });
  }
}
