/**
 * The rows of the tables the events module owns. The `events` outbox row is OutboxEvent (event-catalog.ts), with
 * its bigint seq kept as text.
 */

export type WebhookEndpointStatus = 'active' | 'disabled' | 'deleted';

/** A webhook_endpoints row. The signing secret is stored sealed (common/secret-box.ts), never in the clear. */
export interface WebhookEndpointRow {
  id: string;
  agent_id: string;
  url: string;
  /** Subscribed event names, or '*' for all. */
  events: string[];
  secret_sealed: string;
  status: WebhookEndpointStatus;
  /** Start of the current run of failed deliveries; three days of it disable the endpoint. */
  failing_since: Date | null;
  last_success_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An agent_callback_secrets row: the sealed secret that signs deliveries to an order's callback_url. */
export interface AgentCallbackSecretRow {
  agent_id: string;
  secret_sealed: string;
  created_at: Date;
}

/** A webhook_delivery_attempts row: one HTTP attempt of a delivery. */
export interface WebhookDeliveryAttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: Date;
  finished_at: Date | null;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
}

/**
 * An offer_deliveries row: how one offer (a pending assignment) was sent on one channel. One row per offer and
 * channel; a channel tried again updates its row (attempts counts the tries, sent_at is the latest).
 */
export interface OfferDeliveryRow {
  assignment_id: string;
  channel: 'socket' | 'push' | 'sms';
  status: 'sent' | 'no_connection' | 'failed' | 'skipped';
  sent_at: Date;
  /** Why, for a status other than sent (a reason code, never personal data). */
  detail: string | null;
  attempts: number;
  updated_at: Date;
}
