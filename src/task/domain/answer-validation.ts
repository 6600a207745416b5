import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FieldProblem } from '../../common/errors/api-error';
import {
  ANSWER_DATA_MAX_BYTES,
  answerSchemaModel,
  PHOTO_URL_MAX_LENGTH,
  type AnswerField,
  type AnswerFieldKind,
  type AnswerSchemaModel,
} from './answer-schema';

/**
 * A submission's result_data against the task's answer schema (product-decisions §17), with ajv (strict, every
 * error) and ajv-formats. The validator is compiled from the checked model, not from the agent's JSON, so it knows
 * exactly the §17 subset: undeclared fields refused, text bounded, multi-selects sets. Compiling costs milliseconds;
 * validating microseconds: validators are cached per schema (its JSON text), at most VALIDATORS_KEPT of them.
 *
 * `null` on an optional field means absent (product-decisions §16) and is dropped from the stored answer; on a
 * required field it is a missing answer.
 */

const VALIDATORS_KEPT = 500;

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv, ['date', 'time', 'date-time']);
// A photo field holds the URL of an upload; whose upload it is and what it shows is checked under the task lock
// (the submission's photo check), so the format only asks for a URL-shaped string.
ajv.addFormat('photo', /^(?:https?:\/\/|\/)\S+$/);

interface Compiled {
  validate: ValidateFunction;
  model: AnswerSchemaModel;
}

const cache = new Map<string, Compiled>();

/** The compiled validator and model of a stored schema (compiled once per distinct schema). */
export function compiledAnswerSchema(schema: Record<string, unknown>): Compiled {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) {
    // Refreshed, so the least recently used schema is the one dropped.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const model = answerSchemaModel(schema);
  const compiled = { validate: ajv.compile(ajvSchema(model)), model };
  cache.set(key, compiled);
  if (cache.size > VALIDATORS_KEPT) cache.delete(cache.keys().next().value!);
  return compiled;
}

/** The answer as stored (optional nulls dropped), or the problems, one per field, in the order of the schema. */
export function validateAnswers(
  schema: Record<string, unknown>,
  data: Record<string, unknown>,
): { answers: Record<string, unknown>; problems: FieldProblem[] } {
  const { validate, model } = compiledAnswerSchema(schema);
  const answers: Record<string, unknown> = {};
  const problems = new Map<string, string>();
  for (const [name, value] of Object.entries(data)) {
    const field = model.fields.find((f) => f.name === name);
    if (value === null && field && !field.required) continue;
    if (value === null && field) problems.set(name, 'is required (null is no answer)');
    answers[name] = value;
  }
  if (!validate(answers)) {
    for (const e of validate.errors ?? []) {
      const name = fieldOf(e);
      if (!problems.has(name))
        problems.set(
          name,
          messageOf(
            e,
            model.fields.find((f) => f.name === name),
          ),
        );
    }
  }
  if (problems.size === 0 && Buffer.byteLength(JSON.stringify(answers)) > ANSWER_DATA_MAX_BYTES) {
    problems.set('', `must be at most ${ANSWER_DATA_MAX_BYTES} bytes as JSON`);
  }
  const order = (n: string) => {
    const i = model.fields.findIndex((f) => f.name === n);
    return i < 0 ? model.fields.length : i;
  };
  return {
    answers,
    problems: [...problems]
      .sort(([a], [b]) => order(a) - order(b))
      .map(([name, message]) => ({ field: name ? `result_data.${name}` : 'result_data', message })),
  };
}

/** The photo fields answered, in schema order: their names and URLs. */
export function photoAnswers(
  model: AnswerSchemaModel,
  answers: Record<string, unknown>,
): { field: string; url: string }[] {
  return model.fields
    .filter((f) => f.kind === 'photo' && typeof answers[f.name] === 'string')
    .map((f) => ({ field: f.name, url: answers[f.name] as string }));
}

const ajvField: Record<AnswerFieldKind, (f: AnswerField) => Record<string, unknown>> = {
  text: (f) => ({ type: 'string', maxLength: f.maxLength }),
  choice: (f) => ({ type: 'string', enum: f.options }),
  date: () => ({ type: 'string', format: 'date' }),
  time: () => ({ type: 'string', format: 'time' }),
  date_time: () => ({ type: 'string', format: 'date-time' }),
  number: (f) => ({ type: 'number', ...bounds(f) }),
  integer: (f) => ({ type: 'integer', ...bounds(f) }),
  boolean: () => ({ type: 'boolean' }),
  multi_select: (f) => ({
    type: 'array',
    items: { type: 'string', enum: f.options },
    uniqueItems: true,
    ...(f.maxItems !== undefined ? { maxItems: f.maxItems } : {}),
  }),
  photo: () => ({ type: 'string', format: 'photo', maxLength: PHOTO_URL_MAX_LENGTH }),
};

function ajvSchema(model: AnswerSchemaModel): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: model.fields.filter((f) => f.required).map((f) => f.name),
    properties: Object.fromEntries(model.fields.map((f) => [f.name, ajvField[f.kind](f)])),
  };
}

function bounds(f: AnswerField): Record<string, number> {
  return {
    ...(f.minimum !== undefined ? { minimum: f.minimum } : {}),
    ...(f.maximum !== undefined ? { maximum: f.maximum } : {}),
  };
}

/** The top-level field an error is about ('' for the answer as a whole). */
function fieldOf(e: ErrorObject): string {
  if (e.keyword === 'required') return String(e.params.missingProperty);
  if (e.keyword === 'additionalProperties') return String(e.params.additionalProperty);
  return decodeURIComponent(e.instancePath.split('/')[1] ?? '')
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
}

/** Words for the worker and the agent, from the field's kind rather than ajv's own phrasing. */
const KIND_WORDS: Record<AnswerFieldKind, (f: AnswerField) => string> = {
  text: (f) => `must be text of at most ${f.maxLength} characters`,
  choice: (f) => `must be one of: ${listed(f.options!)}`,
  date: () => 'must be a date, YYYY-MM-DD',
  time: () => 'must be a time with its offset, HH:MM:SS+08:00 (RFC 3339)',
  date_time: () => 'must be a date and time with an offset, YYYY-MM-DDTHH:MM:SS+08:00 (RFC 3339)',
  number: (f) => `must be a number${range(f)}`,
  integer: (f) => `must be a whole number${range(f)}`,
  boolean: () => 'must be true or false',
  multi_select: (f) =>
    `must be a list of different choices among: ${listed(f.options!)}${f.maxItems ? ` (at most ${f.maxItems})` : ''}`,
  photo: () => 'must be the URL of a photo you uploaded',
};

function messageOf(e: ErrorObject, field: AnswerField | undefined): string {
  if (e.keyword === 'required') return 'is required';
  if (e.keyword === 'additionalProperties' || !field) return 'is not a field of the answer schema';
  return KIND_WORDS[field.kind](field);
}

function range(f: AnswerField): string {
  if (f.minimum !== undefined && f.maximum !== undefined) return ` from ${f.minimum} to ${f.maximum}`;
  if (f.minimum !== undefined) return ` of at least ${f.minimum}`;
  if (f.maximum !== undefined) return ` of at most ${f.maximum}`;
  return '';
}

function listed(options: string[]): string {
  const shown = options.slice(0, 10).join(', ');
  return options.length > 10 ? `${shown}, … (${options.length} in all)` : shown;
}
