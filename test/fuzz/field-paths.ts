import { MAX_JSON_DEPTH } from '../../src/common/http/json-depth';
import { OpenApiDoc, resolve, Schema } from '../support/openapi-schemas';

/**
 * The deterministic pass's pieces that need no app: every field path of a request schema (nested objects and array
 * items included), a valid body built from the schema, the values each path is set to, and what the answer must
 * then be.
 */

export type PathKey = string | number;

export interface FieldPath {
  path: PathKey[];
  schema: Schema;
  /** A required field (or an array item): null there is refused. Otherwise null means absent, unless nullable. */
  required: boolean;
  nullable: boolean;
}

/** `requirements.skills[0]`: how the pass names a path. */
export function pathName(path: PathKey[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

/** The field a validation detail names for the path: class-validator reports an item's error on its array. */
export function detailField(path: PathKey[]): string {
  const last = path.findLastIndex((k) => typeof k === 'string');
  return path.slice(0, last + 1).join('.');
}

function typeOf(s: Schema): string | undefined {
  return s.type ?? (s.properties ? 'object' : undefined);
}

export function fieldPaths(doc: OpenApiDoc, raw: Schema, prefix: PathKey[] = []): FieldPath[] {
  const s = resolve(doc, raw);
  const out: FieldPath[] = [];
  for (const [key, child] of Object.entries(s.properties ?? {})) {
    const field = resolve(doc, child);
    const path = [...prefix, key];
    out.push({ path, schema: field, required: (s.required ?? []).includes(key), nullable: !!field.nullable });
    out.push(...fieldPaths(doc, field, path));
  }
  if (typeOf(s) === 'array' && s.items) {
    const item = resolve(doc, s.items);
    out.push({ path: [...prefix, 0], schema: item, required: true, nullable: !!item.nullable });
    out.push(...fieldPaths(doc, item, [...prefix, 0]));
  }
  return out;
}

/** Values from outside the schema: real ids of the scene by field name, and the clock. */
export interface BodyContext {
  now: Date;
  named: (name: string) => unknown;
}

const DAY = 86_400_000;

/** A value the schema accepts, the same every time: a named real value, else example, default, enum, bounds. */
export function baseValue(doc: OpenApiDoc, raw: Schema, name: string, ctx: BodyContext): unknown {
  const s = resolve(doc, raw);
  const named = ctx.named(name);
  if (named !== undefined) return named;
  // An example time is fixed, and deadlines must be ahead of now: times are made from the clock.
  if (s.format === 'date-time') return baseString(s, name, ctx.now);
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  switch (typeOf(s)) {
    case 'string':
      return baseString(s, name, ctx.now);
    case 'integer':
    case 'number':
      return s.minimum !== undefined ? Math.max(s.minimum, Math.min(1, s.maximum ?? 1)) : 1;
    case 'boolean':
      return true;
    case 'array':
      return s.items ? [baseValue(doc, s.items, name, ctx)] : [];
    case 'object': {
      const props = Object.entries(s.properties ?? {});
      if (!props.length) return { checked: true };
      return Object.fromEntries(props.map(([k, v]) => [k, baseValue(doc, v, k, ctx)]));
    }
    default:
      return 'fuzz';
  }
}

function baseString(s: Schema, name: string, now: Date): string {
  switch (s.format) {
    case 'date-time':
      // A time of capture is now; other times (deadlines, a clock's target) are ahead.
      return new Date(now.getTime() + (name.endsWith('captured_at') ? 0 : DAY)).toISOString();
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    case 'email':
      return 'nobody@example.com';
    case 'uri':
      return 'https://example.com/fuzz';
    case 'password':
      return 'a long passphrase';
  }
  return 'fuzz'.padEnd(s.minLength ?? 0, 'z');
}

/**
 * `body` with `value` at `path`, as a copy. A container missing along the path (an optional object the base body
 * leaves out) is taken from `full`, the body with every field.
 */
export function withValue(body: unknown, path: PathKey[], value: unknown, full: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path;
  const copy = (Array.isArray(body) ? [...body] : { ...(body as object) }) as Record<PathKey, unknown>;
  const fullChild = (full as Record<PathKey, unknown> | undefined)?.[key];
  copy[key] = withValue(copy[key] ?? fullChild, rest, value, fullChild);
  return copy;
}

export interface Mutation {
  label: string;
  value: unknown;
}

/** One request of the pass: what was changed, and what the answer must then be. */
export interface BodyCase<B> {
  label: string;
  body: B;
  /** The validation detail that must name the change (null: any answer but a 5xx will do). */
  refusedAs: string | null;
  /** Null in an optional field: read as absent, so refused naming the field only as this body without it is. */
  absent?: { field: string; body: B };
}

/**
 * Optional fields a base body leaves out, so that the base is a request the service carries out: each excludes
 * another field the base holds (named here; a change inside it swaps the two) or needs what the scene has not.
 */
const LEFT_OUT: Record<string, Record<string, string | null>> = {
  CreateSandboxWorkerRequest: { near_task: 'location' },
  UpdateSandboxWorkerRequest: { near_task: 'location' },
  AdvanceTestClockRequest: { to: 'by_seconds' },
  // An operator's second factor is a code or a recovery code, never both.
  AdminSecondFactorRequest: { recovery_code: 'code' },
  // A reason goes with a rejection; the base accepts.
  TaskFeedbackRequest: { reason_code: null },
  // Only URLs of the worker's own uploads are accepted.
  TaskSubmissionRequest: { photo_urls: null },
  UnableReportRequest: { photo_urls: null },
  // A percentage goes with a split only; the base upholds.
  DisputeDecisionRequest: { worker_percent: null },
  // A schema built from the reference's shapes declares no real field (its properties are a map), and agreement
  // needs a schema and several workers: the base task has neither; changes inside them still go through the check.
  CreateTaskRequest: { answer_schema: null, review_policy: null },
};

/** The valid body of a JSON request schema, and every change of every field path of it. */
export function jsonCases(
  doc: OpenApiDoc,
  schema: Schema,
  ctx: BodyContext,
): { base: unknown; fields: number; cases: BodyCase<unknown>[] } {
  const full = baseValue(doc, schema, '', ctx);
  const leftOut = LEFT_OUT[schema.$ref?.split('/').pop() ?? ''] ?? {};
  const base = omit(full, Object.keys(leftOut));
  const fields = fieldPaths(doc, schema);
  const cases = fields.flatMap((field) => {
    const swapped = omit(base, [leftOut[String(field.path[0])] ?? '']);
    return mutations(field).map((m): BodyCase<unknown> => ({
      label: `${pathName(field.path)} = ${m.label}`,
      body: withValue(swapped, field.path, m.value, full),
      refusedAs: mustRefuse(doc, field, m) ? detailField(field.path) : null,
      // Null in an optional field that is not nullable: product-decisions §16 reads it as absent.
      absent:
        m.value === null && !field.required && !field.nullable
          ? { field: detailField(field.path), body: withValue(swapped, field.path, undefined, full) }
          : undefined,
    }));
  });
  return { base, fields: fields.length, cases };
}

/** Null in a required field, or a value of a type or range the reference does not allow. */
function mustRefuse(doc: OpenApiDoc, field: FieldPath, m: Mutation): boolean {
  if (m.value === null) return field.required;
  return !conforms(doc, field.schema, m.value);
}

function omit(body: unknown, keys: string[]): unknown {
  const copy = { ...(body as Record<string, unknown>) };
  for (const k of keys) delete copy[k];
  return copy;
}

/** JSON has no literal for these; the body text carries 1e999 and -1e999, which JSON.parse reads as ±Infinity. */
const INFINITIES: Record<string, string> = { '\u0000+inf': '1e999', '\u0000-inf': '-1e999' };

export function bodyText(body: unknown): string {
  let text = JSON.stringify(body);
  for (const [marker, literal] of Object.entries(INFINITIES)) {
    text = text.replaceAll(JSON.stringify(marker), literal);
  }
  return text;
}

export const HUGE = 'x'.repeat(100_000);

const WRONG_TYPES: [label: string, value: unknown, fits: string[]][] = [
  ['a string', 'fuzz', ['string']],
  ['an integer', 12345, ['integer', 'number']],
  ['a fraction', 1.5, ['number']],
  ['a boolean', true, ['boolean']],
  ['an object', { a: 1 }, ['object']],
  ['an array', ['a'], ['array']],
];

/**
 * Past PostgreSQL's integer and bigint, past exact doubles, small, so small that arithmetic on it underflows (the
 * smallest double), infinite, and NaN as text.
 */
const NUMBERS: [string, unknown][] = [
  ['2^31', 2 ** 31],
  ['2^63', 2 ** 63],
  ['-2^63 - 2^11', -(2 ** 63) - 2 ** 11],
  ['1e308', 1e308],
  ['1e-7', 1e-7],
  ['1e-307', 1e-307],
  ['-5e-324', -5e-324],
  ['1e999 (Infinity)', '\u0000+inf'],
  ['-1e999 (-Infinity)', '\u0000-inf'],
  ['"NaN"', 'NaN'],
];

/** Null, each wrong type, a huge string, a NUL byte, a deep array, and for numbers values out of every range. */
export function mutations(field: FieldPath): Mutation[] {
  const type = typeOf(field.schema);
  const out: Mutation[] = [{ label: 'null', value: null }];
  if (type) {
    for (const [label, value, fits] of WRONG_TYPES) if (!fits.includes(type)) out.push({ label, value });
  }
  out.push({ label: 'a huge string', value: HUGE });
  if (type === 'string') out.push({ label: 'a NUL byte', value: 'a\u0000b' });
  if (type === 'integer' || type === 'number')
    out.push(...NUMBERS.map(([label, value]) => ({ label, value })));
  // As deep as the body may nest (MAX_JSON_DEPTH), so it passes the parser and reaches validation.
  const depth = MAX_JSON_DEPTH - field.path.length;
  out.push({ label: `an array ${depth} deep`, value: deepArray(depth) });
  return out;
}

function deepArray(depth: number): unknown {
  let v: unknown = [1];
  for (let i = 1; i < depth; i++) v = [v];
  return v;
}

/**
 * Whether a mutated value is one the reference allows for the field (then the answer is only required to be no
 * 5xx and in the envelope); anything else must be refused with a validation error naming the field.
 */
export function conforms(doc: OpenApiDoc, raw: Schema, value: unknown): boolean {
  const s = resolve(doc, raw);
  if (value === null) return !!s.nullable;
  if (typeof value === 'string' && value in INFINITIES) return false;
  if (s.enum) return s.enum.includes(value);
  switch (typeOf(s)) {
    case 'string':
      return typeof value === 'string' && stringConforms(s, value);
    case 'integer':
      return Number.isSafeInteger(value) && inBounds(s, value as number);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && inBounds(s, value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return (
        Array.isArray(value) &&
        value.length <= (s.maxItems ?? Infinity) &&
        value.every((v) => !s.items || conforms(doc, s.items, v))
      );
    case 'object':
      return typeof value === 'object' && !Array.isArray(value);
    default:
      return true;
  }
}

function inBounds(s: Schema, n: number): boolean {
  const min = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : s.minimum;
  const max = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : s.maximum;
  return (min === undefined || n >= min) && (max === undefined || n <= max);
}

const FORMATS: Record<string, RegExp> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  'date-time': /^\d{4}-\d{2}-\d{2}T/,
  email: /^[^@\s]+@[^@\s]+$/,
  uri: /^https?:\/\//,
};

function stringConforms(s: Schema, v: string): boolean {
  if (s.maxLength !== undefined && v.length > s.maxLength) return false;
  if (s.minLength !== undefined && v.length < s.minLength) return false;
  if (s.pattern && !new RegExp(s.pattern).test(v)) return false;
  const format = s.format && FORMATS[s.format];
  return !format || format.test(v);
}
