import { Logger } from '../../src/common/logging/logger';
import { runMigrations } from '../../src/database/migrate';
import { databaseUrl, withServer } from './databases';

/**
 * `--selectProjects` takes every value after it, so `jest --selectProjects e2e test/x.e2e-spec.ts` reads the file as
 * a project name and runs the whole e2e project (many minutes on two cores) with only a warning. Stop at once
 * instead: put the files first, `jest test/x.e2e-spec.ts --selectProjects e2e`.
 */
function refuseFilesTakenAsProjects(argv: string[]): void {
  const at = argv.findIndex((a) => a === '--selectProjects' || a === '--select-projects');
  const values = at < 0 ? [] : argv.slice(at + 1);
  const end = values.findIndex((a) => a.startsWith('-'));
  const taken = (end < 0 ? values : values.slice(0, end)).filter((name) => /[/.]/.test(name));
  if (taken.length > 0)
    throw new Error(
      `--selectProjects took ${taken.join(', ')} as project names; put test files before it: ` +
        `jest ${taken.join(' ')} --selectProjects e2e`,
    );
}

/** Creates this run's template database and migrates it once; every test file clones it. */
export default async function globalSetup(): Promise<void> {
  refuseFilesTakenAsProjects(process.argv);
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
