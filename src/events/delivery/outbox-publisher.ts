import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { JOBS_DATA_SOURCE } from '../../database/data-source';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { callbackUrlOf, isWebhookEvent, OutboxEvent, subscribes, toPayload } from '../event-catalog';
import type { WebhookEndpointRow } from '../events.rows';
import { SocketFanout } from '../gateway/socket-fanout';
import { UnsafeDestinationError, UrlSafety } from '../url-safety/url-safety';
import { DeliveryRepository, NewDelivery } from './delivery.repository';
import { OutboxSubscribers } from './outbox-subscribers';

/** Serialises publishers across every process (pg_advisory_xact_lock key). */
const PUBLISHER_LOCK = 7_304_110_001;
export const PUBLISH_BATCH = 200;

type EndpointRow = Pick<WebhookEndpointRow, 'id' | 'agent_id' | 'url' | 'events'>;

/**
 * Turns committed outbox rows into deliveries and WebSocket messages. One publisher runs at a time (an advisory
 * lock; the work is a few inserts per batch), so deliveries are created in event order and an event is published
 * once: its deliveries and `published_at` commit together. WebSocket messages go out after that commit; a crash in
 * between loses those messages (sockets are best effort; GET /v1/agent/events is the record), never a webhook.
 */
@Injectable()
export class OutboxPublisher {
  constructor(
    @InjectDataSource(JOBS_DATA_SOURCE) private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly fanout: SocketFanout,
    private readonly safety: UrlSafety,
    private readonly logger: Logger,
    private readonly subscribers: OutboxSubscribers,
  ) {}

  /** Publishes up to `limit` events in seq order; returns how many. */
  async publishBatch(limit = PUBLISH_BATCH): Promise<number> {
    const events = await inTransaction(this.ds, async (em) => {
      await sqlExec(em, `SELECT pg_advisory_xact_lock($1)`, [PUBLISHER_LOCK]);
      const rows = await sqlRows<OutboxEvent>(
        em,
        `SELECT id, seq::text AS seq, name, agent_id, worker_id, task_id, data, created_at
           FROM events WHERE published_at IS NULL ORDER BY seq LIMIT $1`,
        [limit],
      );
      if (rows.length === 0) return rows;
      const now = this.clock.now();
      await DeliveryRepository.insert(em, await this.plan(em, rows), now);
      await this.subscribers.notify(em, rows);
      await sqlExec(em, `UPDATE events SET published_at = $2 WHERE id = ANY($1::uuid[])`, [
        rows.map((r) => r.id),
        now,
      ]);
      return rows;
    });
    this.fanout.emit(events);
    return events.length;
  }

  /** Publishes until the outbox is empty. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.publishBatch();
      total += n;
      if (n < PUBLISH_BATCH) return total;
    }
  }

  /** One delivery per active endpoint of the event's agent subscribed to it, plus the order's callback URL. */
  private async plan(em: EntityManager, events: OutboxEvent[]): Promise<NewDelivery[]> {
    const agentIds = [
      ...new Set(events.filter((e) => e.agent_id && isWebhookEvent(e.name)).map((e) => e.agent_id!)),
    ];
    const endpoints = agentIds.length
      ? await sqlRows<EndpointRow>(
          em,
          `SELECT id, agent_id, url, events FROM webhook_endpoints
            WHERE agent_id = ANY($1::uuid[]) AND status = 'active' ORDER BY created_at, id`,
          [agentIds],
        )
      : [];
    const out: NewDelivery[] = [];
    for (const e of events) {
      if (!e.agent_id || !isWebhookEvent(e.name)) continue;
      const body = JSON.stringify(toPayload(e));
      const base = {
        agentId: e.agent_id,
        kind: 'event' as const,
        eventId: e.id,
        eventName: e.name,
        eventSeq: e.seq,
        taskId: e.task_id,
        body,
      };
      for (const ep of endpoints) {
        if (ep.agent_id === e.agent_id && subscribes(ep.events, e.name))
          out.push({ ...base, endpointId: ep.id, url: ep.url });
      }
      const callback = this.callbackUrl(e);
      if (callback) out.push({ ...base, endpointId: null, url: callback });
    }
    return out;
  }

  private callbackUrl(e: OutboxEvent): string | null {
    const url = callbackUrlOf(e);
    if (!url) return null;
    try {
      return this.safety.parse(url).toString();
    } catch (err) {
      if (!(err instanceof UnsafeDestinationError)) throw err;
      this.logger.warn(
        { event_id: e.id, reason: err.message },
        'order callback_url refused; no callback delivery',
      );
      return null;
    }
  }
}
