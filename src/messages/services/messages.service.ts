import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentActor, WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { TaskRepository } from '../../task/task.repository';
import { writeEvent } from '../../events/outbox';
import type {
  AgentMessagesQuery,
  AgentMessagesResponse,
  AgentSendMessageRequest,
  MessageSender,
  MessageThreadView,
  MessageView,
  SendMessageRequest,
  WorkerMessagesResponse,
  WorkerThreadsResponse,
} from '../dtos/messages.dto';
import { messageFlags } from '../message-flags';
import { messageView, MessagesRepository, type Reader } from '../messages.repository';

/** An assignment as its thread needs it. */
interface ThreadRow {
  assignment_id: string;
  task_id: string;
  agent_id: string;
  worker_id: string;
  status: string;
  accepted_at: Date | null;
}

const THREAD_SQL = `SELECT a.id AS assignment_id, a.task_id, t.agent_id, a.worker_id, a.status, a.accepted_at
                      FROM assignments a JOIN tasks t ON t.id = a.task_id`;

/**
 * Messages between the agent and the worker of one assignment (product-decisions §19). A thread opens once the
 * worker accepted (before, the worker of an offer is a pseudonym to the agent) and stays open after the assignment
 * ends: a question about a rejection is asked there. Someone else's task or assignment is 404, as everywhere.
 * Sending writes `message.created` in the same transaction (the agent's webhooks, both sides' sockets), moves the
 * sender's read marker to it, and flags contact details for operators without refusing them.
 */
@Injectable()
export class MessagesService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async agentList(actor: AgentActor, taskId: string, q: AgentMessagesQuery): Promise<AgentMessagesResponse> {
    await TaskRepository.requireOwned(this.ds, actor.id, taskId);
    const rows = await sqlRows<ThreadRow>(
      this.ds,
      `${THREAD_SQL} WHERE a.task_id = $1 AND a.accepted_at IS NOT NULL
                       AND ($2::uuid IS NULL OR a.id = $2::uuid)
        ORDER BY a.accepted_at, a.id`,
      [taskId, q.assignment_id ?? null],
    );
    if (q.assignment_id === undefined) return { threads: await this.threads(rows, 'agent') };
    const [thread] = rows;
    if (!thread) throw await this.missingThread(taskId, q.assignment_id);
    const messages = await this.read(thread.assignment_id, 'agent');
    return { threads: await this.threads(rows, 'agent'), messages };
  }

  async agentSend(actor: AgentActor, taskId: string, dto: AgentSendMessageRequest): Promise<MessageView> {
    await TaskRepository.requireOwned(this.ds, actor.id, taskId);
    const [thread] = await sqlRows<ThreadRow>(this.ds, `${THREAD_SQL} WHERE a.id = $1 AND a.task_id = $2`, [
      dto.assignment_id,
      taskId,
    ]);
    if (!thread) throw new ApiError('assignment_not_found', 'No such assignment on this task.');
    return this.send(open(thread), 'agent', dto.body);
  }

  async workerThreads(actor: WorkerActor): Promise<WorkerThreadsResponse> {
    const rows = await sqlRows<{ assignment_id: string; task_id: string; last_at: Date }>(
      this.ds,
      `SELECT m.assignment_id, a.task_id, max(m.created_at) AS last_at
         FROM assignment_messages m JOIN assignments a ON a.id = m.assignment_id
        WHERE a.worker_id = $1
        GROUP BY m.assignment_id, a.task_id
        ORDER BY max(m.seq) DESC LIMIT 200`,
      [actor.id],
    );
    const counts = await MessagesRepository.counts(
      this.ds,
      rows.map((r) => r.assignment_id),
      'worker',
    );
    const threads = rows.map((r) => ({
      assignment_id: r.assignment_id,
      task_id: r.task_id,
      message_count: counts.get(r.assignment_id)?.message_count ?? 0,
      unread_count: counts.get(r.assignment_id)?.unread_count ?? 0,
      last_message_at: r.last_at.toISOString(),
    }));
    return { threads, unread_total: threads.reduce((n, t) => n + t.unread_count, 0) };
  }

  async workerList(actor: WorkerActor, assignmentId: string): Promise<WorkerMessagesResponse> {
    const thread = await this.workerThread(actor, assignmentId);
    return { assignment_id: thread.assignment_id, messages: await this.read(thread.assignment_id, 'worker') };
  }

  async workerSend(actor: WorkerActor, assignmentId: string, dto: SendMessageRequest): Promise<MessageView> {
    const thread = await this.workerThread(actor, assignmentId);
    return this.send(open(thread), 'worker', dto.body);
  }

  private async send(thread: ThreadRow, from: MessageSender, body: string): Promise<MessageView> {
    const now = this.clock.now();
    const row = await inTransaction(this.ds, async (em) => {
      const m = await MessagesRepository.insert(
        em,
        {
          assignmentId: thread.assignment_id,
          taskId: thread.task_id,
          sender: from,
          body,
          flags: messageFlags(body),
        },
        now,
      );
      if (from !== 'operator') await MessagesRepository.markRead(em, thread.assignment_id, from, m.seq);
      await writeEvent(em, {
        name: 'message.created',
        agentId: thread.agent_id,
        workerId: thread.worker_id,
        taskId: thread.task_id,
        data: { ...messageView(m), task_id: thread.task_id },
        at: now,
      });
      return m;
    });
    return messageView(row);
  }

  /** The thread's messages, which now count as read by this side. */
  private async read(assignmentId: string, reader: Reader): Promise<MessageView[]> {
    const rows = await MessagesRepository.thread(this.ds, assignmentId);
    const last = rows.at(-1);
    if (last) await MessagesRepository.markRead(this.ds, assignmentId, reader, last.seq);
    return rows.map(messageView);
  }

  private async threads(rows: ThreadRow[], reader: Reader): Promise<MessageThreadView[]> {
    const counts = await MessagesRepository.counts(
      this.ds,
      rows.map((r) => r.assignment_id),
      reader,
    );
    const lastSeqs = [...counts.values()].map((c) => c.last_seq).filter((s): s is string => s !== null);
    const last = await MessagesRepository.bySeq(this.ds, lastSeqs);
    return rows.map((r) => {
      const c = counts.get(r.assignment_id);
      const m = c?.last_seq ? last.get(c.last_seq) : undefined;
      return {
        assignment_id: r.assignment_id,
        worker_id: r.worker_id,
        assignment_status: r.status,
        message_count: c?.message_count ?? 0,
        unread_count: c?.unread_count ?? 0,
        last_message: m ? messageView(m) : null,
      };
    });
  }

  private async workerThread(actor: WorkerActor, assignmentId: string): Promise<ThreadRow> {
    const [thread] = await sqlRows<ThreadRow>(this.ds, `${THREAD_SQL} WHERE a.id = $1 AND a.worker_id = $2`, [
      assignmentId,
      actor.id,
    ]);
    if (!thread) throw new ApiError('assignment_not_found', 'No such assignment, or it is not yours.');
    return thread;
  }

  /** 404 for an assignment of another task or none; 409 for an offer not accepted (no thread yet). */
  private async missingThread(taskId: string, assignmentId: string): Promise<ApiError> {
    const [a] = await sqlRows<ThreadRow>(this.ds, `${THREAD_SQL} WHERE a.id = $1 AND a.task_id = $2`, [
      assignmentId,
      taskId,
    ]);
    return a ? notOpen(a) : new ApiError('assignment_not_found', 'No such assignment on this task.');
  }
}

/** A thread opens when the worker accepts. */
function open(thread: ThreadRow): ThreadRow {
  if (thread.accepted_at === null) throw notOpen(thread);
  return thread;
}

function notOpen(thread: ThreadRow): ApiError {
  return new ApiError('invalid_state', 'The thread opens once the worker has accepted the assignment.', {
    assignment_status: thread.status,
  });
}
