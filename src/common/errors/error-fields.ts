/**
 * The context fields an error may carry beside `code` and `message`: each one's JSON schema (OpenAPI 3.0 subset),
 * which is both the error schema's property and, through ValueOf, the TypeScript type ApiError accepts for it.
 * Which codes carry which fields is in error-catalog.ts.
 */

/** A context field: its JSON schema (OpenAPI 3.0 subset) and what it means. */
interface FieldSpec {
  schema: Readonly<Record<string, unknown>>;
  description: string;
}

const integer = { type: 'integer' } as const;
const text = { type: 'string' } as const;
const uuid = { type: 'string', format: 'uuid' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const texts = { type: 'array', items: { type: 'string' } } as const;

export const ERROR_FIELDS = {
  details: {
    schema: {
      oneOf: [
        {
          type: 'array',
          items: {
            type: 'object',
            properties: { field: { type: 'string' }, message: { type: 'string' } },
            required: ['field', 'message'],
          },
        },
        { type: 'string' },
      ],
    },
    description:
      'The problems as [{field, message}] (nested fields dotted, e.g. location.latitude); for invalid_json the parser message, for invalid_body what could not be read.',
  },
  field: { schema: text, description: 'The multipart field of the refused file.' },
  current_status: { schema: text, description: 'The status that refused the action.' },
  assignment_status: { schema: text, description: 'The status of the assignment concerned.' },
  deadline_at: { schema: dateTime, description: 'The deadline that has passed.' },
  retry_after: {
    schema: integer,
    description: 'Seconds to wait before retrying (also in the Retry-After header).',
  },
  balance_cents: { schema: integer, description: 'The available balance, in cents.' },
  required_cents: { schema: integer, description: 'What the action needs, in cents.' },
  period: {
    schema: { type: 'string', enum: ['daily', 'monthly'] },
    description: 'The spend-cap period that would be exceeded (China time day or month).',
  },
  cap_cents: { schema: integer, description: 'The spend cap of that period, in cents.' },
  counted_cents: {
    schema: integer,
    description:
      'What counts against the cap so far in the period (task totals less later refunds), in cents.',
  },
  remaining_cents: { schema: integer, description: 'What may still be spent in the period, in cents.' },
  resets_at: { schema: dateTime, description: 'When the period ends and the count starts again from zero.' },
  ceiling_cents: {
    schema: integer,
    description: 'The most one task approved over the spend cap may cost, in cents (0: none may be).',
  },
  required_permission: { schema: text, description: 'The permission the API key lacks.' },
  expected_amount: { schema: { type: 'number' }, description: 'The amount the task costs.' },
  provided_amount: { schema: { type: 'number' }, description: 'The amount the request gave.' },
  currency: { schema: text, description: 'The currency of both amounts.' },
  refund_id: { schema: { ...uuid, nullable: true }, description: 'The refund that emptied the order.' },
  refunded_at: {
    schema: { ...dateTime, nullable: true },
    description: 'When that refund completed (or was requested, while it is pending).',
  },
  available_methods: { schema: texts, description: 'The payment methods this server offers.' },
  daily_limit_cents: { schema: integer, description: "The agent's daily payment limit, in cents." },
  used_today_cents: { schema: integer, description: 'What the agent has paid today, in cents.' },
  requested_cents: { schema: integer, description: 'The amount of this payment, in cents.' },
  attempts_remaining: { schema: integer, description: 'Wrong tries left before the code stops working.' },
  distance_meters: {
    schema: integer,
    description: "How far the photo's position (EXIF GPS or device location) is from the task.",
  },
  location_source: {
    schema: { type: 'string', enum: ['exif', 'device'] },
    description: "Where the photo's position came from: its EXIF GPS or the device location sent with it.",
  },
  age_seconds: { schema: integer, description: 'How old the device location was when submitted.' },
  max_age_seconds: { schema: integer, description: 'The oldest device location accepted.' },
  accuracy_m: { schema: { type: 'number' }, description: 'The accuracy the device reported, in metres.' },
  max_accuracy_m: { schema: integer, description: 'The largest accuracy radius accepted, in metres.' },
  max_distance_meters: { schema: integer, description: 'The largest distance accepted.' },
  consent_kind: { schema: text, description: 'The consent that is missing (`precise_location`).' },
  consent_version: { schema: integer, description: 'The version of that consent asked now.' },
  missing_skills: { schema: texts, description: 'The required skills the worker lacks.' },
  min_reputation: { schema: { type: 'number' }, description: 'The reputation the task requires.' },
  worker_reputation: { schema: { type: 'number' }, description: "The worker's reputation." },
  task_id: { schema: uuid, description: 'The task created earlier with this idempotency_key.' },
  in_progress: {
    schema: { type: 'boolean' },
    description: 'True when the first request with this key is still running: retry later.',
  },
  max_workers: { schema: integer, description: 'The number of slots of the task.' },
  assignment_id: { schema: uuid, description: 'Your assignment on this task.' },
  suspension_id: { schema: uuid, description: 'The suspension or withdrawal pause that refused the action.' },
  review_id: { schema: uuid, description: 'The review request already open for this subject.' },
  limit: { schema: integer, description: 'How many unfinished assignments the worker may hold.' },
  live_assignments: { schema: integer, description: 'How many the worker holds now.' },
  max_bytes: { schema: integer, description: 'The size limit per file, in bytes.' },
  max_concurrent_uploads: { schema: integer, description: 'How many uploads a worker may have in flight.' },
  daily_quota_bytes: { schema: integer, description: 'How many bytes a worker may upload per UTC day.' },
  used_today_bytes: {
    schema: integer,
    description: 'What the worker has uploaded since 00:00 UTC, in bytes.',
  },
  detected_type: {
    schema: { ...text, nullable: true },
    description: 'The type the content was recognised as (null if none).',
  },
  accepted_types: { schema: texts, description: 'The media types accepted.' },
  max_concurrent_tasks: { schema: integer, description: 'How many live tasks the agent may have.' },
  active_tasks: { schema: integer, description: 'How many live tasks the agent has now.' },
  order_id: {
    schema: text,
    description: 'The payment order the provider could not check out; create a new order to retry.',
  },
  retry_allowed: { schema: { type: 'boolean' }, description: 'Whether retrying can succeed.' },
  provider_code: {
    schema: { ...text, nullable: true },
    description: "The provider's own error code, when it gave one.",
  },
  database: { schema: text, description: 'Whether the database answers: `up` or `down`.' },
  redis: { schema: text, description: 'Whether Redis answers: `up`, `down` or `not_configured`.' },
  draining: { schema: { type: 'boolean' }, description: 'True while this instance is shutting down.' },
  dispute_id: { schema: uuid, description: 'The dispute already opened on this assignment.' },
  report_id: { schema: uuid, description: 'Your open report of this task.' },
  closed_at: { schema: dateTime, description: 'When the window closed, on the task’s time.' },
  response_due_at: {
    schema: dateTime,
    description: 'Until when the agent may answer the dispute; a decision may come then, or once answered.',
  },
  reserved_cents: {
    schema: integer,
    description:
      'What open and still-disputable rejections could cost you, kept in the balance (product-decisions §19).',
  },
} as const satisfies Record<string, FieldSpec>;

export type ErrorField = keyof typeof ERROR_FIELDS;

type Nullable<S, T> = S extends { nullable: true } ? T | null : T;
/** The TypeScript type of a value that matches a field's schema. */
export type ValueOf<S> = S extends { oneOf: readonly (infer V)[] }
  ? ValueOf<V>
  : Nullable<
      S,
      S extends { type: 'integer' | 'number' }
        ? number
        : S extends { type: 'string' }
          ? string
          : S extends { type: 'boolean' }
            ? boolean
            : S extends { type: 'array'; items: infer I }
              ? ValueOf<I>[]
              : S extends { type: 'object'; properties: infer P }
                ? { [K in keyof P]: ValueOf<P[K]> }
                : never
    >;
