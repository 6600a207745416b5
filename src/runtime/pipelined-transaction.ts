import type { Socket } from 'node:net';
import type { PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError, QueryRunner } from 'typeorm';

/**
 * Runtime trick: a transaction's BEGIN goes in the same socket write as its first statement when that is a read,
 * and its COMMIT in the same write as the statements the commit hooks make; TypeORM's `runner.query` is patched for
 * the one query runner of the transaction to do it.
 *
 * - Gain: creation 301.7 against 340.1 req/s at 32 connections, API CPU 1.90 against 1.61 ms per request; a
 *   creation's nine statements in eight writes, an accept's eight in six, a submit's seven in five
 *   (bench/results/before-after.md, "BEGIN with the first read, COMMIT with the events"; commit beb9be0).
 * - Pinned by: test/database/transaction.e2e-spec.ts (counts the writes, and holds the failure paths: a first read
 *   that fails, a first statement that writes, a hook statement that fails, work that throws, no statement at all).
 * - To remove: in src/database/transaction.ts, run each attempt on a plain TypeORM query runner instead of
 *   runPipelined (`connect`, `startTransaction`, the work on `runner.manager`, the closing statements one by one
 *   with `runner.query`, `commitTransaction`; `rollbackTransaction` on a throw; `release`), drop `pipeline: true`
 *   from the pool options (src/database/data-source.ts) and delete this file. The write-count test goes with it;
 *   the failure-path tests stay and must pass unchanged.
 *
 * Why: on the 2-core bench machine each write to PostgreSQL also wakes a backend that takes the event loop's core for
 * a while: in a saturated creation run a quarter to a third of the event loop's time went to writes
 * (docs/scaling.md). PostgreSQL runs the statements of one write in order, each on its own, as if they had come one
 * by one (the pool's connections are in pg's pipeline mode, which sends a query without waiting for the answer to
 * the one before).
 */

/** One SQL statement and its parameters. */
interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * A statement that may share its write with BEGIN: a SELECT, which changes nothing (the codebase calls no function
 * with side effects from one). Were BEGIN refused, it would have run alone and changed nothing, and the work stops
 * there, before anything that writes.
 */
const READ_ONLY = /^\s*SELECT\b/i;

const BEGIN: Statement = { sql: 'BEGIN', params: [] };
const COMMIT: Statement = { sql: 'COMMIT', params: [] };

/**
 * One attempt of a unit of work on its own pooled connection, in one transaction: `work` runs on the transaction's
 * EntityManager, then `closing` gives the statements to send with COMMIT (none: a plain COMMIT). Each of the hot
 * transactions opens by locking its row with SELECT ... FOR UPDATE, which goes with BEGIN; a first statement that
 * writes waits for BEGIN on its own. A unit that sent no statement and has none to close with sends nothing.
 */
export async function runPipelined<T>(
  ds: DataSource,
  work: (em: EntityManager) => Promise<T>,
  closing: () => Statement[],
): Promise<T> {
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
  try {
    const result = await work(runner.manager);
    const last = closing();
    if (!begun && last.length === 0) return result; // the work ran no statement: nothing to commit
    if (!begun) await beginAlone();
    ended = true; // from here on PostgreSQL ends the transaction, whatever the answers
    const answers = await together(client, [...last, COMMIT]);
    const commit = answers[answers.length - 1].command;
    if (commit !== 'COMMIT') throw new Error(`COMMIT was answered with ${commit}: nothing was committed`);
    return result;
  } catch (err) {
    if (begun && !ended) await query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    (runner as { isTransactionActive: boolean }).isTransactionActive = false;
    await runner.release();
  }
}

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
