/**
 * A task's answer_schema (product-decisions §17) as the worker app's form (and the console's preview of it): the fields to ask, the rules checked
 * before sending (the API checks them again: 400 answer_invalid) and the result_data built from what was entered.
 * Pure (no React, no fetch), so the rules are tested on their own (answer-form.test.ts) and the draft kept in
 * IndexedDB is plain data.
 */

export type FormFieldKind =
  | 'text'
  | 'choice'
  | 'date'
  | 'time'
  | 'date_time'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'multi_select'
  | 'photo';

export interface FormField {
  name: string;
  kind: FormFieldKind;
  title: string;
  description?: string;
  required: boolean;
  options?: string[];
  maxLength?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
}

/**
 * The native input per typed kind, one table for the worker's form and the console's preview of it, so the preview
 * shows what the phone will: a number pad, a date or a time picker.
 */
export const NATIVE_INPUTS: Record<string, { type: string; inputMode?: 'numeric' | 'decimal' }> = {
  number: { type: 'text', inputMode: 'decimal' },
  integer: { type: 'text', inputMode: 'numeric' },
  date: { type: 'date' },
  time: { type: 'time' },
  date_time: { type: 'datetime-local' },
  text: { type: 'text' },
};

/**
 * What the worker entered, per field: text as typed (numbers, dates and times as the inputs give them), the ticked
 * values of a multi-select, 'yes'/'no' for a boolean, and for a photo the picture itself (a Blob, kept in the draft)
 * or, once uploaded, its URL.
 */
export type FieldValue = string | string[] | Blob | null;
export type FormValues = Record<string, FieldValue>;

/** A rule an entry breaks, named so the app says it in words in either language. */
export type Problem =
  | { field: string; rule: 'required' }
  | { field: string; rule: 'not_number' | 'not_integer' }
  | { field: string; rule: 'minimum' | 'maximum'; limit: number }
  | { field: string; rule: 'max_length' | 'max_items'; limit: number }
  | { field: string; rule: 'not_option' | 'bad_date' | 'bad_time' };

const TEXT_MAX_LENGTH = 2000;
const FORMATS: Record<string, FormFieldKind> = {
  date: 'date',
  time: 'time',
  'date-time': 'date_time',
  photo: 'photo',
};

type RawField = {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  format?: string;
  items?: { enum?: unknown[] };
  maxLength?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
};

/** The schema's fields in declaration order (the API accepted it at creation, so each has one kind). */
export function formFields(schema: unknown): FormField[] {
  const s = schema as { properties?: Record<string, RawField>; required?: string[] } | null;
  if (!s?.properties) return [];
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties).map(([name, f]) => {
    const field: FormField = {
      name,
      kind: kindOf(f),
      title: f.title ?? name,
      required: required.has(name),
    };
    if (f.description) field.description = f.description;
    if (field.kind === 'choice') field.options = (f.enum ?? []).map(String);
    if (field.kind === 'multi_select') field.options = (f.items?.enum ?? []).map(String);
    if (f.maxItems !== undefined) field.maxItems = f.maxItems;
    if (field.kind === 'text') field.maxLength = f.maxLength ?? TEXT_MAX_LENGTH;
    if (f.minimum !== undefined) field.minimum = f.minimum;
    if (f.maximum !== undefined) field.maximum = f.maximum;
    return field;
  });
}

function kindOf(f: RawField): FormFieldKind {
  if (f.type === 'number' || f.type === 'integer' || f.type === 'boolean') return f.type;
  if (f.type === 'array') return 'multi_select';
  if (f.enum) return 'choice';
  return (f.format && FORMATS[f.format]) || 'text';
}

function isEmpty(v: FieldValue | undefined): boolean {
  return v == null || v === '' || (Array.isArray(v) && v.length === 0);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2})?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** Every rule an entry breaks (empty: ready to send). The same rules as the API's, said before sending. */
export function checkAnswers(fields: readonly FormField[], values: FormValues): Problem[] {
  const problems: Problem[] = [];
  for (const f of fields) {
    const v = values[f.name];
    if (isEmpty(v)) {
      if (f.required) problems.push({ field: f.name, rule: 'required' });
      continue;
    }
    const problem = checkOne(f, v!);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** The typed text of an entry ('' for a list or a picture). */
const textOf = (v: FieldValue | undefined): string => (typeof v === 'string' ? v : '');

function checkOne(f: FormField, v: Exclude<FieldValue, null>): Problem | null {
  const field = f.name;
  switch (f.kind) {
    case 'number':
    case 'integer': {
      const n = Number(textOf(v).trim().replace(',', '.'));
      if (!Number.isFinite(n)) return { field, rule: 'not_number' };
      if (f.kind === 'integer' && !Number.isInteger(n)) return { field, rule: 'not_integer' };
      if (f.minimum !== undefined && n < f.minimum) return { field, rule: 'minimum', limit: f.minimum };
      if (f.maximum !== undefined && n > f.maximum) return { field, rule: 'maximum', limit: f.maximum };
      return null;
    }
    case 'text':
      return [...textOf(v)].length > (f.maxLength ?? TEXT_MAX_LENGTH)
        ? { field, rule: 'max_length', limit: f.maxLength ?? TEXT_MAX_LENGTH }
        : null;
    case 'choice':
      return f.options?.includes(textOf(v)) ? null : { field, rule: 'not_option' };
    case 'multi_select': {
      const list = v as string[];
      if (list.some((x) => !f.options?.includes(x))) return { field, rule: 'not_option' };
      return f.maxItems !== undefined && list.length > f.maxItems
        ? { field, rule: 'max_items', limit: f.maxItems }
        : null;
    }
    case 'boolean':
      return v === 'yes' || v === 'no' ? null : { field, rule: 'not_option' };
    case 'date':
      return DATE.test(textOf(v)) && !Number.isNaN(Date.parse(textOf(v)))
        ? null
        : { field, rule: 'bad_date' };
    case 'time':
      return TIME.test(textOf(v)) ? null : { field, rule: 'bad_time' };
    case 'date_time':
      return DATE_TIME.test(textOf(v)) ? null : { field, rule: 'bad_date' };
    case 'photo':
      return null;
  }
}

/** ±hh:mm for an offset in minutes east of UTC (480 → +08:00): RFC 3339 times need one. */
export function offsetText(minutesEast: number): string {
  const sign = minutesEast < 0 ? '-' : '+';
  const abs = Math.abs(minutesEast);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const withSeconds = (hhmm: string) => (hhmm.length === 5 ? `${hhmm}:00` : hhmm);

/**
 * result_data shaped as the schema: numbers as numbers, booleans as booleans, times with the phone's offset
 * (`minutesEast`, -new Date().getTimezoneOffset()), photo fields as their upload URLs (`photoUrls`); fields left
 * empty are left out. Call after checkAnswers found nothing.
 */
export function resultData(
  fields: readonly FormField[],
  values: FormValues,
  photoUrls: Record<string, string>,
  minutesEast: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'photo') {
      if (photoUrls[f.name]) out[f.name] = photoUrls[f.name];
      else if (typeof v === 'string' && v) out[f.name] = v;
      continue;
    }
    if (isEmpty(v)) continue;
    const text = textOf(v).trim();
    switch (f.kind) {
      case 'number':
      case 'integer':
        out[f.name] = Number(text.replace(',', '.'));
        break;
      case 'boolean':
        out[f.name] = v === 'yes';
        break;
      case 'multi_select':
        out[f.name] = [...(v as string[])];
        break;
      case 'time':
        out[f.name] = `${withSeconds(text)}${offsetText(minutesEast)}`;
        break;
      case 'date_time':
        out[f.name] = `${text.slice(0, 11)}${withSeconds(text.slice(11))}${offsetText(minutesEast)}`;
        break;
      default:
        out[f.name] = v;
    }
  }
  return out;
}

/** The photo fields that hold a picture not yet uploaded. */
export function pendingPhotos(fields: readonly FormField[], values: FormValues): [string, Blob][] {
  return fields
    .filter((f) => f.kind === 'photo')
    .flatMap((f) => {
      const v = values[f.name];
      return v instanceof Blob ? [[f.name, v] as [string, Blob]] : [];
    });
}
