import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, FieldProblem } from '../errors/api-error';
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
 * Whitelisting, refusal of unknown fields and explicit conversion only: implicit conversion would turn 'false'
 * into true. Failures become 400 validation_error with details [{field, message}]. class-validator's lookups of a
 * class's rules are kept (keepValidationLookups).
 */
export function createValidationPipe(): ValidationPipe {
  keepValidationLookups();
  return new ValidationPipe({
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
