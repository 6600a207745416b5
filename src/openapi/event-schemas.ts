import type { OpenAPIObject } from '@nestjs/swagger';
import {
  audienceOf,
  type CatalogEventName,
  EVENT_CATALOG,
  type EventAudience,
  isTaskLevel,
} from '../events/event-catalog';

type SchemaObject = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string];

/** The data classes, for SwaggerModule's extraModels (their schemas land in components under the class name). */
export const EVENT_DATA_MODELS = [...new Set(Object.values(EVENT_CATALOG).map((e) => e.data))];

/** The union schema per audience: what an agent's endpoint (and event list) receives, what a worker's socket does. */
export const EVENT_UNIONS: Record<EventAudience, string> = { agent: 'WebhookEvent', worker: 'WorkerEvent' };

/** `task.assigned` -> `TaskAssignedEvent`. */
export function eventSchemaName(name: string): string {
  const words = name.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return `${words.join('')}Event`;
}

const ref = (schema: string) => `#/components/schemas/${schema}`;

/** The envelope every channel sends (see toPayload), with `event` fixed to the one name. */
function envelope(name: CatalogEventName): SchemaObject {
  const entry = EVENT_CATALOG[name];
  const taskLevel = isTaskLevel(name);
  return {
    type: 'object',
    description: entry.when,
    required: ['event', 'event_id', ...(taskLevel ? ['task_id'] : []), 'timestamp', 'data'],
    properties: {
      event: { type: 'string', enum: [name] },
      event_id: {
        type: 'string',
        format: 'uuid',
        description: 'Unique per event, the same on every delivery of it: de-duplicate by it.',
      },
      ...(taskLevel ? { task_id: { type: 'string', format: 'uuid' } } : {}),
      timestamp: { type: 'string', format: 'date-time', description: 'When the event happened.' },
      data: { $ref: ref(entry.data.name) },
    },
  };
}

const DELIVERY_HEADERS: [string, string][] = [
  [
    'Legwork-Signature',
    '`t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `<t>.<raw body>` keyed with the endpoint secret. Refuse a `t` more than 5 minutes from your clock.',
  ],
  [
    'X-Signature',
    '`sha256=<hex>`: HMAC-SHA256 of the raw body keyed with the endpoint secret (the spec’s header).',
  ],
  ['X-Event-Id', 'The event_id: de-duplicate by it.'],
  ['X-Event-Type', 'The event name.'],
  ['X-Event-Timestamp', 'The event’s timestamp.'],
  ['X-Delivery-Id', 'This delivery.'],
  ['X-Delivery-Attempt', 'The attempt number, from 1.'],
];

/** One `x-webhooks` entry per event an agent's endpoint receives (OpenAPI 3.0's extension; 3.1 calls it webhooks). */
function webhookOperation(name: CatalogEventName): Record<string, unknown> {
  return {
    post: {
      operationId: `webhook_${name.replace('.', '_')}`,
      summary: name,
      description: `${EVENT_CATALOG[name].when} Sent as a signed POST to every active endpoint subscribed to it (see the webhooks guide).`,
      security: [],
      parameters: DELIVERY_HEADERS.map(([header, description]) => ({
        name: header,
        in: 'header',
        required: true,
        description,
        schema: { type: 'string' },
      })),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: ref(eventSchemaName(name)) } } },
      },
      responses: {
        '200': {
          description:
            'Received. Answer any 2xx within 5 seconds; anything else is a failed attempt and retried.',
        },
      },
    },
  };
}

/**
 * Adds one schema per event name (`TaskAssignedEvent`, …) and the two unions discriminated on `event`, all from
 * EVENT_CATALOG, to a document built with EVENT_DATA_MODELS as extra models.
 */
export function addEventSchemas(document: OpenAPIObject): void {
  const schemas = (document.components ??= {}).schemas ?? (document.components.schemas = {});
  const names = Object.keys(EVENT_CATALOG) as CatalogEventName[];
  for (const name of names) schemas[eventSchemaName(name)] = envelope(name);
  for (const audience of ['agent', 'worker'] as const) {
    const members = names.filter((n) => audienceOf(n) === audience);
    schemas[EVENT_UNIONS[audience]] = {
      description:
        audience === 'agent'
          ? 'An event as webhooks, the event list and the agent’s socket rooms carry it; `event` tells which.'
          : 'An event about one of the worker’s assignments or its on-call state, sent to its socket room; `event` tells which.',
      oneOf: members.map((n) => ({ $ref: ref(eventSchemaName(n)) })),
      discriminator: {
        propertyName: 'event',
        mapping: Object.fromEntries(members.map((n) => [n, ref(eventSchemaName(n))])),
      },
    };
  }
  (document as unknown as Record<string, unknown>)['x-webhooks'] = Object.fromEntries(
    names.filter((n) => audienceOf(n) === 'agent').map((n) => [n, webhookOperation(n)]),
  );
}
