import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { assertNoOpenTransaction } from './transaction';

/**
 * Anything that runs SQL: a DataSource, an EntityManager (its transaction) or a wrapper around a bare pg client.
 * Data access is hand-written SQL through the two functions below, never TypeORM's `query()` directly: its
 * `query<T = any>` takes whatever row type the caller's variable declares, unchecked, so lint forbids it
 * (`local/no-untyped-query` in eslint.config.mjs) everywhere but here.
 */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Runs SQL and returns its rows, typed by the caller's row interface (the module that owns the table declares it,
 * with a mapper where pg's strings need converting: bigint and numeric arrive as strings). TypeORM's postgres
 * driver answers UPDATE/DELETE ... RETURNING with `[rows, rowCount]` but SELECT/INSERT with `rows`; this evens
 * that out so callers can trust `.length`.
 */
export async function sqlRows<T = Record<string, unknown>>(
  runner: SqlRunner,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  if (runner instanceof DataSource) assertNoOpenTransaction('a query');
  const result = await runner.query(sql, params);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}

/** Statement names by SQL text: a prepared statement is named after a hash of its text, computed once. */
const statementNames = new Map<string, string>();

/**
 * Runs a hot read outside any transaction as a named prepared statement: each pooled connection parses and plans
 * it once, and PostgreSQL then reuses the plan (it switches to a generic plan when that costs no more than the
 * custom ones). For the nearby search this was most of the database's work: planning its CTEs took 1.7 to 4 ms, more
 * than running them (bench/results/nearby-explain.md). Only for a fixed set of SQL texts (a query builder's shapes, never text
 * with values spliced in): each distinct text stays prepared on every connection for the connection's life.
 */
export async function preparedRows<T>(ds: DataSource, sql: string, params: unknown[] = []): Promise<T[]> {
  assertNoOpenTransaction('a query');
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `lw_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  const pool = (ds.driver as PostgresDriver).master as Pool;
  const result = await pool.query({ name, text: sql, values: params });
  return result.rows as T[];
}

/** Runs a statement whose rows (if any) the caller does not read. */
export async function sqlExec(runner: SqlRunner, sql: string, params: unknown[] = []): Promise<void> {
  if (runner instanceof DataSource) assertNoOpenTransaction('a query');
  await runner.query(sql, params);
}

/**
 * pg returns bigint and numeric columns as text; the named ones become numbers. Every such value in this schema
 * (cents, counters, scores) stays far below 2^53, so the conversion is exact. For a table owner's row mapper.
 */
export function numericColumns<T>(row: Record<string, unknown>, columns: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const c of columns) if (out[c] !== null && out[c] !== undefined) out[c] = Number(out[c]);
  return out as T;
}
