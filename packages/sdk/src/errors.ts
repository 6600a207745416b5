import type { components } from './generated/openapi';

/** The `error` object of every Legwork error answer: `code`, `message`, `request_id` and the code's own fields. */
export type ErrorBody = components['schemas']['ErrorBody'];

/**
 * Every failure the SDK reports is a LegworkError. Answers from the API carry the envelope's fields as they are
 * (`code`, `request_id`, `required_cents`, `current_status`, `retry_after`, ...), so code written against the
 * error catalogue (docs/errors.md) reads the same names here.
 */
export class LegworkError extends Error {
  /** HTTP status, or undefined when no answer came (connection errors). */
  readonly status: number | undefined;
  readonly code: string;
  readonly request_id: string | undefined;
  /** The whole `error` object of the answer. */
  readonly error: ErrorBody | undefined;
  /** The Idempotency-Key the request was sent with (writes only): reuse it to retry the same action later. */
  readonly idempotency_key: string | undefined;

  constructor(
    message: string,
    opts: { status?: number; code: string; error?: ErrorBody; idempotencyKey?: string; cause?: unknown },
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.status = opts.status;
    this.code = opts.code;
    this.error = opts.error;
    this.request_id = opts.error?.request_id;
    this.idempotency_key = opts.idempotencyKey;
  }

  get details() {
    return this.error?.details;
  }
  get required_cents() {
    return this.error?.required_cents;
  }
  get balance_cents() {
    return this.error?.balance_cents;
  }
  get current_status() {
    return this.error?.current_status;
  }
  get retry_after() {
    return this.error?.retry_after;
  }
  get required_permission() {
    return this.error?.required_permission;
  }
}

/** 400: the request was refused as it stands (`validation_error` lists every problem in `details`). */
export class LegworkInvalidRequestError extends LegworkError {}
/** 401: no credential, a wrong one, or an expired session. */
export class LegworkAuthenticationError extends LegworkError {}
/** 402 `insufficient_balance`: `required_cents` and `balance_cents` say how far short the balance is. */
export class LegworkInsufficientBalanceError extends LegworkError {}
/**
 * 402 `spend_cap_exceeded`: the API key's spend cap for `period` would be passed (`cap_cents`, `counted_cents`,
 * `remaining_cents`, `resets_at`). Nothing was created; ask for an approval (`spendApprovals.create`) or wait.
 */
export class LegworkSpendCapError extends LegworkError {}
/** 403: the key lacks `required_permission`, or the account may not do this. */
export class LegworkPermissionError extends LegworkError {}
/** 404: not found (also another agent's task). */
export class LegworkNotFoundError extends LegworkError {}
/** 409: the resource is in another state (`current_status`), or an idempotency key was reused for another request. */
export class LegworkConflictError extends LegworkError {}
/** 409 `idempotency_conflict` without `in_progress`: the key was used for a different request. */
export class LegworkIdempotencyError extends LegworkConflictError {}
/** 429: a rate limit (`retry_after` seconds) or the concurrent task limit. */
export class LegworkRateLimitError extends LegworkError {}
/** 5xx: the service failed; writes are safe to retry with the same idempotency key. */
export class LegworkAPIError extends LegworkError {}
/** No answer: the connection failed or timed out (after the SDK's own retries). */
export class LegworkConnectionError extends LegworkError {}
/** A webhook delivery whose Legwork-Signature is missing, wrong or too old. */
export class LegworkSignatureVerificationError extends LegworkError {}

function isErrorBody(v: unknown): v is ErrorBody {
  return typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'string';
}

/** The typed error for an error answer: by `code` where one needs its own class, else by status. */
export function errorFromResponse(status: number, payload: unknown, idempotencyKey?: string): LegworkError {
  const inner =
    typeof payload === 'object' && payload !== null ? (payload as { error?: unknown }).error : undefined;
  const error = isErrorBody(inner) ? inner : undefined;
  const code = error?.code ?? `http_${status}`;
  const message = error?.message ?? `HTTP ${status}`;
  const opts = { status, code, error, idempotencyKey };
  if (code === 'spend_cap_exceeded') return new LegworkSpendCapError(message, opts);
  if (code === 'insufficient_balance' || status === 402)
    return new LegworkInsufficientBalanceError(message, opts);
  if (code === 'idempotency_conflict' && !error?.in_progress)
    return new LegworkIdempotencyError(message, opts);
  if (status === 400 || status === 413 || status === 415 || status === 422)
    return new LegworkInvalidRequestError(message, opts);
  if (status === 401) return new LegworkAuthenticationError(message, opts);
  if (status === 403) return new LegworkPermissionError(message, opts);
  if (status === 404) return new LegworkNotFoundError(message, opts);
  if (status === 409) return new LegworkConflictError(message, opts);
  if (status === 429) return new LegworkRateLimitError(message, opts);
  if (status >= 500) return new LegworkAPIError(message, opts);
  return new LegworkError(message, opts);
}
