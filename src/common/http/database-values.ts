import type { ValidationError } from '@nestjs/common';

/** The smallest normal double: below it (subnormals), PostgreSQL's float arithmetic fails with "underflow". */
const SMALLEST_NORMAL = 2.2250738585072014e-308;

const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
const SUBNORMAL_MESSAGE = `is too close to 0 to compute with (below ${SMALLEST_NORMAL} in magnitude): send 0`;

/**
 * Values JSON allows and PostgreSQL cannot take, as validation errors naming each field: text holding U+0000
 * (stored in neither text nor jsonb), and subnormal numbers, such as 5e-324 (float arithmetic on them underflows:
 * `ll_to_earth` of a latitude of 5e-324 failed). Without this they reached the database and came back as a bare
 * "value not valid" naming no field. Every value counts, free-form objects (`metadata`, `result_data`) included; an
 * item of an array is reported on its array, as class-validator reports `each` rules. No quantity of this API means
 * a subnormal number, so refusing one loses nothing.
 */
export function databaseValueErrors(value: unknown): ValidationError[] {
  const found = new Map<string, string>();
  collect(value, [], found);
  return [...found].map(([property, message]) => ({
    property,
    constraints: { databaseValue: message },
    children: [],
  }));
}

/** `path` is the keys down to `value`, joined only when something is found (most bodies have nothing to report). */
function collect(value: unknown, path: string[], out: Map<string, string>): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.set(path.join('.'), NUL_MESSAGE);
    return;
  }
  if (typeof value === 'number') {
    if (value !== 0 && Math.abs(value) < SMALLEST_NORMAL) out.set(path.join('.'), SUBNORMAL_MESSAGE);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, path, out);
    return;
  }
  for (const key of Object.keys(value)) {
    // A key can hold the character too (a free-form object's); it is reported on the object.
    if (key.includes('\u0000')) out.set(path.length ? path.join('.') : key, NUL_MESSAGE);
    path.push(key);
    collect((value as Record<string, unknown>)[key], path, out);
    path.pop();
  }
}
