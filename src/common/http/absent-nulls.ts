import { DECORATORS } from '@nestjs/swagger';

/** What the reference says of a request field (@ApiProperty's options, merged as the document merges them). */
interface FieldReference {
  required?: boolean;
  nullable?: boolean;
}

/**
 * The static method the @nestjs/swagger CLI plugin adds to each DTO class of the build (the options it infers from
 * the TypeScript types: `?` makes a field optional, `| null` nullable). The document merges it under the
 * decorators' own options; so does fieldReference, so null means the same before and after the first
 * /openapi.json (building the document copies the plugin's options into the decorators' metadata).
 */
const PLUGIN_FACTORY = '_OPENAPI_METADATA_FACTORY';

type PluginFactory = () => Record<string, FieldReference | undefined>;

const nullMeansAbsentByClass = new WeakMap<object, Map<string, boolean>>();

/**
 * Product-decisions §16: `null` in an optional request field means the field is absent, except on a field the
 * reference marks nullable, where null keeps its documented meaning (`fee_bps: null` is the platform fee,
 * `display_name: null` clears the name). Without this, `@IsOptional()` lets null through validation to services
 * written for "a value or undefined" (`latitude: null` on availability, `idempotency_key: null`, `behavior: null`
 * answered 500).
 *
 * Runs on the DTO instances class-transformer built, before validation, in nested DTOs and arrays of them too. A
 * required field set to null keeps it, so validation refuses it naming the field. Free-form objects (`metadata`,
 * `result_data`) are plain objects, not DTOs: their nulls are data and stay. Walks only what the body holds, once.
 */
export function dropAbsentNulls(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) dropAbsentNulls(item);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const proto = Object.getPrototypeOf(value) as object | null;
  if (!proto || !Reflect.hasMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, proto)) return;
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    const v = fields[key];
    if (v === null) {
      if (nullMeansAbsent(proto, key)) delete fields[key];
    } else if (typeof v === 'object') {
      dropAbsentNulls(v);
    }
  }
}

/** Cached per class and field: the answer depends only on the class's decorators, fixed once it is defined. */
function nullMeansAbsent(proto: object, key: string): boolean {
  let byKey = nullMeansAbsentByClass.get(proto);
  if (!byKey) {
    byKey = new Map();
    nullMeansAbsentByClass.set(proto, byKey);
  }
  let answer = byKey.get(key);
  if (answer === undefined) {
    const ref = fieldReference(proto, key);
    // An undocumented field is not whitelisted: validation refuses it, null or not.
    answer = ref !== undefined && ref.required === false && ref.nullable !== true;
    byKey.set(key, answer);
  }
  return answer;
}

/** The field's options as the document sees them: the plugin's inferred ones under the decorators' own. */
export function fieldReference(proto: object, key: string): FieldReference | undefined {
  const declared = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, proto, key) as
    FieldReference | undefined;
  let inferred: FieldReference | undefined;
  for (
    let p: object | null = proto;
    p && p !== Object.prototype && !inferred;
    p = Object.getPrototypeOf(p) as object | null
  ) {
    const factory = (p.constructor as unknown as Record<string, unknown> | undefined)?.[PLUGIN_FACTORY];
    if (typeof factory === 'function') inferred = (factory as PluginFactory).call(p.constructor)[key];
  }
  if (!declared && !inferred) return undefined;
  return { ...inferred, ...declared };
}
