import { AsyncLocalStorage } from 'node:async_hooks';

/** The Idempotency-Key claim the current request runs under (set by IdempotencyInterceptor). */
export interface IdempotencyClaim {
  agentId: string;
  key: string;
  /** Fences the claim: only the holder of the current token may store the response. */
  token: string;
  /** The status the handler answers with when it succeeds (its @HttpCode, else 201 for POST, 200 otherwise). */
  successStatus: number;
  /** Set when the handler stored its response inside its own transaction (see recordIdempotentResponse). */
  recorded: boolean;
}

export const idempotencyClaims = new AsyncLocalStorage<IdempotencyClaim>();
