import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { WorkerActor } from '../../auth/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { inTransaction } from '../../database/transaction';
import type {
  AssignmentResponse,
  TaskSubmissionRequest,
  TaskSubmissionResponse,
} from '../dtos/worker-task.dto';
import { AssignmentStatus } from '../domain/task-status';
import { AssignmentRow, TaskRepository, TaskRow } from '../task.repository';
import { AssignmentEventName, TaskEvents } from './task-events.service';
import { TaskSettlement } from './task-settlement.service';

/**
 * What a worker does with an assignment once it holds one: start, submit, abandon. Every action locks the task
 * row first (the same lock as accept, review, cancel and the sweeps), then moves the assignment only from the
 * states it may leave, so a late or repeated request is a clean 409 rather than a double transition.
 */
@Injectable()
export class AssignmentService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly settlement: TaskSettlement,
    private readonly events: TaskEvents,
    private readonly clock: Clock,
  ) {}

  start(actor: WorkerActor, assignmentId: string): Promise<AssignmentResponse> {
    return this.act(actor, assignmentId, async (em, task, a, now) => {
      beforeDeadline(task, a, now);
      return this.move(em, a, ['accepted'], 'in_progress', now, { started_at: now }, 'assignment.started');
    });
  }

  async submit(
    actor: WorkerActor,
    assignmentId: string,
    dto: TaskSubmissionRequest,
  ): Promise<TaskSubmissionResponse> {
    const photos = (dto.photo_urls ?? []).map((url) => ({ url, taken_at: null }));
    const moved = await this.act(actor, assignmentId, async (em, task, a, now) => {
      beforeDeadline(task, a, now);
      return this.move(
        em,
        a,
        ['accepted', 'in_progress'],
        'submitted',
        now,
        {
          submitted_at: now,
          result_data: JSON.stringify(dto.result_data),
          worker_notes: dto.worker_notes ?? null,
          photos: JSON.stringify(photos),
        },
        'assignment.submitted',
      );
    });
    return {
      assignment_id: moved.assignment_id,
      task_id: moved.task_id,
      status: 'submitted',
      submitted_at: moved.updated_at,
    };
  }

  /** The slot reopens for another worker (or is refunded if the task takes no more workers). */
  abandon(actor: WorkerActor, assignmentId: string): Promise<AssignmentResponse> {
    return this.act(actor, assignmentId, (em, _task, a, now) =>
      this.move(
        em,
        a,
        ['accepted', 'in_progress'],
        'abandoned',
        now,
        { closed_at: now },
        'assignment.abandoned',
      ),
    );
  }

  private async act(
    actor: WorkerActor,
    assignmentId: string,
    work: (em: EntityManager, task: TaskRow, a: AssignmentRow, now: Date) => Promise<AssignmentResponse>,
  ): Promise<AssignmentResponse> {
    return inTransaction(this.ds, async (em) => {
      const seen = await TaskRepository.assignment(em, assignmentId);
      if (!seen || seen.worker_id !== actor.id) {
        throw new ApiError('assignment_not_found', 'No such assignment.');
      }
      const task = (await TaskRepository.lock(em, seen.task_id))!;
      // Read again under the task lock: the state may have changed while we waited for it.
      const a = (await TaskRepository.assignment(em, assignmentId))!;
      const now = this.clock.now();
      const response = await work(em, task, a, now);
      await this.settlement.settle(em, task, now);
      return response;
    });
  }

  private async move(
    em: EntityManager,
    a: AssignmentRow,
    from: AssignmentStatus[],
    to: AssignmentStatus,
    now: Date,
    set: Record<string, unknown>,
    event: AssignmentEventName,
  ): Promise<AssignmentResponse> {
    const moved = await TaskRepository.moveAssignment(em, a.id, from, to, now, set);
    if (!moved) {
      throw new ApiError('invalid_state', `The assignment is ${a.status}; it cannot become ${to}.`, {
        current_status: a.status,
      });
    }
    await this.events.assignment(em, event, moved, now);
    return {
      assignment_id: moved.id,
      task_id: moved.task_id,
      status: moved.status,
      updated_at: now.toISOString(),
    };
  }
}

function beforeDeadline(task: TaskRow, a: AssignmentRow, now: Date): void {
  if (now.getTime() >= task.deadline_at.getTime()) {
    throw new ApiError('invalid_state', 'The task deadline has passed.', {
      current_status: a.status,
      deadline_at: task.deadline_at.toISOString(),
    });
  }
}
