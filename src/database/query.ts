import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs SQL and returns the result rows, whatever the statement. TypeORM's `query()` returns the rows for SELECT and
 * INSERT but `[rows, rowCount]` for UPDATE and DELETE, so `UPDATE … RETURNING` read through it directly has length
 * 2 even when nothing matched. Use this for every statement whose rows you read.
 */
export async function queryRows<T>(
  db: DataSource | EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const result: unknown = await db.query(sql, params);
  if (isUpdateResult(result)) return result[0] as T[];
  return result as T[];
}

function isUpdateResult(result: unknown): result is [unknown[], number] {
  return (
    Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number'
  );
}
