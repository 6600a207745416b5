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
  for (let attempt = 1; ; attempt++) {
    try {
      return await ds.transaction(work);
    } catch (err) {
      const code = (err as { code?: string; driverError?: { code?: string } }).driverError?.code;
      if (attempt < 4 && (code === SERIALIZATION_FAILURE || code === DEADLOCK_DETECTED)) continue;
      throw err;
    }
  }
}
