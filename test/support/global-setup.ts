import { Logger } from '../../src/common/logging/logger';
import { runMigrations } from '../../src/database/migrate';
import { databaseUrl, withServer } from './databases';

/** Creates this run's template database and migrates it once; every test file clones it. */
export default async function globalSetup(): Promise<void> {
  const name = `lwtest_${process.pid}_${Date.now().toString(36)}`;
  process.env.LEGWORK_TEST_TEMPLATE = name;
  await withServer(async (c) => {
    // Leftovers of runs that were killed before their teardown, older than an hour. missing_ok: another run may
    // drop its databases while this query reads the catalogue.
    const stale = await c.query<{ datname: string }>(
      `SELECT d.datname FROM pg_database d WHERE d.datname LIKE 'lwtest\\_%'
         AND (pg_stat_file('base/' || d.oid || '/PG_VERSION', true)).modification < now() - interval '1 hour'`,
    );
    for (const { datname } of stale.rows) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  await runMigrations(databaseUrl(name), new Logger('silent'));
}
