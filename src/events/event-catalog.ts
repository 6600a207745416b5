/**
 * The events Legwork publishes, and the one place that turns an outbox row into the payload every channel
 * (webhook body, WebSocket message, the events list) carries. Keep the key order stable: receivers verify the
 * signature over the exact bytes.
 */
export const TASK_EVENTS = [
  'task.assigned',
  'task.started',
  'task.submitted',
  'task.completed',
  'task.failed',
  'task.cancelled',
] as const;

export const PAYMENT_EVENTS = [
  'payment.created',
  'payment.completed',
  'payment.failed',
  'payment.expired',
  'refund.created',
  'refund.completed',
  'refund.failed',
] as const;

/** The closed list an agent may subscribe a webhook endpoint to (plus "*" for all of them). */
export const WEBHOOK_EVENTS = [...TASK_EVENTS, ...PAYMENT_EVENTS, 'webhook.disabled'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
export const ALL_EVENTS = '*';
export const SUBSCRIBABLE = [...WEBHOOK_EVENTS, ALL_EVENTS] as const;

/** Sent only by POST /v1/agent/webhooks/{id}/test, never stored in the outbox. */
export const TEST_EVENT = 'webhook.test';

export function isWebhookEvent(name: string): name is WebhookEventName {
  return (WEBHOOK_EVENTS as readonly string[]).includes(name);
}

export function isPaymentEvent(name: string): boolean {
  return (PAYMENT_EVENTS as readonly string[]).includes(name);
}

export function subscribes(events: readonly string[], name: string): boolean {
  return isWebhookEvent(name) && (events.includes(ALL_EVENTS) || events.includes(name));
}

/** A row of the `events` outbox. */
export interface OutboxEvent {
  id: string;
  seq: string;
  name: string;
  agent_id: string | null;
  worker_id: string | null;
  task_id: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}

export interface EventPayload {
  event: string;
  event_id: string;
  task_id?: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** Fields of the outbox data that steer delivery and are not part of the public payload. */
const INTERNAL_FIELDS = ['callback_url'];

/**
 * Task and assignment events carry `task_id` at the top level (`{event, event_id, task_id, timestamp, data}`); payment
 * and webhook events do not (`{event, event_id, timestamp, data}`, with any task_id inside data), as the spec shows.
 */
export function toPayload(
  e: Pick<OutboxEvent, 'id' | 'name' | 'task_id' | 'data' | 'created_at'>,
): EventPayload {
  const data = { ...e.data };
  for (const field of INTERNAL_FIELDS) delete data[field];
  const timestamp = new Date(e.created_at).toISOString();
  const taskLevel = e.name.startsWith('task.') || e.name.startsWith('assignment.');
  if (taskLevel && e.task_id) return { event: e.name, event_id: e.id, task_id: e.task_id, timestamp, data };
  return { event: e.name, event_id: e.id, timestamp, data };
}

/** The order's callback URL a payment event may carry (set by the payment module), if any. */
export function callbackUrlOf(e: Pick<OutboxEvent, 'name' | 'data'>): string | null {
  const url = e.data.callback_url;
  return isPaymentEvent(e.name) && typeof url === 'string' && url.length > 0 ? url : null;
}
