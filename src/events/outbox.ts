import type { EntityManager } from 'typeorm';
import { sqlExec } from '../database/sql';
import { beforeCommit, type Statement } from '../database/transaction';
import type { EventData, OutboxEventName } from './event-catalog';

/** One event for the outbox; `data` is typed by `name` (see EventData). */
export interface NewEvent<N extends OutboxEventName> {
  name: N;
  data: EventData[N];
  /** The agent it is for: its webhooks, its events list and its socket room. */
  agentId?: string | null;
  /** The worker it is for: their socket room. */
  workerId?: string | null;
  taskId?: string | null;
  at: Date;
}

/** The events a transaction has written so far, inserted together before its COMMIT (see writeEvent). */
const pending = new WeakMap<EntityManager, NewEvent<OutboxEventName>[]>();

/**
 * The one writer of the `events` outbox. Call it inside the transaction of the change the event describes, so the
 * event exists exactly when that change committed; delivery (webhooks, WebSocket, the events list) reads the
 * outbox after commit. Imported by task and payment, so it imports only the database helpers and the catalogue.
 *
 * Inside inTransaction the events wait and are inserted in one multi-row INSERT sent with COMMIT, in the order
 * they were written (their seq follows it): an accept or a submit writes two events and pays no round trip for
 * them. Nothing reads the outbox inside the transaction that writes it. Elsewhere (a bare EntityManager) the event
 * is inserted at once.
 */
export async function writeEvent<N extends OutboxEventName>(
  em: EntityManager,
  event: NewEvent<N>,
): Promise<void> {
  const queued = pending.get(em);
  if (queued) {
    queued.push(event);
    return;
  }
  const batch: NewEvent<OutboxEventName>[] = [event];
  if (beforeCommit(em, pending, () => insertEvents(batch))) {
    pending.set(em, batch);
    return;
  }
  const { sql, params } = insertEvents(batch);
  await sqlExec(em, sql, params);
}

/** One multi-row INSERT of the events, in their order. */
function insertEvents(events: NewEvent<OutboxEventName>[]): Statement {
  const params: unknown[] = [];
  const rows = events.map((e) => {
    const n = params.length;
    params.push(
      e.name,
      e.agentId ?? null,
      e.workerId ?? null,
      e.taskId ?? null,
      JSON.stringify(e.data),
      e.at,
    );
    return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6})`;
  });
  return {
    sql: `INSERT INTO events (name, agent_id, worker_id, task_id, data, created_at) VALUES ${rows.join(', ')}`,
    params,
  };
}
