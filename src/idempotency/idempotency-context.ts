import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a key guards, each a namespace of its own within an agent's keys: `request` is the Idempotency-Key header on
 * any agent write (kept 24 hours); `task` is the body idempotency_key of task creation and `admin_credit` an
 * operator's Idempotency-Key on a manual credit to the agent (both kept for good, as they always were).
 */
export type KeyScope = 'request' | 'task' | 'admin_credit';

export interface KeyRef {
  agentId: string;
  scope: KeyScope;
  key: string;
}

/** A key this request holds the claim on (see IdempotencyKeys.run). */
export interface IdempotencyClaim {
  ref: KeyRef;
  /** Fences the claim: only the holder of the current token may store the answer. */
  token: string;
  /** The status the request answers with when it succeeds (its @HttpCode, else 201 for POST, 200 otherwise). */
  successStatus: number;
  /** The answer stored inside the transaction that made the effect (idempotentTransaction), once it committed. */
  recorded?: { body: unknown };
}

/**
 * The claims the current request holds, outermost first: the Idempotency-Key header's, then a body key's (task
 * creation with both). idempotentTransaction stores the answer under each of them.
 */
const claims = new AsyncLocalStorage<readonly IdempotencyClaim[]>();

export function heldClaims(): readonly IdempotencyClaim[] {
  return claims.getStore() ?? [];
}

/** Runs `fn` holding `claim` as well as any claims held already. */
export function withClaim<T>(claim: IdempotencyClaim, fn: () => T): T {
  return claims.run([...heldClaims(), claim], fn);
}
