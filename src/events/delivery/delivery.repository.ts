import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { sqlExec, sqlRows } from '../../database/sql';

type Db = EntityManager | DataSource;

export type DeliveryKind = 'event' | 'redelivery' | 'test';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface NewDelivery {
  agentId: string;
  endpointId: string | null;
  url: string;
  kind: DeliveryKind;
  eventId: string;
  eventName: string;
  eventSeq: string | null;
  taskId: string | null;
  body: string;
}

/** A webhook_deliveries row: one body to one destination, retried until delivered, failed or cancelled. */
export interface WebhookDeliveryRow {
  id: string;
  agent_id: string;
  /** null for a payment order's callback_url. */
  endpoint_id: string | null;
  url: string;
  kind: DeliveryKind;
  event_id: string;
  event_name: string;
  /** The event's outbox seq (bigint, compared in SQL only). */
  event_seq: string | null;
  task_id: string | null;
  /** Destination and task: deliveries of one key go out in event order. */
  ordering_key: string | null;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  claim_token: string | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
}

export type ClaimedDelivery = Pick<
  WebhookDeliveryRow,
  'id' | 'agent_id' | 'endpoint_id' | 'url' | 'event_id' | 'event_name' | 'body' | 'attempts'
> & {
  claim_token: string;
  /** The endpoint's sealed signing secret (null for a payment order's callback, signed with the agent's). */
  secret_sealed: string | null;
};

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/**
 * SQL of the delivery queue. A delivery is `pending` until delivered, given up (`failed`) or `cancelled`; while
 * pending, `next_attempt_at` says when it may be claimed. Claiming pushes next_attempt_at forward by a lease and
 * stamps a claim token: a runner that dies mid-delivery loses nothing, because the lease runs out and the delivery is
 * claimable again, and a late result from a superseded claim is ignored (its token no longer matches).
 */
export const DeliveryRepository = {
  /**
   * Deliveries with the same ordering key (one destination, one task) go out in event order: only the earliest
   * pending one of a key is claimable, so a task's next event waits while an earlier one is being retried.
   */
  async insert(db: Db, rows: NewDelivery[], now: Date): Promise<string[]> {
    if (rows.length === 0) return [];
    const ids = rows.map(() => randomUUID());
    await sqlExec(
      db,
      `INSERT INTO webhook_deliveries (id, agent_id, endpoint_id, url, kind, event_id, event_name, event_seq, task_id,
                                       ordering_key, body, status, next_attempt_at, created_at)
       SELECT r.id, r.agent_id, r.endpoint_id, r.url, r.kind, r.event_id, r.event_name, r.event_seq, r.task_id,
              CASE WHEN r.task_id IS NULL THEN NULL
                   ELSE COALESCE(r.endpoint_id::text, 'callback:' || r.url) || '|' || r.task_id END,
              r.body, 'pending', $2, $2
         FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, agent_id uuid, endpoint_id uuid, url text, kind text,
                                                   event_id uuid, event_name text, event_seq bigint, task_id uuid,
                                                   body text)`,
      [
        JSON.stringify(
          rows.map((r, i) => ({
            id: ids[i],
            agent_id: r.agentId,
            endpoint_id: r.endpointId,
            url: r.url,
            kind: r.kind,
            event_id: r.eventId,
            event_name: r.eventName,
            event_seq: r.eventSeq,
            task_id: r.taskId,
            body: r.body,
          })),
        ),
        now,
      ],
    );
    return ids;
  },

  /** A test ping: sent at once by the request that asked for it, stored with its single attempt. */
  async insertTestResult(
    db: Db,
    row: NewDelivery,
    outcome: AttemptOutcome,
    now: Date,
    id: string,
  ): Promise<string> {
    await sqlExec(
      db,
      `INSERT INTO webhook_deliveries (id, agent_id, endpoint_id, url, kind, event_id, event_name, body, status,
                                       attempts, last_attempt_at, last_status_code, last_latency_ms, last_error,
                                       delivered_at, finished_at, created_at)
       VALUES ($1, $2, $3, $4, 'test', $5, $6, $7, $8, 1, $9, $10, $11, $12,
               CASE WHEN $8 = 'delivered' THEN $9::timestamptz END, $9, $9)`,
      [
        id,
        row.agentId,
        row.endpointId,
        row.url,
        row.eventId,
        row.eventName,
        row.body,
        outcome.ok ? 'delivered' : 'failed',
        now,
        outcome.statusCode,
        outcome.latencyMs,
        outcome.error,
      ],
    );
    await DeliveryRepository.recordAttempt(db, id, 1, outcome, now);
    return id;
  },

  /**
   * Claims up to `limit` due deliveries in one statement (atomic on its own, so no transaction around it): takes
   * the lease, closes any attempt an earlier claim left open (its runner stopped before recording a result), opens
   * this attempt's row, and returns each delivery with its endpoint's sealed secret, so sending needs no other read.
   */
  async claimDue(db: Db, now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return sqlRows<ClaimedDelivery>(
      db,
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d
          WHERE d.status = 'pending' AND d.next_attempt_at <= $1
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                             WHERE p.ordering_key = d.ordering_key AND p.status = 'pending'
                               AND p.event_seq < d.event_seq)
          ORDER BY d.next_attempt_at, d.event_seq
          LIMIT $2
          FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE webhook_deliveries d
            SET attempts = d.attempts + 1, claim_token = gen_random_uuid(), last_attempt_at = $1,
                next_attempt_at = $1::timestamptz + make_interval(secs => $3::double precision / 1000)
           FROM due WHERE d.id = due.id
         RETURNING d.id, d.agent_id, d.endpoint_id, d.url, d.event_id, d.event_name, d.body, d.attempts,
                   d.claim_token),
       interrupted AS (
         UPDATE webhook_delivery_attempts SET finished_at = $1,
                error = 'interrupted: the runner stopped before recording a result; retried'
          WHERE delivery_id IN (SELECT id FROM claimed) AND finished_at IS NULL),
       opened AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at)
         SELECT id, attempts, $1 FROM claimed)
       SELECT c.*, e.secret_sealed
         FROM claimed c LEFT JOIN webhook_endpoints e ON e.id = c.endpoint_id`,
      [now, limit, leaseMs],
    );
  },

  /**
   * The hot path of a delivery in one statement: the attempt's row, the delivery marked delivered (if this claim is
   * still current) and its endpoint's health. Returns false (changing only the attempt row) when the claim was
   * superseded. Failures take the longer path (recordAttempt, complete, endpoint health) in a transaction.
   */
  async recordSuccess(
    db: Db,
    d: Pick<ClaimedDelivery, 'id' | 'claim_token' | 'attempts'>,
    outcome: AttemptOutcome,
    now: Date,
  ): Promise<boolean> {
    const rows = await sqlRows<{ current: boolean }>(
      db,
      `WITH attempt AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, finished_at, status_code, latency_ms)
         VALUES ($1, $3, $4, $4, $5, $6)
         ON CONFLICT (delivery_id, attempt) DO UPDATE
            SET finished_at = EXCLUDED.finished_at, status_code = EXCLUDED.status_code,
                latency_ms = EXCLUDED.latency_ms, error = NULL),
       done AS (
         UPDATE webhook_deliveries
            SET status = 'delivered', claim_token = NULL, next_attempt_at = NULL, last_status_code = $5,
                last_latency_ms = $6, last_error = NULL, delivered_at = $4, finished_at = $4
          WHERE id = $1 AND claim_token = $2 AND status = 'pending'
         RETURNING endpoint_id),
       health AS (
         UPDATE webhook_endpoints e SET failing_since = NULL, last_success_at = $4, updated_at = $4
           FROM done
          WHERE e.id = done.endpoint_id
            AND (e.failing_since IS NOT NULL OR e.last_success_at IS NULL
                 OR e.last_success_at < $4::timestamptz - interval '1 minute'))
       SELECT EXISTS (SELECT 1 FROM done) AS current`,
      [d.id, d.claim_token, d.attempts, now, outcome.statusCode, outcome.latencyMs],
    );
    return rows[0].current;
  },

  async recordAttempt(
    db: Db,
    deliveryId: string,
    attempt: number,
    outcome: AttemptOutcome,
    now: Date,
  ): Promise<void> {
    await sqlExec(
      db,
      `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, finished_at, status_code, latency_ms, error)
       VALUES ($1, $2, $3, $3, $4, $5, $6)
       ON CONFLICT (delivery_id, attempt) DO UPDATE
          SET finished_at = EXCLUDED.finished_at, status_code = EXCLUDED.status_code,
              latency_ms = EXCLUDED.latency_ms, error = EXCLUDED.error`,
      [deliveryId, attempt, now, outcome.statusCode, outcome.latencyMs, outcome.error],
    );
  },

  /**
   * Records the outcome of a claim; returns false (and changes nothing) when the claim was superseded. `retryAt`
   * null on a failure means the attempts are exhausted.
   */
  async complete(
    db: Db,
    d: Pick<ClaimedDelivery, 'id' | 'claim_token'>,
    outcome: AttemptOutcome,
    retryAt: Date | null,
    now: Date,
  ): Promise<boolean> {
    const status: DeliveryStatus = outcome.ok ? 'delivered' : retryAt ? 'pending' : 'failed';
    const rows = await sqlRows(
      db,
      `UPDATE webhook_deliveries
          SET status = $3, claim_token = NULL, next_attempt_at = $4,
              last_status_code = $5, last_latency_ms = $6, last_error = $7,
              delivered_at = CASE WHEN $3 = 'delivered' THEN $8::timestamptz END,
              finished_at = CASE WHEN $3 <> 'pending' THEN $8::timestamptz END
        WHERE id = $1 AND claim_token = $2 AND status = 'pending'
       RETURNING id`,
      [
        d.id,
        d.claim_token,
        status,
        status === 'pending' ? retryAt : null,
        outcome.statusCode,
        outcome.latencyMs,
        outcome.error,
        now,
      ],
    );
    return rows.length === 1;
  },

  /** Stops every pending delivery of an endpoint (deleted or disabled). */
  async cancelForEndpoint(db: Db, endpointId: string, reason: string, now: Date): Promise<void> {
    await sqlExec(
      db,
      `UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, claim_token = NULL,
              finished_at = $3, last_error = COALESCE(last_error || '; ', '') || $2
        WHERE endpoint_id = $1 AND status = 'pending'`,
      [endpointId, reason, now],
    );
  },
};
