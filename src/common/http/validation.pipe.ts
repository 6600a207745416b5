import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { ApiError, FieldProblem } from '../errors/api-error';
import { dropAbsentNulls } from './absent-nulls';
import { databaseValueErrors } from './database-values';
import { keepValidationLookups } from '../../runtime/validation-lookups';

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
    return super.transform(value, metadata) as Promise<unknown>;
  }

  protected override async validate(object: object, validatorOptions?: ValidatorOptions) {
    dropAbsentNulls(object);
    const errors = await super.validate(object, validatorOptions);
    return [...errors, ...databaseValueErrors(object)];
  }
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
    exceptionFactory: (errors) => {
      const details = flattenValidationErrors(errors);
      const summary = details
        .slice(0, 3)
        .map((d) => `${d.field}: ${d.message}`)
        .join('; ');
      return ApiError.validation(details, summary || 'The request has invalid parameters.');
    },
  });
}
