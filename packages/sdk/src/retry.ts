/** How the client retries: attempts after the first, and the backoff between them. */
export interface RetryOptions {
  /** Retries after the first attempt (default 2, so at most 3 attempts). 0 turns retries off. */
  maxRetries: number;
  /** First backoff in ms (doubled each retry, with jitter), when the answer names no Retry-After. Default 500. */
  initialDelayMs: number;
  /** Longest wait between attempts in ms, Retry-After included. Default 20 000. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 20_000 };

/** Why an answer (or its absence) is worth another try; undefined when it is final. */
export async function retryReason(response: Response | undefined): Promise<string | undefined> {
  if (!response) return 'connection error';
  const { status } = response;
  if (status === 429) return '429';
  if (status >= 500) return String(status);
  if (status === 409) {
    // Only the "first request still running" form of 409: retrying it with the same key gets the first answer.
    // Every other 409 (invalid_state, a reused key) answers the same however often it is sent.
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    const error = (body as { error?: { in_progress?: unknown } } | undefined)?.error;
    if (error?.in_progress === true) return '409 in progress';
  }
  return undefined;
}

/**
 * The wait before the next attempt: the answer's Retry-After (seconds, or an HTTP date) when it has one, else
 * exponential backoff with full jitter; never more than maxDelayMs.
 */
export function retryDelayMs(
  response: Response | undefined,
  retry: number,
  opts: RetryOptions,
  now = Date.now(),
  random = Math.random,
): number {
  const header = response?.headers.get('retry-after');
  if (header) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), opts.maxDelayMs);
  }
  const ceiling = Math.min(opts.initialDelayMs * 2 ** retry, opts.maxDelayMs);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that retries what is safe to retry: connection errors, 409 in progress, 429 and 5xx. The request is
 * replayed byte for byte, headers included, so a write keeps its Idempotency-Key on every attempt and the service
 * runs it once. The last answer (or connection error) is the caller's.
 */
export function retryingFetch(
  baseFetch: typeof fetch,
  opts: RetryOptions,
  wait: (ms: number) => Promise<void> = sleep,
): (input: Request) => Promise<Response> {
  return async (input: Request) => {
    for (let retry = 0; ; retry++) {
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await baseFetch(input.clone());
      } catch (err) {
        if (input.signal?.aborted) throw err;
        failure = err;
      }
      const reason = retry < opts.maxRetries ? await retryReason(response) : undefined;
      if (!reason) {
        if (response) return response;
        throw failure;
      }
      await response?.body?.cancel();
      await wait(retryDelayMs(response, retry, opts));
    }
  };
}
