import { HttpStatus } from '@nestjs/common';

/**
 * The closed list of error codes the API can answer with. Adding a code is a deliberate act: it is part of the
 * public contract (docs/errors.md and the OpenAPI error schema list them).
 */
export const ERROR_CODES = {
  validation_error: HttpStatus.BAD_REQUEST,
  invalid_json: HttpStatus.BAD_REQUEST,
  amount_mismatch: HttpStatus.BAD_REQUEST,
  refund_not_allowed: HttpStatus.BAD_REQUEST,
  already_refunded: HttpStatus.BAD_REQUEST,
  payment_method_unavailable: HttpStatus.BAD_REQUEST,
  daily_limit_exceeded: HttpStatus.BAD_REQUEST,
  invalid_sms_code: HttpStatus.BAD_REQUEST,
  photo_gps_missing: HttpStatus.BAD_REQUEST,
  photo_location_mismatch: HttpStatus.BAD_REQUEST,
  invalid_photo: HttpStatus.BAD_REQUEST,
  authentication_required: HttpStatus.UNAUTHORIZED,
  invalid_api_key: HttpStatus.UNAUTHORIZED,
  invalid_token: HttpStatus.UNAUTHORIZED,
  invalid_credentials: HttpStatus.UNAUTHORIZED,
  insufficient_balance: HttpStatus.PAYMENT_REQUIRED,
  insufficient_permissions: HttpStatus.FORBIDDEN,
  forbidden: HttpStatus.FORBIDDEN,
  account_disabled: HttpStatus.FORBIDDEN,
  not_eligible: HttpStatus.FORBIDDEN,
  not_found: HttpStatus.NOT_FOUND,
  task_not_found: HttpStatus.NOT_FOUND,
  result_not_available: HttpStatus.NOT_FOUND,
  order_not_found: HttpStatus.NOT_FOUND,
  assignment_not_found: HttpStatus.NOT_FOUND,
  method_not_allowed: HttpStatus.METHOD_NOT_ALLOWED,
  conflict: HttpStatus.CONFLICT,
  email_taken: HttpStatus.CONFLICT,
  phone_taken: HttpStatus.CONFLICT,
  duplicate_order: HttpStatus.CONFLICT,
  invalid_state: HttpStatus.CONFLICT,
  idempotency_conflict: HttpStatus.CONFLICT,
  task_full: HttpStatus.CONFLICT,
  already_assigned: HttpStatus.CONFLICT,
  assignment_limit_reached: HttpStatus.CONFLICT,
  already_rated: HttpStatus.CONFLICT,
  payload_too_large: HttpStatus.PAYLOAD_TOO_LARGE,
  unsupported_media_type: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  rate_limit_exceeded: HttpStatus.TOO_MANY_REQUESTS,
  concurrent_task_limit: HttpStatus.TOO_MANY_REQUESTS,
  account_locked: HttpStatus.TOO_MANY_REQUESTS,
  internal_error: HttpStatus.INTERNAL_SERVER_ERROR,
  not_implemented: HttpStatus.NOT_IMPLEMENTED,
  provider_error: HttpStatus.BAD_GATEWAY,
  service_unavailable: HttpStatus.SERVICE_UNAVAILABLE,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * A domain error: a code from the closed list, a human message, and optional context. Context fields are rendered
 * inside `error` next to code and message (for example `balance_cents` and `required_cents`).
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_CODES[code];
  }

  static validation(details: FieldProblem[], message = 'The request has invalid parameters.'): ApiError {
    return new ApiError('validation_error', message, { details });
  }

  static field(field: string, message: string): ApiError {
    return ApiError.validation([{ field, message }], `${field}: ${message}`);
  }
}
