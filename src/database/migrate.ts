import { Client } from 'pg';
import type { Logger } from '../common/logging/logger';
import { createDataSource } from './data-source';

/** Arbitrary constant: the advisory lock key that serialises migrations across instances. */
const MIGRATION_LOCK_KEY = 7_312_004_117;

/**
 * Applies pending migrations while holding a session-level advisory lock, so that several instances starting
 * together migrate once: the first runs them, the others wait and then find nothing to do.
 */
export async function runMigrations(url: string, logger: Logger): Promise<string[]> {
  const lock = new Client({ connectionString: url, application_name: 'legwork-migrate-lock' });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const ds = createDataSource(url, 2);
    await ds.initialize();
    try {
      const applied = await ds.runMigrations({ transaction: 'each' });
      for (const m of applied) logger.info({ migration: m.name }, 'migration applied');
      return applied.map((m) => m.name);
    } finally {
      await ds.destroy();
    }
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
}
