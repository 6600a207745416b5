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

/** Events about one worker's assignment: sent to that worker over WebSocket, never to webhooks. */
export const ASSIGNMENT_EVENTS = [
  'assignment.offered',
  'assignment.declined',
  'assignment.accepted',
  'assignment.started',
  'assignment.submitted',
  'assignment.approved',
  'assignment.rejected',
  'assignment.abandoned',
  'assignment.expired',
  'assignment.cancelled',
] as const;

export type TaskEventName = (typeof TASK_EVENTS)[number];
export type AssignmentEventName = (typeof ASSIGNMENT_EVENTS)[number];
export type OrderEventName = Extract<(typeof PAYMENT_EVENTS)[number], `payment.${string}`>;
export type RefundEventName = Extract<(typeof PAYMENT_EVENTS)[number], `refund.${string}`>;

/** A task changed status (the agent's view). */
export interface TaskEventData {
  task_id: string;
  status: string;
  previous_status: string;
}

/**
 * A photo attached to a submission as the agent sees it (result, task detail, events). The task module stores it
 * with the assignment in this shape; it is declared here, below both, so events can carry it.
 */
export interface PhotoProof {
  url: string;
  /** Capture time from EXIF. */
  taken_at: string | null;
  /** From the photo's position (EXIF GPS, else the device location) to the task location; null when unchecked. */
  distance_meters?: number | null;
  /** The location check of an image (product-decisions §11); null for a file that is not a photo (PDF, video). */
  verification?: PhotoVerification | null;
}

/** A photo as the agent reads it: every field present (null where unknown). */
export interface ShownPhoto extends PhotoProof {
  distance_meters: number | null;
  verification: PhotoVerification | null;
}

/** What the agent is shown about a checked photo (rules: src/task/domain/location-proof.ts). */
export interface PhotoVerification {
  location_source: 'exif' | 'device';
  distance_meters: number;
  /** The device fix's accuracy in metres (device source only). */
  accuracy_m: number | null;
  taken_at: string | null;
  /** Capture time within acceptance..submission; null when the photo has no capture time. */
  taken_during_assignment: boolean | null;
  sha256: string;
  /** The same bytes were part of an earlier submission (any task, any worker). */
  reused: boolean;
  earlier_submissions: number;
  first_submitted_at: string | null;
}

/** The device's own position, sent with a submission when the photo may lack EXIF GPS. */
export interface DeviceLocation {
  latitude: number;
  longitude: number;
  accuracy_m: number;
  captured_at: string;
}

/** One worker's submitted result, as `task.submitted` carries it for review. */
export interface SubmittedWork {
  assignment_id: string;
  worker_id: string;
  status: string;
  submitted_at: string;
  data: Record<string, unknown>;
  worker_notes: string | null;
  photos: ShownPhoto[];
  device_location: DeviceLocation | null;
}

/** `task.submitted`: a worker submitted; every result awaiting the agent's review, oldest submission first. */
export interface TaskSubmittedData extends TaskEventData {
  submissions: SubmittedWork[];
}

/** An assignment changed status (the worker's view); some events add the fields below. */
export interface AssignmentEventData {
  assignment_id: string;
  task_id: string;
  status: string;
}

/** What a push offer shows the worker about the task, so the app can render it without another request. */
export interface OfferedTask {
  task_id: string;
  title: string;
  description: string;
  task_type: string;
  payment_cents: number;
  deadline_at: string;
  required_skills: string[];
  location: { latitude: number; longitude: number; address: string | null; max_distance_meters: number };
  distance_meters: number;
}

/** A payment order changed status. `callback_url` steers delivery and is stripped from the public payload. */
export interface OrderEventData {
  order_id: string;
  task_id: string | null;
  amount: number;
  currency: string;
  payment_method: string;
  status: string;
  transaction_id: string | null;
  callback_url?: string;
}

export interface RefundEventData extends OrderEventData {
  refund_id: string;
}

export interface WebhookDisabledData {
  webhook_id: string;
  url: string;
  reason: string;
  failing_since: string;
  disabled_at: string;
}

/** Every name the outbox holds. */
export type OutboxEventName = WebhookEventName | AssignmentEventName;

/** Assignment events that carry more than the assignment itself. */
interface AssignmentExtras {
  'assignment.offered': { offer_expires_at: string; task: OfferedTask };
  'assignment.accepted': { payment_cents: number };
  'assignment.approved': { payment_cents: number };
  'assignment.rejected': { reason_code: string | null; feedback_text: string | null };
  'assignment.cancelled': { compensation_cents?: number };
}

/** The data each outbox event carries, by name: a misspelt name or a missing field does not compile. */
export type EventData = {
  [N in OutboxEventName]: N extends 'task.submitted'
    ? TaskSubmittedData
    : N extends TaskEventName
      ? TaskEventData
      : N extends OrderEventName
        ? OrderEventData
        : N extends RefundEventName
          ? RefundEventData
          : N extends 'webhook.disabled'
            ? WebhookDisabledData
            : N extends keyof AssignmentExtras
              ? AssignmentEventData & AssignmentExtras[N]
              : AssignmentEventData;
};
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
