import {
  AssignmentCancelledData,
  AssignmentEventData,
  AssignmentOfferedData,
  AssignmentPaidData,
  AssignmentRejectedData,
  DisputeEventData,
  MessageCreatedData,
  OrderEventData,
  RefundEventData,
  TaskEventData,
  TaskFailedData,
  TaskSubmittedData,
  WebhookDisabledData,
  WorkerAvailabilityData,
  WorkerProofReviewDecidedData,
  WorkerReviewDecidedData,
  WebhookTestData,
} from './event-data';

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

/**
 * Messages between an agent and the worker of one assignment: to the agent (webhooks, its events list, its socket
 * room) and to that worker's socket room, never to the task's room (other workers of the task hold it too).
 */
export const MESSAGE_EVENTS = ['message.created'] as const;

/**
 * A worker's dispute of a rejection (product-decisions §19): like messages, to the agent (webhooks, events list,
 * socket) and to that worker's socket room only.
 */
export const DISPUTE_EVENTS = ['dispute.opened', 'dispute.answered', 'dispute.decided'] as const;

/** The closed list an agent may subscribe a webhook endpoint to (plus "*" for all of them). */
export const WEBHOOK_EVENTS = [
  ...TASK_EVENTS,
  ...PAYMENT_EVENTS,
  ...MESSAGE_EVENTS,
  ...DISPUTE_EVENTS,
  'webhook.disabled',
] as const;
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

/**
 * Events about the worker's own account: the on-call state (so every open app shows the server's state; the job
 * that offers a worker going on call the best open task nearby reads it) and what a person decided about them
 * (product-decisions §18: the worker is told why). Sent to that worker over WebSocket.
 */
export const WORKER_EVENTS = [
  'worker.on_call',
  'worker.off_call',
  'worker.proof_review_decided',
  'worker.review_decided',
] as const;

/**
 * The worker's money events (product-decisions §19): a result paid (or a "could not do it" report accepted), rejected
 * with the agent's reason (a confirmed fraud rejects this way too), a cancellation's compensation, a dispute
 * decided. Each one that moves or refuses the worker's money becomes a worker notification, sent through the offer
 * ladder (notifications module); a cancellation without compensation (a withdrawn offer) does not.
 */
export const WORKER_MONEY_EVENTS = [
  'assignment.approved',
  'assignment.rejected',
  'assignment.cancelled',
  'dispute.decided',
] as const;

export function isWorkerMoneyEvent(name: string): boolean {
  return (WORKER_MONEY_EVENTS as readonly string[]).includes(name);
}

/** Assignment events after which the worker no longer holds the task: it stops watching the task's events. */
export const ASSIGNMENT_ENDING_EVENTS: readonly AssignmentEventName[] = [
  'assignment.declined',
  'assignment.approved',
  'assignment.rejected',
  'assignment.abandoned',
  'assignment.expired',
  'assignment.cancelled',
];

export type TaskEventName = (typeof TASK_EVENTS)[number];
export type AssignmentEventName = (typeof ASSIGNMENT_EVENTS)[number];
export type WorkerEventName = (typeof WORKER_EVENTS)[number];
export type OrderEventName = Extract<(typeof PAYMENT_EVENTS)[number], `payment.${string}`>;
export type RefundEventName = Extract<(typeof PAYMENT_EVENTS)[number], `refund.${string}`>;

/** Every name the outbox holds. */
export type OutboxEventName = WebhookEventName | AssignmentEventName | WorkerEventName;

/** Sent only by POST /v1/agent/webhooks/{id}/test, never stored in the outbox. */
export const TEST_EVENT = 'webhook.test';
export type TestEventName = typeof TEST_EVENT;

/** Who receives an event: the agent (webhooks, the event list, its socket rooms) or the worker (its socket room). */
export type EventAudience = 'agent' | 'worker';

interface CatalogEntry {
  /** The class of the event's `data`: its TypeScript type and its OpenAPI schema. */
  data: new () => object;
  /** When it is sent, for the reference. */
  when: string;
}

const taskEntry = (status: string) => ({
  data: TaskEventData,
  when: `The task's status became \`${status}\`.`,
});
/** Generic in the class, so each entry keeps its own data type (never widened to CatalogEntry's `object`). */
const assignmentEntry = <D extends CatalogEntry['data']>(when: string, data: D) => ({ data, when });

/**
 * The one table of events: name, when it is sent and the class of its data. writeEvent's types (EventData), the
 * OpenAPI schemas (one per name, in the WebhookEvent and WorkerEvent unions) and the payload reference in
 * docs/webhooks.md are all derived from it.
 */
export const EVENT_CATALOG = {
  'task.assigned': taskEntry('assigned'),
  'task.started': taskEntry('in_progress'),
  'task.submitted': {
    data: TaskSubmittedData,
    when: "The task's status became `submitted`, or a worker submitted while others still work (then `status` stays as it was); `submissions` lists every result awaiting review.",
  },
  'task.completed': taskEntry('completed'),
  'task.failed': {
    data: TaskFailedData,
    when: 'The task\'s status became `failed`; `unable` says what accepted "could not do it" reports paid.',
  },
  'task.cancelled': { data: TaskEventData, when: 'You cancelled the task.' },
  'payment.created': { data: OrderEventData, when: 'A payment order was created.' },
  'payment.completed': { data: OrderEventData, when: 'A payment order was paid; your balance is credited.' },
  'payment.failed': { data: OrderEventData, when: 'A payment order failed.' },
  'payment.expired': { data: OrderEventData, when: 'A payment order expired unpaid.' },
  'refund.created': { data: RefundEventData, when: 'A refund was requested.' },
  'refund.completed': { data: RefundEventData, when: 'A refund was paid back.' },
  'refund.failed': { data: RefundEventData, when: 'A refund failed; the amount stays with you.' },
  'webhook.disabled': {
    data: WebhookDisabledData,
    when: 'One of your endpoints was disabled after three days without a successful delivery.',
  },
  'message.created': {
    data: MessageCreatedData,
    when: 'The agent, the worker or an operator wrote in the thread of one of your assignments (GET /v1/tasks/{id}/messages); the worker hears it on their socket too.',
  },
  'dispute.opened': {
    data: DisputeEventData,
    when: 'The worker disputed a rejection of yours; answer within 48 hours (POST /v1/tasks/{id}/disputes/{dispute_id}/response). The worker hears it on their socket too.',
  },
  'dispute.answered': {
    data: DisputeEventData,
    when: 'You answered a dispute; an operator decides next. The worker hears it on their socket too.',
  },
  'dispute.decided': {
    data: DisputeEventData,
    when: 'An operator decided a dispute: upheld (nothing moves), overturned (paid from your balance as approval would have) or split. The task’s status does not change. The worker hears it on their socket too.',
  },
  'webhook.test': { data: WebhookTestData, when: 'Only from POST /v1/agent/webhooks/{id}/test.' },
  'assignment.offered': assignmentEntry('A slot was offered to the worker.', AssignmentOfferedData),
  'assignment.declined': assignmentEntry('The worker declined the offer.', AssignmentEventData),
  'assignment.accepted': assignmentEntry('The worker took a slot.', AssignmentPaidData),
  'assignment.started': assignmentEntry('The worker started work.', AssignmentEventData),
  'assignment.submitted': assignmentEntry('The worker submitted a result.', AssignmentEventData),
  'assignment.approved': assignmentEntry('The result was approved and paid.', AssignmentPaidData),
  'assignment.rejected': assignmentEntry(
    'The result was rejected; the agent’s reason and words come with it.',
    AssignmentRejectedData,
  ),
  'assignment.abandoned': assignmentEntry('The worker gave the assignment up.', AssignmentEventData),
  'assignment.expired': assignmentEntry(
    'The offer lapsed, or the deadline passed before a result.',
    AssignmentEventData,
  ),
  'assignment.cancelled': assignmentEntry('The agent cancelled the task.', AssignmentCancelledData),
  'worker.on_call': {
    data: WorkerAvailabilityData,
    when: 'The worker went on call, or reported a fresh position while on call after the last one had grown too old to match on: offers can reach them again.',
  },
  'worker.off_call': {
    data: WorkerAvailabilityData,
    when: 'The worker turned being on call off, or was taken off call by a suspension.',
  },
  'worker.proof_review_decided': {
    data: WorkerProofReviewDecidedData,
    when: 'A person decided one of the worker’s held submissions (confirmed fraud or cleared), saying why.',
  },
  'worker.review_decided': {
    data: WorkerReviewDecidedData,
    when: 'An operator answered the worker’s request to look again (upheld or reversed).',
  },
} as const satisfies Record<OutboxEventName | TestEventName, CatalogEntry>;

export type CatalogEventName = keyof typeof EVENT_CATALOG;

export function audienceOf(name: CatalogEventName): EventAudience {
  return name.startsWith('assignment.') || name.startsWith('worker.') ? 'worker' : 'agent';
}

/** Whether the payload carries `task_id` at the top level (see toPayload). */
export function isTaskLevel(name: string): boolean {
  return (
    name.startsWith('task.') ||
    name.startsWith('assignment.') ||
    name.startsWith('message.') ||
    name.startsWith('dispute.')
  );
}

/** Outbox data fields that steer delivery and are stripped from the public payload (see toPayload). */
interface InternalFields {
  /** The payment order's callback_url (payment and refund events). */
  callback_url?: string;
}

/** The data each outbox event carries, by name, from EVENT_CATALOG: a misspelt name or a missing field does not compile. */
export type EventData = {
  [N in OutboxEventName]: InstanceType<(typeof EVENT_CATALOG)[N]['data']> &
    (N extends OrderEventName | RefundEventName ? InternalFields : unknown);
};
export const ALL_EVENTS = '*';
export const SUBSCRIBABLE = [...WEBHOOK_EVENTS, ALL_EVENTS] as const;

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
  if (isTaskLevel(e.name) && e.task_id)
    return { event: e.name, event_id: e.id, task_id: e.task_id, timestamp, data };
  return { event: e.name, event_id: e.id, timestamp, data };
}

/** The order's callback URL a payment event may carry (set by the payment module), if any. */
export function callbackUrlOf(e: Pick<OutboxEvent, 'name' | 'data'>): string | null {
  const url = e.data.callback_url;
  return isPaymentEvent(e.name) && typeof url === 'string' && url.length > 0 ? url : null;
}
