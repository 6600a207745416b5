import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Runtime trick: the mark that lets assertNoOpenTransaction (src/database/transaction.ts) find a pool query made
 * inside a unit of work is kept outside production only. In Node 20 an AsyncLocalStorage that has run once makes
 * every promise of the process call async hooks (init, before, after), whatever the storage is for.
 *
 * - Gain: with the idempotency claims also passed as arguments instead of kept in a storage (idempotency-context.ts),
 *   creation's API CPU per request 1.74 / 1.72 against 2.42 / 2.44 ms at 32 connections, 297 against 239 req/s
 *   (bench/results/before-after.md, "Async hooks on every promise"; commit 4b971c5).
 * - Pinned by: test/database/transaction.e2e-spec.ts (a pool query inside a unit of work is refused, as the test
 *   suite runs with the mark). That production skips it is read here, not tested.
 * - To remove: make the storage unconditional (the check then holds in production too, at the cost above).
 *
 * The check finds a programming error, which the test suite (NODE_ENV=test) and development runs reach; production
 * (NODE_ENV=production: the Dockerfile, docker-compose.yml, deploy/) skips it.
 */
const mark = process.env.NODE_ENV === 'production' ? undefined : new AsyncLocalStorage<true>();

/** Runs `work` marked as inside a transaction (in everything it awaits too); outside production only. */
export function markTransaction<T>(work: () => Promise<T>): Promise<T> {
  return mark ? mark.run(true, work) : work();
}

/** Whether this runs inside work given to markTransaction; always false in production. */
export function insideMarkedTransaction(): boolean {
  return mark?.getStore() === true;
}
