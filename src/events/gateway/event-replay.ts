import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/actor';
import { sqlRows } from '../../database/sql';
import { OutboxEvent, toPayload, type EventPayload } from '../event-catalog';

/** At most this many events are replayed on one connection; more: read the rest from GET /v1/agent/events. */
export const REPLAY_LIMIT = 1000;

export interface Replay {
  events: EventPayload[];
  /** False when `last_event_id` names no event of this account (nothing is replayed then). */
  found: boolean;
  /** False when more than REPLAY_LIMIT events were missed. */
  complete: boolean;
}

/**
 * The events a reconnecting socket missed, from the event log (product-decisions §20): those of the account's own
 * room (roomsFor: an agent's events, a worker's) published after the one the client names in its handshake
 * (`auth.last_event_id`), in order. socket.io's connection state recovery cannot do this across instances with the
 * Redis adapter (a client reconnects to another process, which never held its session), so the log is the source.
 * Read after the socket has joined its room: an event published meanwhile may come both live and replayed (the same
 * event_id), never neither. Only published events: an unpublished one reaches the room live when it is published.
 */
@Injectable()
export class EventReplay {
  constructor(private readonly ds: DataSource) {}

  async since(actor: Actor, lastEventId: string): Promise<Replay> {
    const owner = actor.kind === 'worker' ? 'worker_id' : actor.kind === 'agent' ? 'agent_id' : null;
    if (!owner) return { events: [], found: false, complete: true };
    const [last] = await sqlRows<{ seq: string }>(
      this.ds,
      `SELECT seq::text AS seq FROM events WHERE id = $1 AND ${owner} = $2`,
      [lastEventId, actor.id],
    );
    if (!last) return { events: [], found: false, complete: true };
    const rows = await sqlRows<OutboxEvent>(
      this.ds,
      `SELECT id, seq::text AS seq, name, agent_id, worker_id, task_id, data, created_at FROM events
        WHERE ${owner} = $1 AND seq > $2::bigint AND published_at IS NOT NULL
        ORDER BY seq LIMIT $3`,
      [actor.id, last.seq, REPLAY_LIMIT + 1],
    );
    return {
      events: rows.slice(0, REPLAY_LIMIT).map(toPayload),
      found: true,
      complete: rows.length <= REPLAY_LIMIT,
    };
  }
}
