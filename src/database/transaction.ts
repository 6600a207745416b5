import { AsyncLocalStorage } from 'node:async_hooks';
import type { Socket } from 'node:net';
import type { PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError, QueryRunner } from 'typeorm';

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
      return await runTransaction(ds, work);
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
 * A statement that may share its write with BEGIN: a SELECT, which changes nothing (the codebase calls no function
 * with side effects from one). Were BEGIN refused, it would have run alone and changed nothing, and the work stops
 * there, before anything that writes.
 */
const READ_ONLY = /^\s*SELECT\b/i;

/**
 * One attempt of a unit of work on its own pooled connection. BEGIN goes in the same write as the work's first
 * statement when that is a read (each of the hot transactions opens by locking its row with SELECT ... FOR UPDATE),
 * and COMMIT in the same write as the statements the commit hooks make: two round trips fewer per transaction.
 * PostgreSQL runs them in order, each on its own, as if they had come one by one (the pool's connections are in
 * pg's pipeline mode, which sends a query without waiting for the answer to the one before). On this 2-core bench
 * machine each write to PostgreSQL also wakes a backend that takes the event loop's core for a while: in a
 * saturated creation run, a quarter to a third of the event loop's time went to writes (docs/scaling.md).
 */
async function runTransaction<T>(ds: DataSource, work: (em: EntityManager) => Promise<T>): Promise<T> {
  const runner = ds.createQueryRunner();
  const client = (await runner.connect()) as PoolClient;
  // TypeORM's own query, for everything but the statement that goes with BEGIN.
  const query: (sql: string, params?: unknown[], structured?: boolean) => Promise<unknown> =
    runner.query.bind(runner);
  let begun = false;
  let ended = false;
  // Set at once, before anything is awaited, so that a statement the work sends meanwhile goes after BEGIN.
  const markBegun = (): void => {
    begun = true;
    (runner as { isTransactionActive: boolean }).isTransactionActive = true;
  };
  const beginAlone = async (): Promise<void> => {
    markBegun();
    await query(BEGIN.sql);
  };
  runner.query = (async (sql: string, params?: unknown[], structured?: boolean) => {
    if (!begun) {
      if (!structured && READ_ONLY.test(sql)) {
        markBegun();
        const [, first] = await together(client, [BEGIN, { sql, params: params ?? [] }]);
        return first.rows as unknown[];
      }
      await beginAlone();
    }
    return query(sql, params, structured);
  }) as QueryRunner['query'];
  const unit = async (): Promise<T> => {
    const hooks = new Map<object, CommitHook>();
    commitHooks.set(runner.manager, hooks);
    const result = await work(runner.manager);
    const last = [...hooks.values()].map((hook) => hook());
    if (!begun && last.length === 0) return result; // the work ran no statement: nothing to commit
    if (!begun) await beginAlone();
    ended = true; // from here on PostgreSQL ends the transaction, whatever the answers
    const answers = await together(client, [...last, COMMIT]);
    const commit = answers[answers.length - 1].command;
    if (commit !== 'COMMIT') throw new Error(`COMMIT was answered with ${commit}: nothing was committed`);
    return result;
  };
  try {
    return await (openTransaction ? openTransaction.run(true, unit) : unit());
  } catch (err) {
    if (begun && !ended) await query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    (runner as { isTransactionActive: boolean }).isTransactionActive = false;
    await runner.release();
  }
}

const BEGIN: Statement = { sql: 'BEGIN', params: [] };
const COMMIT: Statement = { sql: 'COMMIT', params: [] };

/**
 * Sends the statements in one write and waits for every answer; the first that failed fails the whole (as TypeORM's
 * QueryFailedError, like any other query). PostgreSQL still runs each after a failed one: inside the transaction
 * they fail too (it is aborted), and a COMMIT there is answered with ROLLBACK.
 */
async function together(client: PoolClient, statements: Statement[]): Promise<QueryResult[]> {
  // pg corks the socket for each query's messages; corking around all of them makes one write of the whole.
  const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
  socket.cork();
  let sent: Promise<QueryResult>[];
  try {
    sent = statements.map((s) => client.query(s.sql, s.params));
  } finally {
    socket.uncork();
  }
  const answers = await Promise.allSettled(sent);
  const failed = answers.findIndex((a) => a.status === 'rejected');
  if (failed >= 0) {
    const { sql, params } = statements[failed];
    throw new QueryFailedError(sql, params, (answers[failed] as PromiseRejectedResult).reason as Error);
  }
  return answers.map((a) => (a as PromiseFulfilledResult<QueryResult>).value);
}

/** What a commit hook adds to the transaction: one statement, sent with COMMIT. */
type CommitHook = () => Statement;

/** The hooks of each unit of work of inTransaction, by its EntityManager (see beforeCommit). */
const commitHooks = new WeakMap<EntityManager, Map<object, CommitHook>>();

/**
 * Registers `hook` (once per `key`) to give, when the unit of work of `em` has returned, one statement that is sent
 * in the same write as COMMIT (after the statements of hooks registered before it); returns false when `em` is not
 * the EntityManager of an inTransaction unit of work (the caller then does its work at once). For writes that batch
 * well and whose answer nothing reads: the outbox writes the events of a transaction in one INSERT. A statement that
 * fails rolls the transaction back and fails the unit of work.
 */
export function beforeCommit(em: EntityManager, key: object, hook: CommitHook): boolean {
  const hooks = commitHooks.get(em);
  if (!hooks) return false;
  if (!hooks.has(key)) hooks.set(key, hook);
  return true;
}

/**
 * Set while a unit of work of inTransaction runs (and in everything it awaits), outside production only. In Node 20
 * an AsyncLocalStorage that has run once makes every promise of the process call async hooks (init, before, after):
 * with this storage and the idempotency claims' gone from the request path, task creation's API CPU per request
 * fell from 2.4 to 1.7 ms (bench/results/before-after.md). The check finds a programming error, which the test
 * suite (NODE_ENV=test) and development runs reach; production (NODE_ENV=production: the Dockerfile,
 * docker-compose.yml, deploy/) skips it.
 */
const openTransaction = process.env.NODE_ENV === 'production' ? undefined : new AsyncLocalStorage<true>();

/**
 * Work inside a transaction holds one pooled connection; asking the pool for another (a query on the DataSource
 * instead of the EntityManager, or a nested transaction) waits for a connection while holding one. Twenty
 * concurrent requests doing that hold all twenty and wait for each other until the pool's timeout, and every other
 * request, /health included, waits with them (a storm of duplicate payment notifications did exactly that). So it
 * is refused at once, and any test that reaches such code fails (outside production: see openTransaction).
 */
export function assertNoOpenTransaction(what: string): void {
  if (openTransaction?.getStore()) {
    throw new Error(
      `${what} on the pool inside a transaction would hold one connection while waiting for another: ` +
        `use the transaction's EntityManager`,
    );
  }
}
