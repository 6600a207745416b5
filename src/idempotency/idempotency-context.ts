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
 * The claims a request holds, outermost first: the Idempotency-Key header's (IdempotencyInterceptor puts it on the
 * request; controllers pass it on with @Claims()), then a body key's (task creation with both). The service hands
 * them to idempotentTransaction, which stores the answer under each of them with the effect.
 *
 * They are passed as an argument, not kept in an AsyncLocalStorage: in Node 20 a storage that has run once makes
 * every promise in the process call async hooks (init, before, after): with it and the open-transaction mark gone
 * from the request path, task creation's API CPU per request fell from 2.4 to 1.7 ms (bench/results/before-after.md).
 */
export type HeldClaims = readonly IdempotencyClaim[];
