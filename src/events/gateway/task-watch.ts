import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/actor';
import { sqlRows } from '../../database/sql';
import { BoundedMemo } from './bounded-memo';
import { SOCKET_LIMITS } from './socket-limits';

/** What one socket remembers of its ownership checks: task id -> the answer, possibly still in flight. */
export type OwnershipMemo = BoundedMemo<Promise<boolean>>;

export function ownershipMemo(): OwnershipMemo {
  return new BoundedMemo(SOCKET_LIMITS.rememberedTasks);
}

/**
 * Whether an actor may watch a task's room: an agent its own tasks, a worker the tasks it holds a live assignment
 * on, an operator any task. Asked of the database at most once per socket and task while the answer holds:
 * - a check in flight is shared by every repeat of it, so a burst of subscribes to one task is one query;
 * - an agent's or operator's yes is kept: a task never changes owner;
 * - a worker's yes is not kept, because its assignment can end; the room membership answers its repeats instead,
 *   and the ending event takes the worker's sockets out of the room on every instance (SocketFanout);
 * - a no is kept for SOCKET_LIMITS.refusalMemoryMs. A worker's socket forgets it as soon as it is told anything
 *   about the task (the gateway's outgoing hook): an offer turns a no into a yes.
 */
@Injectable()
export class TaskWatch {
  constructor(private readonly ds: DataSource) {}

  mayWatch(actor: Actor, taskId: string, memo: OwnershipMemo): Promise<boolean> {
    const known = memo.get(taskId, performance.now());
    if (known) return known;
    const answer = this.ask(actor, taskId);
    memo.set(taskId, answer, Infinity);
    void answer.then(
      (allowed) => {
        if (!allowed) memo.expire(taskId, answer, performance.now() + SOCKET_LIMITS.refusalMemoryMs);
        else if (actor.kind === 'worker') memo.delete(taskId, answer);
      },
      // A check that failed (the database away) is asked again next time; the caller answers the failure.
      () => memo.delete(taskId, answer),
    );
    return answer;
  }

  private async ask(actor: Actor, taskId: string): Promise<boolean> {
    const [sql, params]: [string, unknown[]] =
      actor.kind === 'agent'
        ? [`SELECT 1 FROM tasks WHERE id = $1 AND agent_id = $2`, [taskId, actor.id]]
        : actor.kind === 'worker'
          ? [
              // Only while the assignment is live: an ended one (abandoned, rejected, expired...) watches no more.
              `SELECT 1 FROM assignments WHERE task_id = $1 AND worker_id = $2
                  AND status IN ('pending', 'accepted', 'in_progress', 'submitted')`,
              [taskId, actor.id],
            ]
          : [`SELECT 1 FROM tasks WHERE id = $1`, [taskId]];
    const rows = await sqlRows(this.ds, sql, params);
    return rows.length > 0;
  }
}
