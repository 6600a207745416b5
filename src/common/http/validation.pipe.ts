import { ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { ApiError, FieldProblem } from '../errors/api-error';
import { dropAbsentNulls } from './absent-nulls';
import { nulCharacterErrors } from './nul-characters';
import { keepValidationLookups } from './validation-metadata';

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
 * for every text: no NUL character (nulCharacterErrors).
 */
class RequestValidationPipe extends ValidationPipe {
  protected override async validate(object: object, validatorOptions?: ValidatorOptions) {
    dropAbsentNulls(object);
    const errors = await super.validate(object, validatorOptions);
    return [...errors, ...nulCharacterErrors(object)];
  }
}

/**
 * Whitelisting, refusal of unknown fields and explicit conversion only: implicit conversion would turn 'false'
 * into true. Null in an optional field is absent unless the field is nullable (product-decisions §16); text may not
 * hold the NUL character, which PostgreSQL cannot store. Failures become 400 validation_error with details
 * [{field, message}]. class-validator's lookups of a class's rules are kept (keepValidationLookups).
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
