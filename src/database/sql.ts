import type { DataSource, EntityManager } from 'typeorm';

type Runner = Pick<EntityManager, 'query'> | Pick<DataSource, 'query'>;

/**
 * Runs SQL and returns its rows. TypeORM's postgres driver answers UPDATE/DELETE ... RETURNING with
 * `[rows, rowCount]` but SELECT/INSERT with `rows`; this evens that out so callers can trust `.length`.
 */
export async function sqlRows<T = Record<string, unknown>>(
  runner: Runner,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const result: unknown = await runner.query(sql, params);
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
