import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AgentActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { DeliveryRepository } from '../delivery/delivery.repository';
import { deliveryHeaders } from '../delivery/webhook-delivery';
import { WebhookSender } from '../delivery/webhook-sender';
import {
  CreateWebhookRequest,
  CreatedWebhookResponse,
  DeliveryListResponse,
  DeliveryResponse,
  ListDeliveriesQuery,
  WebhookEndpointResponse,
  WebhookListResponse,
  WebhookTestResponse,
} from '../dtos/webhook.dto';
import { TEST_EVENT } from '../event-catalog';
import type { WebhookEndpointRow } from '../events.rows';
import { UrlSafety } from '../url-safety/url-safety';
import { newSigningSecret } from './signing-secret';
import { SigningSecretsService } from './signing-secrets.service';

/** Endpoints an agent may have at once (deleted ones do not count). */
export const MAX_ENDPOINTS_PER_AGENT = 10;

const ENDPOINT_COLUMNS = `id AS webhook_id, url, events, status, failing_since, last_success_at, disabled_at,
                          disabled_reason, created_at`;

/** An agent's webhook endpoints: register, list, delete, ping, and read the delivery log. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly safety: UrlSafety,
    private readonly secrets: SigningSecretsService,
    private readonly sender: WebhookSender,
  ) {}

  async create(actor: AgentActor, dto: CreateWebhookRequest): Promise<CreatedWebhookResponse> {
    const url = await this.safety.assertRegistrable(dto.url);
    const id = randomUUID();
    const secret = newSigningSecret();
    const now = this.clock.now();
    const row = await inTransaction(this.ds, async (em) => {
      // The agent row lock makes the count-then-insert safe against concurrent creates.
      await sqlExec(em, `SELECT 1 FROM agents WHERE id = $1 FOR UPDATE`, [actor.id]);
      const [{ n }] = await sqlRows<{ n: number }>(
        em,
        `SELECT count(*)::int AS n FROM webhook_endpoints WHERE agent_id = $1 AND status <> 'deleted'`,
        [actor.id],
      );
      if (n >= MAX_ENDPOINTS_PER_AGENT) {
        throw new ApiError(
          'conflict',
          `An agent may have at most ${MAX_ENDPOINTS_PER_AGENT} webhook endpoints.`,
        );
      }
      const rows = await sqlRows<WebhookEndpointResponse>(
        em,
        `INSERT INTO webhook_endpoints (id, agent_id, url, events, secret_sealed, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING ${ENDPOINT_COLUMNS}`,
        [id, actor.id, url, dto.events, this.secrets.sealForEndpoint(id, secret), now],
      );
      return rows[0];
    });
    return { ...row, secret };
  }

  async list(actor: AgentActor): Promise<WebhookListResponse> {
    const data = await sqlRows<WebhookEndpointResponse>(
      this.ds,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
        WHERE agent_id = $1 AND status <> 'deleted' ORDER BY created_at DESC, id DESC`,
      [actor.id],
    );
    return { data };
  }

  /** Deletes the endpoint and cancels its pending deliveries; the delivery history is kept. */
  async remove(actor: AgentActor, id: string): Promise<void> {
    await inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const rows = await sqlRows(
        em,
        `UPDATE webhook_endpoints SET status = 'deleted', deleted_at = $3, updated_at = $3
          WHERE id = $1 AND agent_id = $2 AND status <> 'deleted' RETURNING id`,
        [id, actor.id, now],
      );
      if (rows.length === 0) throw notFound();
      await DeliveryRepository.cancelForEndpoint(em, id, 'endpoint deleted', now);
    });
  }

  /** Sends a `webhook.test` ping now (no retries) and reports what the receiver answered. */
  async test(actor: AgentActor, id: string): Promise<WebhookTestResponse> {
    const ep = await this.owned(actor, id);
    const now = this.clock.now();
    const eventId = randomUUID();
    const body = JSON.stringify({
      event: TEST_EVENT,
      event_id: eventId,
      timestamp: now.toISOString(),
      data: { webhook_id: id, message: 'A test event from Legwork. Answer 2xx within 5 seconds.' },
    });
    const secret = this.secrets.openForEndpoint(id, ep.secret_sealed);
    const deliveryId = randomUUID();
    const headers = deliveryHeaders(
      { id: deliveryId, event_id: eventId, event_name: TEST_EVENT, body, attempts: 1 },
      secret,
    );
    const outcome = await this.sender.send(ep.url, headers, body);
    const row = {
      agentId: actor.id,
      endpointId: id,
      url: ep.url,
      kind: 'test' as const,
      eventId,
      eventName: TEST_EVENT,
      eventSeq: null,
      taskId: null,
      body,
    };
    await inTransaction(this.ds, (em) =>
      DeliveryRepository.insertTestResult(em, row, outcome, this.clock.now(), deliveryId),
    );
    return {
      delivery_id: deliveryId,
      event_id: eventId,
      delivered: outcome.ok,
      status_code: outcome.statusCode,
      latency_ms: outcome.latencyMs,
      error: outcome.error,
    };
  }

  /** The endpoint's deliveries, newest first, each with its attempts. */
  async deliveries(actor: AgentActor, id: string, q: ListDeliveriesQuery): Promise<DeliveryListResponse> {
    await this.owned(actor, id);
    const limit = q.limit ?? 20;
    const params: unknown[] = [id, limit + 1];
    let where = `d.endpoint_id = $1`;
    if (q.status) {
      params.push(q.status);
      where += ` AND d.status = $${params.length}`;
    }
    if (q.starting_after) {
      const cursor = await sqlRows<{ created_at: Date }>(
        this.ds,
        `SELECT created_at FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2`,
        [q.starting_after, id],
      );
      if (!cursor[0]) throw ApiError.field('starting_after', 'is not a delivery of this endpoint');
      params.push(cursor[0].created_at, q.starting_after);
      where += ` AND (d.created_at, d.id) < ($${params.length - 1}, $${params.length})`;
    }
    const rows = await sqlRows<DeliveryResponse>(
      this.ds,
      `SELECT d.id AS delivery_id, d.endpoint_id AS webhook_id, d.event_id, d.event_name AS event, d.kind, d.status,
              d.attempts, d.last_status_code, d.last_latency_ms, d.last_error, d.last_attempt_at,
              CASE WHEN d.status = 'pending' THEN d.next_attempt_at END AS next_retry_at, d.delivered_at, d.created_at,
              COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'started_at', a.started_at,
                                'finished_at', a.finished_at, 'status_code', a.status_code,
                                'latency_ms', a.latency_ms, 'error', a.error) ORDER BY a.attempt)
                          FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_log
         FROM webhook_deliveries d
        WHERE ${where}
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT $2`,
      params,
    );
    const hasMore = rows.length > limit;
    const data = rows.slice(0, limit);
    return { data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1].delivery_id : null };
  }

  private async owned(
    actor: AgentActor,
    id: string,
  ): Promise<Pick<WebhookEndpointRow, 'url' | 'secret_sealed'>> {
    const rows = await sqlRows<Pick<WebhookEndpointRow, 'url' | 'secret_sealed'>>(
      this.ds,
      `SELECT url, secret_sealed FROM webhook_endpoints WHERE id = $1 AND agent_id = $2 AND status <> 'deleted'`,
      [id, actor.id],
    );
    if (!rows[0]) throw notFound();
    return rows[0];
  }
}

function notFound(): ApiError {
  return new ApiError('not_found', 'No such webhook endpoint.');
}
