import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { ApiError, FieldProblem } from '../errors/api-error';
import { dropAbsentNulls } from './absent-nulls';
import { databaseValueErrors } from './database-values';
import { keepValidationLookups } from '../../runtime/validation-lookups';
import { opaqueJsonKeys } from './opaque-json';

/** Flattens nested class-validator errors into [{field: 'location.latitude', message}]. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    for (const message of Object.values(e.constraints ?? {})) {
      out.push({ field, message: message.replace(/^property \S+ /, 'unknown field; ') });
    }
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, field));
  }
  return out;
}

/**
 * Nest's pipe, with null in an optional field read as absent (dropAbsentNulls) before the rules run, and one rule
 * for every value: none PostgreSQL cannot take (databaseValueErrors: NUL characters, subnormal numbers).
 */
class RequestValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A parameter read as a plain string (a withdrawal's or an order's id in the path) is no DTO to validate, but
    // it goes to the database all the same.
    const named = metadata.type === 'param' || metadata.type === 'query';
    if (named && metadata.data && (typeof value === 'string' || typeof value === 'number')) {
      const errors = databaseValueErrors({ [metadata.data]: value });
      if (errors.length) throw await this.exceptionFactory(errors);
    }
    const opaque = metadata.type === 'body' ? heldOpaqueJson(value, metadata.metatype) : null;
    if (!opaque) return super.transform(value, metadata) as Promise<unknown>;
    return this.transformWithOpaque(opaque, metadata);
  }

  /**
   * The body with stand-ins for its @OpaqueJson values goes through Nest's pipe (copied into the DTO and validated);
   * the values themselves are validated on a bare instance of the class holding only them (skipMissingProperties:
   * the rest is validated by the pipe), then set on the DTO as they were parsed. All errors come in one answer.
   */
  private async transformWithOpaque(opaque: HeldOpaqueJson, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype as new () => object;
    // What Nest's pipe does to the whole body, done to the held values too: no __proto__, prototype or constructor
    // key survives in them (JSON bodies have no array gaps to close).
    for (const v of Object.values(opaque.held)) this.stripProtoKeys(v);
    const probe = Object.assign(Object.create(metatype.prototype as object) as object, opaque.held);
    const opaqueErrors = await this.validate(probe, {
      ...this.validatorOptions,
      skipMissingProperties: true,
      validationError: { target: false, value: false },
    });
    let entity: unknown;
    try {
      entity = await super.transform(opaque.rest, metadata);
    } catch (err) {
      if (opaqueErrors.length && err instanceof ApiError && err.code === 'validation_error') {
        const others = (err.extra.details ?? []) as FieldProblem[];
        throw validationFailure([...others, ...flattenValidationErrors(opaqueErrors)]);
      }
      throw err;
    }
    if (opaqueErrors.length) throw await this.exceptionFactory(opaqueErrors);
    // The held values in place of their stand-ins, as they were parsed.
    return Object.assign(entity as object, opaque.held);
  }

  protected override async validate(object: object, validatorOptions?: ValidatorOptions) {
    dropAbsentNulls(object);
    const errors = await super.validate(object, validatorOptions);
    return [...errors, ...databaseValueErrors(object)];
  }
}

interface HeldOpaqueJson {
  /** The body with an empty object in place of each held value (a shallow copy: the request's body stays as it came). */
  rest: Record<string, unknown>;
  /** The held values as parsed. */
  held: Record<string, unknown>;
}

/**
 * Splits off a JSON body's @OpaqueJson values that are plain objects (null when there is none to hold). Each leaves
 * an empty object in its place, so the rest is validated as a whole (a required field is present, an object is an
 * object) while the value's own rules run on the probe. Other values (null, a string where an object belongs, an
 * array) are cheap to copy and stay in the body, where validation reports them as it always has.
 */
function heldOpaqueJson(value: unknown, metatype: unknown): HeldOpaqueJson | null {
  const keys = opaqueJsonKeys(metatype);
  if (!keys.length || !isPlainObject(value)) return null;
  const held: Record<string, unknown> = {};
  let rest: Record<string, unknown> | null = null;
  for (const k of keys) {
    const v = value[k];
    if (!Object.hasOwn(value, k) || !isPlainObject(v)) continue;
    rest ??= { ...value };
    held[k] = v;
    rest[k] = {};
  }
  return rest && { rest, held };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}

/** 400 validation_error listing every problem, the first three in the message. */
function validationFailure(details: FieldProblem[]): ApiError {
  const summary = details
    .slice(0, 3)
    .map((d) => `${d.field}: ${d.message}`)
    .join('; ');
  return ApiError.validation(details, summary || 'The request has invalid parameters.');
}

/**
 * Whitelisting, refusal of unknown fields and explicit conversion only: implicit conversion would turn 'false'
 * into true. Null in an optional field is absent unless the field is nullable (product-decisions §16); no value
 * may be one PostgreSQL cannot take (NUL in text, subnormal numbers). Failures become 400 validation_error with
 * details [{field, message}]. class-validator's lookups of a class's rules are kept (keepValidationLookups).
 */
export function createValidationPipe(): ValidationPipe {
  keepValidationLookups();
  return new RequestValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => validationFailure(flattenValidationErrors(errors)),
  });
}
