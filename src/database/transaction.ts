import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';

const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';

/**
 * Runs one unit of work in a READ COMMITTED transaction. Services take the EntityManager for every step so that a
 * state change and the ledger postings it causes commit or roll back together. Serialization failures and
 * deadlocks are retried a few times, because the work is all-or-nothing and safe to repeat.
 *
 * READ COMMITTED is every connection's default (set when it connects, see dataSourceOptions), so the transaction
 * starts with a plain BEGIN: naming the level here would cost every transaction one more round trip.
 */
export async function inTransaction<T>(ds: DataSource, work: (em: EntityManager) => Promise<T>): Promise<T> {
  assertNoOpenTransaction('a transaction');
  for (let attempt = 1; ; attempt++) {
    try {
      return await ds.transaction((em) =>
        openTransaction.run(true, async () => {
          const hooks = new Map<object, CommitHook>();
          commitHooks.set(em, hooks);
          const result = await work(em);
          for (const hook of hooks.values()) await hook(em);
          return result;
        }),
      );
    } catch (err) {
      const code = (err as { code?: string; driverError?: { code?: string } }).driverError?.code;
      if (attempt < 4 && (code === SERIALIZATION_FAILURE || code === DEADLOCK_DETECTED)) continue;
      throw err;
    }
  }
}

type CommitHook = (em: EntityManager) => Promise<void>;

/** The hooks of each unit of work of inTransaction, by its EntityManager (see beforeCommit). */
const commitHooks = new WeakMap<EntityManager, Map<object, CommitHook>>();

/**
 * Registers `hook` (once per `key`) to run in the transaction of `em` when its unit of work has returned, just
 * before COMMIT; returns false when `em` is not the EntityManager of an inTransaction unit of work (the caller then
 * does its work at once). For writes that batch well: the outbox writes the events of a transaction in one INSERT.
 */
export function beforeCommit(em: EntityManager, key: object, hook: CommitHook): boolean {
  const hooks = commitHooks.get(em);
  if (!hooks) return false;
  if (!hooks.has(key)) hooks.set(key, hook);
  return true;
}

/** Set while a unit of work of inTransaction runs (and in everything it awaits). */
const openTransaction = new AsyncLocalStorage<true>();

/**
 * Work inside a transaction holds one pooled connection; asking the pool for another (a query on the DataSource
 * instead of the EntityManager, or a nested transaction) waits for a connection while holding one. Twenty
 * concurrent requests doing that hold all twenty and wait for each other until the pool's timeout, and every other
 * request, /health included, waits with them (a storm of duplicate payment notifications did exactly that). So it
 * is refused at once, in every environment, and any test that reaches such code fails.
 */
export function assertNoOpenTransaction(what: string): void {
  if (openTransaction.getStore()) {
    throw new Error(
      `${what} on the pool inside a transaction would hold one connection while waiting for another: ` +
        `use the transaction's EntityManager`,
    );
  }
}
