import type { ValidationError } from '@nestjs/common';

const MESSAGE = 'must not contain the NUL character (\\u0000)';

/**
 * Fields whose text holds U+0000, as validation errors naming each field. JSON allows the character; PostgreSQL
 * stores it in neither text nor jsonb, so without this check it reached the database and came back as a bare
 * "value not valid" naming no field. Every string counts, free-form objects (`metadata`, `result_data`)
 * included; an item of an array is reported on its array, as class-validator reports `each` rules.
 */
export function nulCharacterErrors(value: unknown): ValidationError[] {
  const fields = new Set<string>();
  collect(value, '', fields);
  return [...fields].map((property) => ({
    property,
    constraints: { noNulCharacter: MESSAGE },
    children: [],
  }));
}

function collect(value: unknown, field: string, out: Set<string>): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.add(field);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, field, out);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    // A key can hold the character too (a free-form object's); it is reported on the object.
    if (key.includes('\u0000')) out.add(field || key);
    collect(v, field ? `${field}.${key}` : key, out);
  }
}
