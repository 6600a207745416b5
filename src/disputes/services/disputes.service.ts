import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AgentActor, WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { writeEvent } from '../../events/outbox';
import { DISPUTE_ANSWER_HOURS, DISPUTE_WINDOW_HOURS, hoursAfter } from '../../task/domain/dispute-windows';
import { TaskRepository } from '../../task/task.repository';
import { TestClocks } from '../../task/test-clocks';
import { UploadService } from '../../upload/services/upload.service';
import type {
  DisputeListResponse,
  DisputeResponseRequest,
  DisputeView,
  OpenDisputeRequest,
} from '../dtos/disputes.dto';
import {
  disputeEventData,
  disputeView,
  DisputesRepository,
  type DisputeRow,
  statusOf,
} from '../disputes.repository';

interface DisputedAssignment {
  id: string;
  task_id: string;
  agent_id: string;
  worker_id: string;
  status: string;
  reviewed_at: Date | null;
  dispute_window_ends_at: Date | null;
}

/**
 * The two sides of a dispute (product-decisions §19): the worker disputes a rejection within 72 hours of it, the
 * agent answers within 48 hours of the dispute, both windows on the task's time (a sandbox test clock's for a task on
 * one). Each step writes its event in its own transaction, to the agent (webhooks, socket) and the worker (socket).
 * Nothing here moves money: the operator's decision does (DisputeDecisions).
 */
@Injectable()
export class DisputesService {
  constructor(
    private readonly ds: DataSource,
    private readonly uploads: UploadService,
    private readonly clock: Clock,
  ) {}

  async open(actor: WorkerActor, assignmentId: string, dto: OpenDisputeRequest): Promise<DisputeView> {
    return inTransaction(this.ds, async (em) => {
      const [a] = await sqlRows<DisputedAssignment>(
        em,
        `SELECT a.id, a.task_id, t.agent_id, a.worker_id, a.status, a.reviewed_at, a.dispute_window_ends_at
           FROM assignments a JOIN tasks t ON t.id = a.task_id WHERE a.id = $1 AND a.worker_id = $2`,
        [assignmentId, actor.id],
      );
      if (!a) throw new ApiError('assignment_not_found', 'No such assignment, or it is not yours.');
      if (a.status !== 'rejected') {
        throw new ApiError(
          'invalid_state',
          `The assignment is ${a.status}; only a rejection can be disputed.`,
          {
            assignment_status: a.status,
          },
        );
      }
      const now = await this.taskNow(em, a.task_id);
      const existing = await DisputesRepository.ofAssignment(em, a.id, now);
      if (existing) throw alreadyDisputed(existing.id);
      const closes = a.dispute_window_ends_at ?? hoursAfter(a.reviewed_at!, DISPUTE_WINDOW_HOURS);
      if (now >= closes) {
        throw new ApiError('dispute_window_closed', 'A rejection may be disputed for 72 hours after it.', {
          closed_at: closes.toISOString(),
        });
      }
      const urls = dto.photo_urls?.length
        ? (await this.uploads.ownedByUrls(em, actor.id, dto.photo_urls)).map((u) =>
            this.uploads.url(u.storage_key),
          )
        : [];
      // One dispute per assignment: a concurrent second one finds the row taken (the unique index waits for the
      // first to commit) and is refused like a later one.
      const [inserted] = await sqlRows<{ id: string }>(
        em,
        `INSERT INTO disputes (assignment_id, task_id, agent_id, worker_id, statement, photo_urls, opened_at,
                               response_due_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (assignment_id) DO NOTHING RETURNING id`,
        [
          a.id,
          a.task_id,
          a.agent_id,
          a.worker_id,
          dto.statement,
          urls,
          now,
          hoursAfter(now, DISPUTE_ANSWER_HOURS),
          this.clock.now(),
        ],
      );
      if (!inserted) {
        const taken = await DisputesRepository.ofAssignment(em, a.id, now);
        throw alreadyDisputed(taken?.id ?? null);
      }
      const d = (await DisputesRepository.find(em, inserted.id, now))!;
      await this.event(em, 'dispute.opened', d);
      return disputeView(d);
    });
  }

  /** The worker's dispute of one of their assignments. */
  async workerGet(actor: WorkerActor, assignmentId: string): Promise<DisputeView> {
    const [a] = await sqlRows<{ id: string }>(
      this.ds,
      `SELECT id FROM assignments WHERE id = $1 AND worker_id = $2`,
      [assignmentId, actor.id],
    );
    if (!a) throw new ApiError('assignment_not_found', 'No such assignment, or it is not yours.');
    const d = await DisputesRepository.ofAssignment(this.ds, a.id, this.clock.now());
    if (!d) throw new ApiError('dispute_not_found', 'This assignment has not been disputed.');
    return disputeView(d);
  }

  async agentList(actor: AgentActor, taskId: string): Promise<DisputeListResponse> {
    await TaskRepository.requireOwned(this.ds, actor.id, taskId);
    const rows = await DisputesRepository.ofTask(this.ds, taskId, this.clock.now());
    return { disputes: rows.map(disputeView) };
  }

  async respond(
    actor: AgentActor,
    taskId: string,
    disputeId: string,
    dto: DisputeResponseRequest,
  ): Promise<DisputeView> {
    await TaskRepository.requireOwned(this.ds, actor.id, taskId);
    return inTransaction(this.ds, async (em) => {
      const now = await this.taskNow(em, taskId);
      const d = await DisputesRepository.find(em, disputeId, now, true);
      if (!d || d.task_id !== taskId)
        throw new ApiError('dispute_not_found', 'No such dispute on this task.');
      const status = statusOf(d);
      if (d.decided_at || d.answered_at) {
        throw new ApiError('invalid_state', `The dispute is ${status}; it has been answered already.`, {
          current_status: status,
        });
      }
      if (status !== 'awaiting_response') {
        throw new ApiError(
          'dispute_window_closed',
          'A dispute may be answered for 48 hours after it opened.',
          {
            closed_at: d.response_due_at.toISOString(),
          },
        );
      }
      await sqlRows(
        em,
        `UPDATE disputes SET response_statement = $2, response_photo_urls = $3, answered_at = $4 WHERE id = $1`,
        [d.id, dto.statement, dto.photo_urls ?? [], now],
      );
      const answered = (await DisputesRepository.find(em, d.id, now))!;
      await this.event(em, 'dispute.answered', answered);
      return disputeView(answered);
    });
  }

  private async event(em: EntityManager, name: 'dispute.opened' | 'dispute.answered', d: DisputeRow) {
    await writeEvent(em, {
      name,
      agentId: d.agent_id,
      workerId: d.worker_id,
      taskId: d.task_id,
      data: disputeEventData(d),
      at: d.task_now,
    });
  }

  /** The task's time: its sandbox test clock's when it lives on one, else now. */
  private async taskNow(em: EntityManager, taskId: string): Promise<Date> {
    return (await TestClocks.timeOfTask(em, taskId)) ?? this.clock.now();
  }
}

function alreadyDisputed(disputeId: string | null): ApiError {
  return new ApiError('already_disputed', 'This rejection is disputed already.', {
    ...(disputeId ? { dispute_id: disputeId } : {}),
  });
}
