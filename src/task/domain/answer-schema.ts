import type { FieldProblem } from '../../common/errors/api-error';

/**
 * The answer schema of a task (product-decisions §17): the JSON Schema 2020-12 subset an agent may declare, so a
 * worker is asked for exactly these fields and the agent gets them typed. This file is the check made at creation
 * (and by the quote) and the model the rest of the service reads: every field has one kind, and what a kind allows,
 * how large its answer may grow and whether answers of it can agree is one row of FIELD_KINDS.
 *
 * Pure: no database, no clock, no ajv (compiling a validator costs milliseconds; creation must stay as fast with a
 * schema as without, so validators are compiled at the first submission, answer-validation.ts).
 */

export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
export const ANSWER_SCHEMA_MAX_BYTES = 16 * 1024;
export const ANSWER_SCHEMA_MAX_FIELDS = 30;
export const ANSWER_MAX_PHOTO_FIELDS = 5;
/** result_data of a schema task may be this large; a schema whose largest answer would not fit is refused. */
export const ANSWER_DATA_MAX_BYTES = 64 * 1024;
export const TEXT_MAX_LENGTH = 2000;
export const ENUM_MAX_VALUES = 50;
export const ENUM_VALUE_MAX_LENGTH = 200;
export const FIELD_TITLE_MAX_LENGTH = 100;
export const FIELD_DESCRIPTION_MAX_LENGTH = 500;
/** Field names become JSON keys, SDK property names and export columns: plain identifiers. */
export const FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** The longest URL the upload endpoints hand out that a photo field may hold (as photo_urls). */
export const PHOTO_URL_MAX_LENGTH = 2048;

export const ANSWER_FIELD_KINDS = [
  'text',
  'choice',
  'date',
  'time',
  'date_time',
  'number',
  'integer',
  'boolean',
  'multi_select',
  'photo',
] as const;
export type AnswerFieldKind = (typeof ANSWER_FIELD_KINDS)[number];

/** One declared field as the service reads it (the agent's own JSON stays stored and shown as it was sent). */
export interface AnswerField {
  name: string;
  kind: AnswerFieldKind;
  title: string;
  required: boolean;
  /** text: the longest answer (TEXT_MAX_LENGTH when the schema sets none). */
  maxLength?: number;
  /** choice and multi_select: the values offered. */
  options?: string[];
  /** multi_select: the most values an answer may list. */
  maxItems?: number;
  minimum?: number;
  maximum?: number;
}

/** What a kind allows besides type, title and description, its largest answer as JSON, and whether it can agree. */
interface KindRule {
  keys: readonly string[];
  /** Bytes of the largest valid value of the field, as JSON in UTF-8. */
  maxValueBytes: (f: AnswerField) => number;
  /** product-decisions §17: agreement compares booleans, choices, integers, dates and multi-selects (as sets). */
  agreement: boolean;
}

/** A UTF-16 unit is at most 3 bytes in UTF-8 (a surrogate pair, two units, is 4). */
const textBytes = (chars: number) => chars * 3 + 2;
const jsonBytes = (v: string) => Buffer.byteLength(JSON.stringify(v));

export const FIELD_KINDS: Readonly<Record<AnswerFieldKind, KindRule>> = {
  text: { keys: ['maxLength'], maxValueBytes: (f) => textBytes(f.maxLength!), agreement: false },
  choice: {
    keys: ['enum'],
    maxValueBytes: (f) => Math.max(...f.options!.map(jsonBytes)),
    agreement: true,
  },
  date: { keys: ['format'], maxValueBytes: () => 12, agreement: true },
  // RFC 3339 full-time and date-time (ajv-formats): fractions of a second make them open-ended; 40 digits is plenty
  // and the size check at submission still applies.
  time: { keys: ['format'], maxValueBytes: () => 64, agreement: false },
  date_time: { keys: ['format'], maxValueBytes: () => 80, agreement: false },
  number: { keys: ['minimum', 'maximum'], maxValueBytes: () => 26, agreement: false },
  integer: { keys: ['minimum', 'maximum'], maxValueBytes: () => 26, agreement: true },
  boolean: { keys: [], maxValueBytes: () => 5, agreement: true },
  multi_select: {
    keys: ['items', 'maxItems', 'uniqueItems'],
    maxValueBytes: (f) => {
      const largest = f.options!.map(jsonBytes).sort((a, b) => b - a);
      const taken = largest.slice(0, f.maxItems ?? largest.length);
      return 2 + taken.reduce((s, n) => s + n + 1, 0);
    },
    agreement: true,
  },
  photo: { keys: ['format'], maxValueBytes: () => textBytes(PHOTO_URL_MAX_LENGTH), agreement: false },
};

const COMMON_KEYS = ['type', 'title', 'description'];
const SCHEMA_KEYS = [
  '$schema',
  'type',
  'title',
  'description',
  'properties',
  'required',
  'additionalProperties',
];
const STRING_FORMATS: Record<string, AnswerFieldKind> = {
  date: 'date',
  time: 'time',
  'date-time': 'date_time',
  photo: 'photo',
};

/** The checked schema: its fields in declaration order, and the largest answer it admits. */
export interface AnswerSchemaModel {
  fields: AnswerField[];
  maxAnswerBytes: number;
}

/**
 * Checks a schema against §17; every problem is named by its path (`answer_schema.properties.open.type`), so the
 * 400 validation_error lists all of them at once. Returns the model when there is none.
 */
export function checkAnswerSchema(
  schema: unknown,
  path = 'answer_schema',
): { problems: FieldProblem[]; model: AnswerSchemaModel | null } {
  const problems: FieldProblem[] = [];
  const say = (field: string, message: string) => problems.push({ field, message });
  if (!isObject(schema)) {
    say(path, 'must be a JSON Schema object');
    return { problems, model: null };
  }
  // Reported with whatever else is wrong, so a huge keyword is named by its own path too.
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > ANSWER_SCHEMA_MAX_BYTES) {
    say(path, `must be at most ${ANSWER_SCHEMA_MAX_BYTES} bytes as JSON (it is ${bytes})`);
  }
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_KEYS.includes(key)) say(`${path}.${key}`, unsupported(key, SCHEMA_KEYS));
  }
  if (schema.$schema !== undefined && schema.$schema !== JSON_SCHEMA_2020_12) {
    say(`${path}.$schema`, `must be ${JSON_SCHEMA_2020_12} (JSON Schema 2020-12) when given`);
  }
  if (schema.type !== 'object') say(`${path}.type`, 'must be "object"');
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    say(`${path}.additionalProperties`, 'may only be false (answers never carry undeclared fields)');
  }
  optionalText(schema, 'title', FIELD_TITLE_MAX_LENGTH, path, say);
  optionalText(schema, 'description', FIELD_DESCRIPTION_MAX_LENGTH, path, say);
  const properties = schema.properties;
  if (!isObject(properties) || Object.keys(properties).length === 0) {
    say(`${path}.properties`, 'must be an object declaring at least one field');
    return { problems, model: null };
  }
  const names = Object.keys(properties);
  if (names.length > ANSWER_SCHEMA_MAX_FIELDS) {
    say(
      `${path}.properties`,
      `may declare at most ${ANSWER_SCHEMA_MAX_FIELDS} fields (it declares ${names.length})`,
    );
  }
  const required = checkRequired(schema.required, names, `${path}.required`, say);
  const fields: AnswerField[] = [];
  for (const name of names) {
    const at = `${path}.properties.${name}`;
    if (!FIELD_NAME_PATTERN.test(name)) {
      say(at, 'a field name must start with a letter and hold only letters, digits and _ (at most 64)');
      continue;
    }
    const field = checkField(properties[name], name, required.has(name), at, say);
    if (field) fields.push(field);
  }
  const photos = fields.filter((f) => f.kind === 'photo').length;
  if (photos > ANSWER_MAX_PHOTO_FIELDS) {
    say(
      `${path}.properties`,
      `may declare at most ${ANSWER_MAX_PHOTO_FIELDS} photo fields (it declares ${photos})`,
    );
  }
  if (problems.length > 0) return { problems, model: null };
  const maxAnswerBytes = largestAnswerBytes(fields);
  if (maxAnswerBytes > ANSWER_DATA_MAX_BYTES) {
    say(
      `${path}.properties`,
      `its largest answer could be ${maxAnswerBytes} bytes, over the ${ANSWER_DATA_MAX_BYTES} a result may hold: ` +
        'lower the maxLength of text fields (a character may take 3 bytes)',
    );
    return { problems, model: null };
  }
  return { problems, model: { fields, maxAnswerBytes } };
}

/**
 * The schema as stored: `null` on an optional keyword means absent (product-decisions §16), so it is dropped, at the
 * top, in each field and in a multi-select's items; null on a keyword every schema needs (type, properties, a
 * field's title) stays and is refused by the check.
 */
export function withoutNulls(schema: unknown): unknown {
  // Almost every schema has no null: it is then kept as it is, without a copy (creation's cost stays flat).
  if (!isObject(schema) || !holdsNull(schema, 4)) return schema;
  const keep = (o: Record<string, unknown>, needed: string[]) =>
    Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== null || needed.includes(k)));
  const top = keep(schema, ['type', 'properties']);
  if (isObject(top.properties)) {
    top.properties = Object.fromEntries(
      Object.entries(top.properties).map(([name, f]) => {
        if (!isObject(f)) return [name, f];
        const field = keep(f, ['type', 'title']);
        if (isObject(field.items)) field.items = keep(field.items, ['type', 'enum']);
        return [name, field];
      }),
    );
  }
  return top;
}

/** Whether an object holds a null within `depth` levels of objects (the schema, its properties, a field, its items). */
function holdsNull(o: Record<string, unknown>, depth: number): boolean {
  for (const key in o) {
    const v = o[key];
    if (v === null) return true;
    if (depth > 1 && isObject(v) && holdsNull(v, depth - 1)) return true;
  }
  return false;
}

/** The model of a schema already checked at creation (stored with the task). */
export function answerSchemaModel(schema: Record<string, unknown>): AnswerSchemaModel {
  const { model, problems } = checkAnswerSchema(schema);
  if (!model) throw new Error(`stored answer schema no longer valid: ${problems[0]?.message}`);
  return model;
}

/** `{` `}`, and per field its quoted key, a colon, the value and a comma. */
function largestAnswerBytes(fields: AnswerField[]): number {
  return fields.reduce((sum, f) => sum + jsonBytes(f.name) + 2 + FIELD_KINDS[f.kind].maxValueBytes(f), 2);
}

type Say = (field: string, message: string) => void;

function checkRequired(value: unknown, names: string[], at: string, say: Say): Set<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    say(at, 'must be an array of field names');
    return new Set();
  }
  const listed = value as string[];
  listed.forEach((n, i) => {
    if (!names.includes(n)) say(`${at}[${i}]`, `"${n}" is not a field of properties`);
    else if (listed.indexOf(n) !== i) say(`${at}[${i}]`, `"${n}" is listed twice`);
  });
  return new Set(listed);
}

function checkField(
  value: unknown,
  name: string,
  required: boolean,
  at: string,
  say: Say,
): AnswerField | null {
  if (!isObject(value)) {
    say(at, 'must be an object describing the field');
    return null;
  }
  const kind = kindOf(value, at, say);
  if (!kind) return null;
  let failed = false;
  const note: Say = (f, m) => {
    failed = true;
    say(f, m);
  };
  const allowed = [...COMMON_KEYS, ...FIELD_KINDS[kind].keys];
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      note(
        `${at}.${key}`,
        key === 'pattern' ? 'is not supported (no patterns)' : unsupported(key, allowed, kind),
      );
    }
  }
  if (
    typeof value.title !== 'string' ||
    value.title.trim() === '' ||
    value.title.length > FIELD_TITLE_MAX_LENGTH
  ) {
    note(
      `${at}.title`,
      `is required: the question the worker sees, 1 to ${FIELD_TITLE_MAX_LENGTH} characters`,
    );
  }
  optionalText(value, 'description', FIELD_DESCRIPTION_MAX_LENGTH, at, note);
  const field: AnswerField = { name, kind, title: String(value.title), required };
  KIND_DETAILS[kind]?.(value, field, at, note);
  return failed ? null : field;
}

/** The kind a field declares, from type, format, enum and items; null (with a problem) when it is none of them. */
function kindOf(f: Record<string, unknown>, at: string, say: Say): AnswerFieldKind | null {
  switch (f.type) {
    case 'string':
      if (f.format !== undefined) {
        const kind = typeof f.format === 'string' ? STRING_FORMATS[f.format] : undefined;
        if (!kind) say(`${at}.format`, `must be one of ${Object.keys(STRING_FORMATS).join(', ')}`);
        return kind ?? null;
      }
      return f.enum !== undefined ? 'choice' : 'text';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'multi_select';
    default:
      say(`${at}.type`, 'must be one of string, number, integer, boolean, array');
      return null;
  }
}

type Detail = (f: Record<string, unknown>, field: AnswerField, at: string, say: Say) => void;

const KIND_DETAILS: Partial<Record<AnswerFieldKind, Detail>> = {
  text: (f, field, at, say) => {
    field.maxLength = TEXT_MAX_LENGTH;
    if (f.maxLength === undefined) return;
    if (!isIntIn(f.maxLength, 1, TEXT_MAX_LENGTH))
      say(`${at}.maxLength`, `must be an integer from 1 to ${TEXT_MAX_LENGTH}`);
    else field.maxLength = f.maxLength as number;
  },
  choice: (f, field, at, say) => {
    field.options = checkEnum(f.enum, `${at}.enum`, say);
  },
  number: (f, field, at, say) => bounds(f, field, at, say),
  integer: (f, field, at, say) => bounds(f, field, at, say),
  multi_select: (f, field, at, say) => {
    const items = f.items;
    if (!isObject(items) || items.type !== 'string' || items.enum === undefined) {
      say(`${at}.items`, 'must be {"type": "string", "enum": [...]}: a multi-select lists the choices');
      return;
    }
    for (const key of Object.keys(items)) {
      if (key !== 'type' && key !== 'enum') say(`${at}.items.${key}`, unsupported(key, ['type', 'enum']));
    }
    field.options = checkEnum(items.enum, `${at}.items.enum`, say);
    if (f.uniqueItems !== undefined && f.uniqueItems !== true) {
      say(`${at}.uniqueItems`, 'may only be true (a multi-select is a set)');
    }
    if (f.maxItems !== undefined) {
      if (!isIntIn(f.maxItems, 1, ENUM_MAX_VALUES))
        say(`${at}.maxItems`, `must be an integer from 1 to ${ENUM_MAX_VALUES}`);
      else field.maxItems = f.maxItems as number;
    }
  },
};

function bounds(f: Record<string, unknown>, field: AnswerField, at: string, say: Say): void {
  for (const key of ['minimum', 'maximum'] as const) {
    if (f[key] === undefined) continue;
    if (typeof f[key] !== 'number' || !Number.isFinite(f[key])) say(`${at}.${key}`, 'must be a number');
    else field[key] = f[key];
  }
  if (field.minimum !== undefined && field.maximum !== undefined && field.minimum > field.maximum) {
    say(`${at}.maximum`, 'must not be below minimum');
  }
}

function checkEnum(value: unknown, at: string, say: Say): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > ENUM_MAX_VALUES) {
    say(at, `must be an array of 1 to ${ENUM_MAX_VALUES} strings`);
    return [];
  }
  value.forEach((v, i) => {
    if (typeof v !== 'string' || v.length === 0 || v.length > ENUM_VALUE_MAX_LENGTH) {
      say(`${at}[${i}]`, `must be a string of 1 to ${ENUM_VALUE_MAX_LENGTH} characters`);
    } else if (value.indexOf(v) !== i) {
      say(`${at}[${i}]`, `"${v}" is listed twice`);
    }
  });
  return value as string[];
}

function optionalText(o: Record<string, unknown>, key: string, max: number, at: string, say: Say): void {
  const v = o[key];
  if (v !== undefined && (typeof v !== 'string' || v.length > max)) {
    say(`${at}.${key}`, `must be a string of at most ${max} characters`);
  }
}

function unsupported(key: string, allowed: readonly string[], kind?: AnswerFieldKind): string {
  return `"${key}" is not supported${kind ? ` on a ${kind.replace('_', ' ')} field` : ''} (allowed: ${allowed.join(', ')})`;
}

function isIntIn(v: unknown, min: number, max: number): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
