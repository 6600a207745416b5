import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (product-decisions §20), one registry per process, served on its own port
 * (metrics-server.ts). Names and labels are the contract of deploy/k8s/components/monitoring (the alerts and the
 * dashboard) and docs/operations.md. Every label value comes from a closed set (a route template, a method, a
 * status code, an outcome, a provider name): never an id, a URL or anything about a person.
 *
 * The business counters count in the process where the change is made, after the change is known to be made; sum
 * them over every process (`sum(rate(...))`). Gauges read from the database (escrow held, outbox backlog, queues,
 * ledger check) are exported by one process only (database-gauges.ts), so they are never double-counted.
 */
export const registry = new Registry();

let processMetrics = false;
/**
 * process_*, nodejs_* (heap, GC, handles) and the event-loop lag (nodejs_eventloop_lag_seconds and its percentiles),
 * started with the /metrics listener: importing this module (every service that counts does) starts no monitor.
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
}

/** Seconds; from 5 ms (a cached read) to 10 s (the longest a request may reasonably take). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request arriving to its response finishing, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});

export const tasksCreated = new Counter({
  name: 'legwork_tasks_created_total',
  help: 'Tasks created (escrow held), counted once each; an idempotent replay is not counted again.',
  registers: [registry],
});

/**
 * offered: dispatch offered a slot to a worker; accepted, declined: the worker's answer; expired: the offer lapsed
 * unanswered; withdrawn: the agent cancelled the task while it was offered.
 */
export type OfferOutcome = 'offered' | 'accepted' | 'declined' | 'expired' | 'withdrawn';
export const offers = new Counter({
  name: 'legwork_offers_total',
  help: 'Push offers to workers: made (offered) and how they ended (accepted, declined, expired, withdrawn).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/**
 * Counted where the change is made, inside its transaction (offers are made in the transaction of whatever opened the
 * slot, TaskDispatch): a transaction that then rolls back, or is retried after a deadlock, has counted once too many.
 * Rare enough for a rate; the exact figures are the database's (GET /v1/stats, the assignments table).
 */
export function countOffer(outcome: OfferOutcome): void {
  offers.inc({ outcome });
}

/** delivered: 2xx; failed: any other answer or none (a retry is scheduled, or the delivery is given up). */
export const webhookDeliveries = new Counter({
  name: 'legwork_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (delivered, failed).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookLag = new Histogram({
  name: 'legwork_webhook_lag_seconds',
  help: 'From an event happening to its webhook being delivered (2xx), retries included.',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600],
  registers: [registry],
});

/** applied: verified and applied; refused: failed verification (nothing changed); failed: verified, not applied. */
export type NotificationOutcome = 'applied' | 'refused' | 'failed';
export const paymentNotifications = new Counter({
  name: 'legwork_payment_notifications_total',
  help: 'Payment provider notifications by provider and outcome (applied, refused, failed).',
  labelNames: ['provider', 'outcome'] as const,
  registers: [registry],
});
