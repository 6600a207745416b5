import type { EntityManager } from 'typeorm';
import { sqlExec } from '../database/sql';
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

/**
 * The one writer of the `events` outbox. Call it inside the transaction of the change the event describes, so the
 * event exists exactly when that change committed; delivery (webhooks, WebSocket, the events list) reads the
 * outbox after commit. Imported by task and payment, so it imports only the database helpers and the catalogue.
 */
export async function writeEvent<N extends OutboxEventName>(
  em: EntityManager,
  event: NewEvent<N>,
): Promise<void> {
  await sqlExec(
    em,
    `INSERT INTO events (name, agent_id, worker_id, task_id, data, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      event.name,
      event.agentId ?? null,
      event.workerId ?? null,
      event.taskId ?? null,
      JSON.stringify(event.data),
      event.at,
    ],
  );
}
