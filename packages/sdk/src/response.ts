/**
 * How the API answered a call: what stripe-node calls `lastResponse`. Every result the client returns carries it as
 * a non-enumerable property, so it is there to read (`task.lastResponse.requestId`) but stays out of
 * `JSON.stringify`, spreads and deep equality: the result itself is exactly the API's JSON.
 */
export interface LastResponse {
  /** The HTTP status of the answer (the last attempt's, after the client's retries). */
  readonly status: number;
  /** The answer's `X-Request-ID`: quote it when reporting a problem (errors carry it as `request_id`). */
  readonly requestId: string | undefined;
  /**
   * true when the API answered a repeated `Idempotency-Key` from its store (`Idempotent-Replayed: true`): the write
   * ran once, earlier, and this is its first answer again.
   */
  readonly idempotentReplayed: boolean;
  /** The `Idempotency-Key` a write was sent with (reads send none). Reuse it to repeat the same write safely. */
  readonly idempotencyKey: string | undefined;
  /** Every header of the answer (rate limits, Retry-After...). */
  readonly headers: Headers;
}

/** A result of the client: the API's JSON, plus how it was answered. */
export type WithLastResponse<T> = T & { readonly lastResponse: LastResponse };

/** What a call with no body in its answer (204) resolves to: an empty object that still says how it went. */
export type EmptyResult = WithLastResponse<Record<string, never>>;

export function lastResponseOf(response: Response, idempotencyKey: string | undefined): LastResponse {
  return {
    status: response.status,
    requestId: response.headers.get('x-request-id') ?? undefined,
    idempotentReplayed: response.headers.get('idempotent-replayed') === 'true',
    idempotencyKey,
    headers: response.headers,
  };
}

/** Attaches `lastResponse` to an answer's JSON (an empty object when the answer had no body). */
export function withLastResponse<T>(data: T | undefined, lastResponse: LastResponse): WithLastResponse<T> {
  const target = data ?? {};
  Object.defineProperty(target, 'lastResponse', {
    value: lastResponse,
    enumerable: false,
    configurable: true,
  });
  return target as WithLastResponse<T>;
}
