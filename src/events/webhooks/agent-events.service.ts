import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { DeliveryRepository } from '../delivery/delivery.repository';
import { EventListResponse, ListEventsQuery, RedeliveryResponse } from '../dtos/event.dto';
import { isPaymentEvent, OutboxEvent, subscribes, toPayload, WEBHOOK_EVENTS } from '../event-catalog';
import type { WebhookEndpointRow } from '../events.rows';

/** How far back GET /v1/agent/events reaches. */
export const EVENT_HISTORY_DAYS = 30;

/** The agent's own event history (to reconcile what a webhook missed) and manual redelivery. */
@Injectable()
export class AgentEventsService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async list(actor: AgentActor, q: ListEventsQuery): Promise<EventListResponse> {
    const limit = q.limit ?? 20;
    const since = new Date(this.clock.now().getTime() - EVENT_HISTORY_DAYS * 86_400_000);
    const params: unknown[] = [actor.id, since, limit + 1, readableEvents(actor, q.type)];
    let where = `agent_id = $1 AND created_at >= $2 AND name = ANY($4::text[])`;
    if (q.type) {
      params.push(q.type);
      where += ` AND name = $${params.length}`;
    }
    if (q.task_id) {
      params.push(q.task_id);
      where += ` AND task_id = $${params.length}`;
    }
    if (q.starting_after) {
      const cursor = await sqlRows<Pick<OutboxEvent, 'created_at'>>(
        this.ds,
        `SELECT created_at FROM events WHERE id = $1 AND agent_id = $2`,
        [q.starting_after, actor.id],
      );
      if (!cursor[0]) throw ApiError.field('starting_after', 'is not one of your events');
      params.push(cursor[0].created_at, q.starting_after);
      where += ` AND (created_at, id) < ($${params.length - 1}, $${params.length})`;
    }
    const rows = await sqlRows<Pick<OutboxEvent, 'id' | 'name' | 'task_id' | 'data' | 'created_at'>>(
      this.ds,
      `SELECT id, name, task_id, data, created_at FROM events WHERE ${where}
        ORDER BY created_at DESC, id DESC LIMIT $3`,
      params,
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    return {
      data: page.map((e) => toPayload(e)),
      has_more: hasMore,
      next_cursor: hasMore ? page[page.length - 1].id : null,
    };
  }

  /**
   * Queues the event again for every active endpoint of the agent subscribed to it. The new deliveries carry the
   * same event_id and body, so a receiver that already has the event recognises the duplicate.
   */
  async redeliver(actor: AgentActor, eventId: string): Promise<RedeliveryResponse> {
    return inTransaction(this.ds, async (em) => {
      const events = await sqlRows<OutboxEvent>(
        em,
        `SELECT id, seq::text AS seq, name, agent_id, worker_id, task_id, data, created_at
           FROM events WHERE id = $1 AND agent_id = $2 AND name = ANY($3::text[])`,
        [eventId, actor.id, [...WEBHOOK_EVENTS]],
      );
      const e = events[0];
      if (!e) throw new ApiError('not_found', 'No such event.');
      const endpoints = await sqlRows<Pick<WebhookEndpointRow, 'id' | 'url' | 'events'>>(
        em,
        `SELECT id, url, events FROM webhook_endpoints WHERE agent_id = $1 AND status = 'active'
          ORDER BY created_at, id`,
        [actor.id],
      );
      const targets = endpoints.filter((ep) => subscribes(ep.events, e.name));
      const body = JSON.stringify(toPayload(e));
      const ids = await DeliveryRepository.insert(
        em,
        targets.map((ep) => ({
          agentId: actor.id,
          endpointId: ep.id,
          url: ep.url,
          kind: 'redelivery' as const,
          eventId: e.id,
          eventName: e.name,
          eventSeq: e.seq,
          taskId: e.task_id,
          body,
        })),
        this.clock.now(),
      );
      return {
        event_id: e.id,
        deliveries: targets.map((ep, i) => ({ delivery_id: ids[i], webhook_id: ep.id })),
      };
    });
  }
}

/**
 * The event names this caller may read: the route needs task:read; payment and refund events carry amounts and
 * order ids, which the payment routes guard with payment:read, so a key without it does not see them (and asking
 * for one by type is refused, rather than answered with an empty page that reads as "none happened").
 */
function readableEvents(actor: AgentActor, type: string | undefined): string[] {
  if (actor.permissions.includes('payment:read')) return [...WEBHOOK_EVENTS];
  if (type && isPaymentEvent(type)) {
    throw new ApiError('insufficient_permissions', 'This API key lacks the payment:read permission.', {
      required_permission: 'payment:read',
    });
  }
  return WEBHOOK_EVENTS.filter((name) => !isPaymentEvent(name));
}
