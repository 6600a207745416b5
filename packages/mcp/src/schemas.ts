import {
  answerSchemaFieldFormatValues,
  answerSchemaFieldLimits,
  answerSchemaFieldTypeValues,
  answerSchemaLimits,
  answerSchemaTypeValues,
  reviewPolicyLimits,
  reviewPolicyTypeValues,
  createTaskRequestLimits,
  createTaskRequestTask_typeValues,
  healthResponseModeValues,
  taskLocationLimits,
  taskRequirementsLimits,
  taskRequirementsLocation_proofValues,
  taskResponseStatusValues,
  type Limit,
} from '@legwork/sdk/types';
import * as z from 'zod';

/**
 * Input and output shapes shared by several tools. Inputs take their enums and bounds from the API's document
 * (`@legwork/sdk/types`, generated from openapi/openapi.json), so a host's model sees the API's own limits and a tool
 * cannot drift from the request it makes (schemas.spec.ts compares every tool with the API); the API validates again
 * and answers a validation_error tool error with details. Outputs name the fields an agent reads and let the rest
 * through (looseObject), so a field the API adds later does not break a host.
 */
export const TASK_STATUSES = taskResponseStatusValues;
export const TASK_TYPES = createTaskRequestTask_typeValues;

/** A number with the API's bounds for the field. */
export function bounded<T extends z.ZodNumber>(schema: T, limit: Limit): T {
  let out = schema;
  if (limit.minimum !== undefined) out = out.min(limit.minimum);
  if (limit.maximum !== undefined) out = out.max(limit.maximum);
  return out;
}

export const integer = (limit: Limit) => bounded(z.number().int(), limit);
export const number = (limit: Limit) => bounded(z.number(), limit);

/** A string with the API's lengths and pattern for the field. */
export function text(limit: Limit = {}): z.ZodString {
  let out = z.string();
  if (limit.minLength !== undefined) out = out.min(limit.minLength);
  if (limit.maxLength !== undefined) out = out.max(limit.maxLength);
  if (limit.pattern !== undefined) out = out.regex(new RegExp(limit.pattern));
  return out;
}

export const uuid = (what: string) => z.uuid().describe(what);

/** An Idempotency-Key, as the API takes it (1 to 255 characters). */
export const idempotencyKey = text(createTaskRequestLimits.idempotency_key);

export const location = z.object({
  latitude: number(taskLocationLimits.latitude),
  longitude: number(taskLocationLimits.longitude),
  address: text(taskLocationLimits.address).optional(),
  max_distance_meters: integer(taskLocationLimits.max_distance_meters)
    .optional()
    .describe('How far from the location a worker may be offered the task.'),
});

/** Strict, as the API is: a field it does not know is refused rather than dropped. */
const requirements = z.strictObject({
  skills: z
    .array(text(taskRequirementsLimits.skills.items))
    .max(taskRequirementsLimits.skills.maxItems)
    .optional()
    .describe('Every listed skill must be among the worker’s skills.'),
  min_reputation: number(taskRequirementsLimits.min_reputation).optional(),
  location_proof: z
    .enum(taskRequirementsLocation_proofValues)
    .optional()
    .describe(
      'photo_gps (default): the photo’s EXIF GPS within 100 m; photo_or_device_gps: else the device location sent with it.',
    ),
});

/**
 * One question of an answer schema. Loose: the API checks the whole §17 subset itself and names the path of any
 * problem (validation_error), which a host's model reads to fix the schema.
 */
const answerField = z.looseObject({
  type: z
    .enum(answerSchemaFieldTypeValues)
    .describe(
      'string (text, choice with enum, date/time/date-time or photo with format), number, integer, boolean, array (multi-select).',
    ),
  title: text(answerSchemaFieldLimits.title).describe('The question the worker sees.'),
  format: z.enum(answerSchemaFieldFormatValues).optional(),
  enum: z.array(z.string()).optional().describe('Choices of a choice field.'),
});

/** What the worker must answer (product-decisions §17): typed answers come back in get_results. */
export const answerSchema = z.object({
  type: z.enum(answerSchemaTypeValues),
  title: text(answerSchemaLimits.title).optional(),
  description: text(answerSchemaLimits.description).optional(),
  properties: z
    .record(z.string(), answerField)
    .describe('The fields, by name (a letter, then letters, digits and _): at most 30, each with a title.'),
  required: z
    .array(text(answerSchemaLimits.required.items))
    .max(answerSchemaLimits.required.maxItems)
    .optional()
    .describe('The fields every answer must give.'),
});

export const reviewPolicy = z.object({
  type: z.enum(reviewPolicyTypeValues),
  fields: z
    .array(text(reviewPolicyLimits.fields.items))
    .min(reviewPolicyLimits.fields.minItems)
    .max(reviewPolicyLimits.fields.maxItems)
    .describe('Required boolean, choice, integer, date or multi-select fields of answer_schema to compare.'),
  min_agreeing: integer(reviewPolicyLimits.min_agreeing).describe('How many must agree, 2 to max_workers.'),
});

export const taskBody = z.object({
  title: text(createTaskRequestLimits.title).describe('Short title a worker sees first.'),
  description: text(createTaskRequestLimits.description).describe(
    'What the worker must do and what to send back.',
  ),
  location,
  budget_cents: integer(createTaskRequestLimits.budget_cents).describe(
    'Gross price of one worker’s work in CNY cents, platform fee included.',
  ),
  deadline_at: z
    .string()
    .describe('ISO 8601 with an offset (e.g. 2026-12-01T12:00:00Z), in the future, at most 365 days ahead.'),
  task_type: z.enum(TASK_TYPES),
  max_workers: integer(createTaskRequestLimits.max_workers)
    .optional()
    .describe('Workers wanted (default 1).'),
  requirements: requirements.optional().describe('Skills, reputation and the location-proof rule.'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Your own JSON, at most 1024 bytes.'),
  test_clock: z
    .uuid()
    .optional()
    .describe('Sandbox only: a clock_id from sandbox_clock; the task lives on it.'),
  answer_schema: answerSchema
    .optional()
    .describe(
      'What you want back, as a JSON Schema object: each field a question the worker answers (boolean, number, ' +
        'choice, date, multi-select, photo...). The answers are checked and come back typed in get_results. ' +
        'Example: {"type":"object","properties":{"open":{"type":"boolean","title":"Is it open?"}},"required":["open"]}.',
    ),
  review_policy: reviewPolicy
    .optional()
    .describe(
      'With max_workers > 1: submissions whose answers to these fields agree are approved automatically.',
    ),
});

const costBreakdown = z.looseObject({
  worker_payout_cents: z.number().int(),
  platform_fee_cents: z.number().int(),
  total_cents: z.number().int(),
});

export const taskSummary = z.looseObject({
  task_id: z.string(),
  status: z.enum(TASK_STATUSES),
});

export const quoteOutput = z.looseObject({
  can_create: z.boolean(),
  total_to_hold_cents: z.number().int(),
  cost_breakdown: costBreakdown,
  balance: z.looseObject({}),
  refund_policy: z.looseObject({}),
  auto_approval: z.looseObject({}),
  workers: z.looseObject({
    radius_meters: z
      .number()
      .int()
      .describe('People were counted within this radius (your max_distance_meters, at least 2000).'),
    eligible_online: z
      .number()
      .int()
      .describe(
        'At least this many eligible people online: the lower bound of a bucket, 0, 1, 5, 20 or 100.',
      ),
    available_now: z.number().int().describe('Of those, at least this many free now, in the same buckets.'),
    simulated_online: z
      .number()
      .int()
      .describe('Sandbox: your own simulated workers the task would reach, counted exactly.'),
  }),
  estimated_completion_at: z.string(),
});

export const createdTaskOutput = z.looseObject({
  task_id: z.string(),
  status: z.enum(TASK_STATUSES),
  cost_breakdown: costBreakdown,
  estimated_completion_at: z.string(),
  created_at: z.string(),
  idempotency_key: z.string().describe('The key this creation ran under: a retry with it returns this task.'),
});

export const taskListOutput = z.looseObject({
  data: z.array(taskSummary),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export const messageOutput = z.looseObject({
  message_id: z.string(),
  assignment_id: z.string(),
  from: z.enum(['agent', 'worker', 'operator']),
  body: z.unknown().describe('The text; a worker’s is wrapped in an untrusted envelope.'),
  created_at: z.string(),
});

export const taskDetailOutput = taskSummary.extend({
  title: z.string(),
  assignments: z.array(z.looseObject({ assignment_id: z.string(), status: z.string() })),
  progress: z.looseObject({}),
  deadline_at: z.string(),
  messages: z
    .array(
      z.looseObject({
        assignment_id: z.string(),
        unread_count: z.number().int(),
        messages: z.array(messageOutput),
      }),
    )
    .describe(
      'The threads that hold messages, one per assignment: unread_count is what was new before this call; a worker’s words are wrapped as untrusted. Answer with send_message.',
    ),
});

export const resultsOutput = z.looseObject({
  task_id: z.string(),
  status: z.enum(TASK_STATUSES),
  answer_schema: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('The task’s answer schema: each submission’s data (inside its untrusted envelope) follows it.'),
  submissions: z.array(z.looseObject({ assignment_id: z.string(), status: z.string() })),
  results: z.array(z.looseObject({ assignment_id: z.string() })),
});

export const waitOutput = z.object({
  task_id: z.string(),
  status: z.enum(TASK_STATUSES),
  events: z
    .array(z.looseObject({ event_id: z.string(), event: z.string(), timestamp: z.string() }))
    .describe('New events of the task since `since`, oldest first (the webhook payloads).'),
  cursor: z
    .string()
    .nullable()
    .describe('Pass as `since` to the next wait_for_task call; null while the task has no event.'),
  timed_out: z
    .boolean()
    .describe('true when timeout_s passed without a new event (false once the task has ended).'),
  next_step: z.string(),
});

export const reviewOutput = z.looseObject({
  feedback_id: z.string(),
  assignment_ids: z.array(z.string()),
  recorded_at: z.string(),
  idempotency_key: z.string(),
});

export const cancelOutput = z.looseObject({
  task_id: z.string(),
  status: z.literal('cancelled'),
  refund_cents: z.number().int(),
  worker_compensation_cents: z.number().int(),
  idempotency_key: z.string(),
});

export const topUpOutput = z.looseObject({
  order_id: z.string(),
  amount_cents: z.number().int(),
  status: z.string(),
  payment_url: z.string().nullable(),
  qr_code_url: z.string().nullable(),
  expires_at: z.string().nullable(),
  idempotency_key: z.string(),
});

export const accountOutput = z.looseObject({
  agent_id: z.string(),
  organization_name: z.string().nullable(),
  balance_cents: z.number().int(),
  owed_cents: z
    .number()
    .int()
    .describe(
      'Owed from dispute decisions; top-ups repay it first, and no task can be created while it is above 0.',
    ),
  tier: z.string(),
  rate_limit_per_minute: z.number().int(),
  max_concurrent_tasks: z.number().int(),
  spend_caps: z
    .looseObject({})
    .nullable()
    .describe("This key's spend caps (daily_cents, monthly_cents, approval_ceiling_cents; null: none)."),
  spend: z
    .array(z.looseObject({}))
    .describe('Each capped period now: cap_cents, counted_cents, remaining_cents, resets_at.'),
  mode: z
    .enum(healthResponseModeValues)
    .describe('sandbox: test money and simulated workers; live: real ones.'),
});
