import type { ProviderName } from './provider.types';

/**
 * A provider call that did not give a usable answer.
 * - timeout / unavailable / bad_response_signature: the request may or may not have been applied
 *   (`outcomeUnknown`); retry with the same merchant id (every call here is idempotent by it) or query first.
 * - rejected: the provider refused for a business reason (`providerCode` says which); definitive.
 * - invalid_request: the provider refused the request itself (our signature, app id, parameters): a bug or a
 *   configuration problem, not worth retrying.
 */
export type ProviderErrorKind =
  'timeout' | 'unavailable' | 'bad_response_signature' | 'rejected' | 'invalid_request';

export class ProviderError extends Error {
  readonly retryable: boolean;
  readonly outcomeUnknown: boolean;

  constructor(
    readonly provider: ProviderName,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly providerCode: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
    this.name = 'ProviderError';
    this.retryable = kind === 'timeout' || kind === 'unavailable' || kind === 'bad_response_signature';
    this.outcomeUnknown = this.retryable;
  }
}

/** Refuses ids the providers would reject, before a request is signed. */
export function checkId(provider: ProviderName, what: string, value: string, pattern: RegExp): void {
  if (!pattern.test(value)) {
    throw new ProviderError(
      provider,
      'invalid_request',
      `${what} '${value}' does not match ${String(pattern)}`,
    );
  }
}

/** Order and refund numbers both providers accept. */
export const ORDER_ID = /^[0-9A-Za-z_-]{6,32}$/;
export const REFUND_ID = /^[0-9A-Za-z_-]{1,64}$/;
/** WeChat transfer bills allow letters and digits only. */
export const TRANSFER_ID = /^[0-9A-Za-z]{1,32}$/;

export function checkAmount(provider: ProviderName, cents: number): void {
  if (!Number.isSafeInteger(cents) || cents < 1) {
    throw new ProviderError(
      provider,
      'invalid_request',
      `amount must be a positive integer of cents (got ${cents})`,
    );
  }
}
