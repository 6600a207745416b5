import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { JOBS_DATA_SOURCE } from '../../database/data-source';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { writeEvent } from '../outbox';
import { SigningSecretsService } from '../webhooks/signing-secrets.service';
import { CLAIM_LEASE_MS, DISABLE_AFTER_MS, retryDelayMs } from './backoff';
import { AttemptOutcome, ClaimedDelivery, DeliveryRepository } from './delivery.repository';
import { drainPipelined } from './pipeline';
import { signBody, signTimestamped, WEBHOOK_USER_AGENT, WebhookSender } from './webhook-sender';
import { webhookDeliveries, webhookLag } from '../../observability/metrics';
import { traced } from '../../observability/tracing';

/** How many deliveries one claim takes at most. */
export const DELIVERY_BATCH = 20;
/**
 * How many deliveries one runner has in flight at once. Sending holds no database connection (only the secret
 * lookup and the result transaction do), so this may exceed the pool; it bounds sockets and memory per process.
 */
export const DELIVERY_CONCURRENCY = 32;

/**
 * Sends due webhook deliveries: claim (SKIP LOCKED, with a lease), POST with signature, record the outcome, schedule
 * the retry or give up, and keep the endpoint's health: an endpoint with no successful delivery for three days
 * after its first failure is disabled, its pending deliveries cancelled, and the agent told by `webhook.disabled`.
 * Safe to run in any number of processes at once.
 */
@Injectable()
export class WebhookDelivery {
  constructor(
    @InjectDataSource(JOBS_DATA_SOURCE) private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
    private readonly secrets: SigningSecretsService,
    private readonly logger: Logger,
  ) {}

  /**
   * Runs until nothing is due, with up to DELIVERY_CONCURRENCY deliveries in flight: a slot freed by a finished
   * delivery is refilled at once, instead of each batch waiting for its slowest receiver. Loops until a claim finds
   * nothing and nothing is in flight (not merely a short batch): a delivery that succeeds releases the next event of
   * its task for the same destination, which should go out at once. When `keepClaiming` turns false (shutdown) it
   * claims nothing more and returns once the deliveries in flight have recorded their outcome.
   */
  drain(keepClaiming?: () => boolean): Promise<number> {
    return drainPipelined(
      (limit) => this.claim(limit),
      (d) => this.attempt(d),
      DELIVERY_BATCH,
      DELIVERY_CONCURRENCY,
      keepClaiming,
    );
  }

  claim(limit = DELIVERY_BATCH): Promise<ClaimedDelivery[]> {
    return DeliveryRepository.claimDue(this.ds, this.clock.now(), limit, CLAIM_LEASE_MS);
  }

  /** Sends one claimed delivery and records the outcome. Never throws: a failure becomes a scheduled retry. */
  async attempt(d: ClaimedDelivery): Promise<AttemptOutcome> {
    let outcome: AttemptOutcome;
    try {
      const secret = await this.secrets.forDelivery(d);
      // A span of its own while tracing is on (the POST is its child): deliveries run on a timer, outside requests.
      outcome = await traced(
        'webhook.deliver',
        { 'legwork.event_name': d.event_name, 'legwork.delivery_attempt': d.attempts },
        () => this.sender.send(d.url, deliveryHeaders(d, secret), d.body),
      );
    } catch (err) {
      this.logger.error({ err, delivery_id: d.id }, 'webhook delivery could not be attempted');
      outcome = { ok: false, statusCode: null, latencyMs: 0, error: 'internal error before sending' };
    }
    try {
      await this.record(d, outcome);
    } catch (err) {
      // The lease runs out and the delivery is retried: at-least-once holds even when recording fails.
      this.logger.error({ err, delivery_id: d.id }, 'webhook delivery result could not be recorded');
    }
    this.count(d, outcome);
    return outcome;
  }

  /** legwork_webhook_deliveries_total, and the lag from the event to its delivery (the body's `timestamp`). */
  private count(d: ClaimedDelivery, outcome: AttemptOutcome): void {
    webhookDeliveries.inc({ outcome: outcome.ok ? 'delivered' : 'failed' });
    if (!outcome.ok) return;
    const at = Date.parse((JSON.parse(d.body) as { timestamp?: string }).timestamp ?? '');
    if (Number.isFinite(at)) webhookLag.observe(Math.max(0, (this.clock.now().getTime() - at) / 1000));
  }

  private async record(d: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    if (outcome.ok) {
      await DeliveryRepository.recordSuccess(this.ds, d, outcome, this.clock.now());
      return;
    }
    await inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      await DeliveryRepository.recordAttempt(em, d.id, d.attempts, outcome, now);
      const delay = outcome.ok ? null : retryDelayMs(d.attempts);
      const retryAt = delay === null ? null : new Date(now.getTime() + delay);
      const current = await DeliveryRepository.complete(em, d, outcome, retryAt, now);
      if (current && d.endpoint_id) await this.endpointHealth(em, d.endpoint_id, outcome.ok, now);
    });
  }

  private async endpointHealth(em: EntityManager, endpointId: string, ok: boolean, now: Date): Promise<void> {
    if (ok) {
      await sqlExec(
        em,
        `UPDATE webhook_endpoints SET failing_since = NULL, last_success_at = $2, updated_at = $2
          WHERE id = $1 AND (failing_since IS NOT NULL OR last_success_at IS NULL
                             OR last_success_at < $2::timestamptz - interval '1 minute')`,
        [endpointId, now],
      );
      return;
    }
    const [ep] = await sqlRows<{ failing_since: Date }>(
      em,
      `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2), updated_at = $2
        WHERE id = $1 AND status = 'active' RETURNING failing_since`,
      [endpointId, now],
    );
    if (ep && now.getTime() - new Date(ep.failing_since).getTime() >= DISABLE_AFTER_MS) {
      await this.disable(em, endpointId, now);
    }
  }

  private async disable(em: EntityManager, endpointId: string, now: Date): Promise<void> {
    const reason = 'every delivery failed for 3 days';
    const [ep] = await sqlRows<{ agent_id: string; url: string; failing_since: Date }>(
      em,
      `UPDATE webhook_endpoints SET status = 'disabled', disabled_at = $2, disabled_reason = $3, updated_at = $2
        WHERE id = $1 AND status = 'active' RETURNING agent_id, url, failing_since`,
      [endpointId, now, reason],
    );
    if (!ep) return;
    await DeliveryRepository.cancelForEndpoint(em, endpointId, 'endpoint disabled', now);
    await writeEvent(em, {
      name: 'webhook.disabled',
      agentId: ep.agent_id,
      data: {
        webhook_id: endpointId,
        url: ep.url,
        reason,
        failing_since: new Date(ep.failing_since).toISOString(),
        disabled_at: now.toISOString(),
      },
      at: now,
    });
    this.logger.warn({ webhook_id: endpointId, agent_id: ep.agent_id }, 'webhook endpoint disabled');
  }
}

/**
 * The headers of one attempt. `signedAt` is the wall-clock time of this attempt, not the Clock's nor the event's:
 * receivers compare it with their own clock, and a retry hours later must still pass their tolerance.
 */
export function deliveryHeaders(
  d: Pick<ClaimedDelivery, 'id' | 'event_id' | 'event_name' | 'body' | 'attempts'>,
  secret: string,
  signedAt: Date = new Date(),
): Record<string, string> {
  const timestamp = (JSON.parse(d.body) as { timestamp?: string }).timestamp ?? '';
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    'X-Signature': signBody(secret, d.body),
    'Legwork-Signature': signTimestamped(secret, d.body, signedAt),
    'X-Event-Id': d.event_id,
    'X-Event-Type': d.event_name,
    'X-Event-Timestamp': timestamp,
    'X-Delivery-Id': d.id,
    'X-Delivery-Attempt': String(d.attempts),
  };
}
