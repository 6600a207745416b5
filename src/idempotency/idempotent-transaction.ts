import type { DataSource, EntityManager } from 'typeorm';
import { inTransaction } from '../database/transaction';
import type { HeldClaims } from './idempotency-context';
import { storable } from './idempotency-keys';
import { recordAnswer } from './idempotency.store';

/**
 * The one shape of a request that moves money: its effect runs in one transaction (inTransaction, with its retries)
 * and, when the request holds idempotency key claims (`claims`: the Idempotency-Key header's, a body key's), the
 * answer is stored under each of them in that same transaction. The effect and its answer then commit together or
 * not at all: a process killed after the commit leaves an answer that a retry replays, never an effect that a retry
 * repeats; a claim taken over meanwhile refuses the transaction (token fencing), so one of two racing attempts
 * commits.
 *
 * `answer` turns the work's result into the response body (by default the result itself). A request that goes on
 * after the commit (a refund asks the provider) stores its final answer over this one when it ends
 * (IdempotencyKeys); until then a replay gets the answer as of the commit, which is true. Runs once per request.
 */
export async function idempotentTransaction<T>(
  ds: DataSource,
  claims: HeldClaims,
  work: (em: EntityManager) => Promise<T>,
  answer: (result: T) => unknown = (result) => result,
): Promise<T> {
  if (claims.some((c) => c.recorded)) {
    throw new Error('idempotentTransaction runs once per request: its answer is stored already');
  }
  let body: unknown;
  const result = await inTransaction(ds, async (em) => {
    const result = await work(em);
    if (claims.length > 0) {
      body = answer(result);
      const stored = storable(body);
      for (const claim of claims) await recordAnswer(em, claim, stored);
    }
    return result;
  });
  for (const claim of claims) claim.recorded = { body };
  return result;
}
