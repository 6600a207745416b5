const OPAQUE_JSON = Symbol('legwork:opaque-json');

/**
 * Marks a free-form JSON property of a request DTO (an `answer_schema`, a submission's `result_data`, `metadata`)
 * whose value the validation pipe keeps as JSON.parse made it: class-transformer would otherwise copy it key by key
 * into a new object (and Nest's pipe walk it twice more) before anything reads it, which for a 30-field answer schema
 * cost more than the rest of the body (issue 28's creation benchmark). The property's own class-validator rules
 * (`@IsObject`, `@MaxJsonBytes`, ...) and the database-value check still run on it; its content is the domain's to
 * check (answer-schema.ts, proof-rules.ts). Only for values that are plain JSON, never for nested DTOs.
 */
export function OpaqueJson(): PropertyDecorator {
  return (target, key) => {
    const keys = (Reflect.getMetadata(OPAQUE_JSON, target) as string[] | undefined) ?? [];
    Reflect.defineMetadata(OPAQUE_JSON, [...keys, String(key)], target);
  };
}

/** The DTO class's @OpaqueJson properties, its parents' included. */
export function opaqueJsonKeys(metatype: unknown): readonly string[] {
  if (typeof metatype !== 'function') return [];
  return (Reflect.getMetadata(OPAQUE_JSON, metatype.prototype as object) as string[] | undefined) ?? [];
}
