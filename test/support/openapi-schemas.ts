import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Just enough JSON Schema (OpenAPI 3.0 dialect, as @nestjs/swagger writes it) for the specs that read
 * openapi/openapi.json (the fuzzer, the security table): values that follow a schema, and a validator that lists
 * where a response body departs from its documented schema.
 */
export type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
  example?: unknown;
};

export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
  security?: Record<string, string[]>[];
  /** Permissions an API key needs (written by @Auth from the same rule the guard enforces). */
  'x-permissions'?: string[];
}

/** The committed openapi/openapi.json (the drift check keeps it equal to what the code generates). */
export function loadOpenApi(): OpenApiDoc {
  return JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8'),
  ) as OpenApiDoc;
}

export function resolve(doc: OpenApiDoc, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 20; i++) s = doc.components.schemas[s.$ref.split('/').pop()!] ?? {};
  if (s.allOf) {
    const parts = s.allOf.map((p) => resolve(doc, p));
    const merged: Schema = { ...s, allOf: undefined, type: 'object', properties: {}, required: [] };
    for (const p of parts) {
      Object.assign(merged.properties!, p.properties ?? {});
      merged.required!.push(...(p.required ?? []));
      if (!p.properties && parts.length === 1) return { ...p, nullable: s.nullable ?? p.nullable };
    }
    return merged;
  }
  return s;
}

const MAX_DEPTH = 4;

/** Values that satisfy the schema (within reason: patterns beyond the common ones are approximated). */
export function valueOf(doc: OpenApiDoc, raw: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, raw);
  const base = plainValueOf(doc, s, depth);
  return s.nullable ? fc.option(base, { nil: null, freq: 8 }) : base;
}

function plainValueOf(doc: OpenApiDoc, s: Schema, depth: number): fc.Arbitrary<unknown> {
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  const variants = s.oneOf ?? s.anyOf;
  if (variants?.length) return fc.oneof(...variants.map((v) => valueOf(doc, v, depth + 1)));
  const type = s.type ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'string':
      return stringOf(s);
    case 'integer':
      return fc.integer({
        min: bound(s.minimum, s.exclusiveMinimum, -1e6, 1),
        max: bound(s.maximum, s.exclusiveMaximum, 1e9, -1),
      });
    case 'number':
      return fc.double({
        min: bound(s.minimum, s.exclusiveMinimum, -1e6, 1e-6),
        max: bound(s.maximum, s.exclusiveMaximum, 1e9, -1e-6),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(depth > MAX_DEPTH ? fc.constant(null) : valueOf(doc, s.items, depth + 1), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 4, Math.max(s.minItems ?? 0, 4)),
      });
    case 'object': {
      if (depth > MAX_DEPTH) return fc.constant({});
      const props = s.properties ?? {};
      const keys = Object.keys(props);
      if (keys.length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
      return fc.record(Object.fromEntries(keys.map((k) => [k, valueOf(doc, props[k], depth + 1)])), {
        requiredKeys: (s.required ?? []).filter((k) => keys.includes(k)),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function bound(
  value: number | undefined,
  exclusive: boolean | number | undefined,
  fallback: number,
  step: number,
): number {
  if (typeof exclusive === 'number') return exclusive + step;
  if (value === undefined) return fallback;
  return exclusive === true ? value + step : value;
}

function stringOf(s: Schema): fc.Arbitrary<string> {
  switch (s.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .integer({ min: 60_000, max: 20 * 86_400_000 })
        .map((ms) => new Date(Date.now() + ms).toISOString());
    case 'date':
      return fc
        .integer({ min: 0, max: 60 })
        .map((d) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
  }
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern));
    } catch {
      // fall through to a plain string
    }
  }
  const minLength = s.minLength ?? 0;
  return fc.string({ minLength, maxLength: Math.min(s.maxLength ?? 40, Math.max(minLength, 40)) });
}

/** Where `value` departs from the schema, as readable paths; empty when it conforms. */
export function validate(doc: OpenApiDoc, raw: Schema | undefined, value: unknown, path = '$'): string[] {
  const s = resolve(doc, raw);
  if (value === null)
    return s.nullable || s.type === undefined ? [] : [`${path}: null where ${s.type} expected`];
  if (s.enum && !s.enum.includes(value)) return [`${path}: ${JSON.stringify(value)} not in enum`];
  const variants = s.oneOf ?? s.anyOf;
  if (variants?.length) {
    return variants.some((v) => validate(doc, v, value, path).length === 0)
      ? []
      : [`${path}: matches no variant`];
  }
  const type = s.type ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'string':
      return typeof value === 'string' ? [] : [`${path}: expected string, got ${typeof value}`];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${path}: expected integer, got ${JSON.stringify(value)}`];
    case 'number':
      return typeof value === 'number' ? [] : [`${path}: expected number, got ${typeof value}`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${path}: expected boolean, got ${typeof value}`];
    case 'array':
      if (!Array.isArray(value)) return [`${path}: expected array`];
      return value.flatMap((v, i) => validate(doc, s.items, v, `${path}[${i}]`));
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${path}: expected object`];
      const obj = value as Record<string, unknown>;
      const problems = (s.required ?? [])
        .filter((k) => !(k in obj))
        .map((k) => `${path}.${k}: required, missing`);
      for (const [k, v] of Object.entries(obj)) {
        if (s.properties?.[k]) problems.push(...validate(doc, s.properties[k], v, `${path}.${k}`));
      }
      return problems;
    }
    default:
      return [];
  }
}
