import type { DataSource, EntityManager } from 'typeorm';
import { runPipelined } from '../runtime/pipelined-transaction';
import { insideMarkedTransaction, markTransaction } from '../runtime/transaction-mark';

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
      return await runAttempt(ds, work);
    } catch (err) {
      const code = (err as { code?: string; driverError?: { code?: string } }).driverError?.code;
      if (attempt < 4 && (code === SERIALIZATION_FAILURE || code === DEADLOCK_DETECTED)) continue;
      throw err;
    }
  }
}

/** One SQL statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * One attempt of a unit of work, on a connection of its own: BEGIN, the work, the commit hooks' statements, COMMIT,
 * or ROLLBACK when anything fails. The runner sends BEGIN and COMMIT in the same writes as the statements beside them
 * (runtime/pipelined-transaction.ts, a measured runtime trick; docs/scaling.md, "Runtime tricks").
 */
function runAttempt<T>(ds: DataSource, work: (em: EntityManager) => Promise<T>): Promise<T> {
  const hooks = new Map<object, CommitHook>();
  return runPipelined(
    ds,
    (em) => {
      commitHooks.set(em, hooks);
      return markTransaction(() => work(em));
    },
    () => [...hooks.values()].map((hook) => hook()),
  );
}

/** What a commit hook adds to the transaction: one statement, sent with COMMIT. */
type CommitHook = () => Statement;

/** The hooks of each unit of work of inTransaction, by its EntityManager (see beforeCommit). */
const commitHooks = new WeakMap<EntityManager, Map<object, CommitHook>>();

/**
 * Registers `hook` (once per `key`) to give, when the unit of work of `em` has returned, one statement that is sent
 * just before COMMIT, in the same write (after the statements of hooks registered before it); returns false when
 * `em` is not the EntityManager of an inTransaction unit of work (the caller then does its work at once). For writes
 * that batch well and whose answer nothing reads: the outbox writes the events of a transaction in one INSERT. A
 * statement that fails rolls the transaction back and fails the unit of work.
 */
export function beforeCommit(em: EntityManager, key: object, hook: CommitHook): boolean {
  const hooks = commitHooks.get(em);
  if (!hooks) return false;
  if (!hooks.has(key)) hooks.set(key, hook);
  return true;
}

/**
 * Work inside a transaction holds one pooled connection; asking the pool for another (a query on the DataSource
 * instead of the EntityManager, or a nested transaction) waits for a connection while holding one. Twenty
 * concurrent requests doing that hold all twenty and wait for each other until the pool's timeout, and every other
 * request, /health included, waits with them (a storm of duplicate payment notifications did exactly that). So it
 * is refused at once, and any test that reaches such code fails (outside production: runtime/transaction-mark.ts).
 */
export function assertNoOpenTransaction(what: string): void {
  if (insideMarkedTransaction()) {
    throw new Error(
      `${what} on the pool inside a transaction would hold one connection while waiting for another: ` +
        `use the transaction's EntityManager`,
    );
  }
}
