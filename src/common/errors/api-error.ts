import { ErrorCode, ErrorExtra, statusOf } from './error-catalog';

export { ERROR_CODES } from './error-catalog';
export type { ErrorCode } from './error-catalog';

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * A domain error: a code from the closed list (error-catalog.ts; docs/errors.md describes each), a human message,
 * and the context fields that code may carry, rendered inside `error` next to code and message (for example
 * `balance_cents` and `required_cents`).
 */
class DomainError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = statusOf(code);
  }

  static validation(details: FieldProblem[], message = 'The request has invalid parameters.'): ApiError {
    return new ApiError('validation_error', message, { details });
  }

  static field(field: string, message: string): ApiError {
    return ApiError.validation([{ field, message }], `${field}: ${message}`);
  }
}

/**
 * The constructor is typed per code: `extra` takes only the fields the catalogue lists for it, so a field the code
 * does not carry, or a value of the wrong type, does not compile. The instance type is not generic, so
 * `err instanceof ApiError` narrows to a plain ApiError.
 */
interface ApiErrorClass {
  new <C extends ErrorCode>(
    code: C,
    message: string,
    extra?: ErrorExtra<C>,
    headers?: Record<string, string>,
  ): ApiError;
  readonly prototype: ApiError;
  validation(details: FieldProblem[], message?: string): ApiError;
  field(field: string, message: string): ApiError;
}

export type ApiError = DomainError;
export const ApiError = DomainError as ApiErrorClass;
