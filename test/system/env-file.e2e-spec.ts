import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/process';
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/databases';

/**
 * `.env` (src/config/env-file.ts): the compiled CLIs, run in a directory holding a `.env` and nothing in their
 * environment but PATH and HOME, take their settings from it; a variable set in the environment wins over the
 * file. (`npm start` reads it the same way: the embedded-database test in start-anywhere.e2e-spec.ts configures the
 * server and the CLIs by a `.env` alone.) Needs `npm run build`.
 */
jest.setTimeout(120_000);

describe('.env', () => {
  let dir: string;
  let db: string;
  const missing = `legwork_env_file_missing_${process.pid}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'legwork-env-'));
    db = await createTestDatabase();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropDatabase(db);
  });

  const env = (lines: Record<string, string>) =>
    writeFileSync(
      join(dir, '.env'),
      Object.entries(lines)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
    );
  const run = (cli: 'migrate' | 'ledger:check', vars: Record<string, string> = {}) =>
    runCli(cli, [], vars, { cwd: dir, defaults: false });

  it('is read by the CLIs: its values apply, and the environment overrides them', async () => {
    env({ DATABASE_URL: databaseUrl(missing), PORT: 'not-a-port', LOG_LEVEL: 'info' });

    // The file is read: its PORT is refused by name.
    const fromFile = await run('migrate');
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toContain("PORT must be an integer from 0 to 65535 (got 'not-a-port')");

    // PORT from the environment wins; DATABASE_URL still comes from the file (a database that does not exist).
    const portFromEnv = await run('migrate', { PORT: '8000' });
    expect(portFromEnv.code).toBe(1);
    expect(portFromEnv.stderr).toContain(`database "${missing}" does not exist`);

    // Both from the environment: migrates the real database (already current: nothing to apply).
    const both = await run('migrate', { PORT: '8000', DATABASE_URL: databaseUrl(db) });
    expect(both).toMatchObject({ code: 0 });
    expect(both.output).toContain('migrations complete');
  });

  it('configures ledger:check alone', async () => {
    env({ DATABASE_URL: databaseUrl(missing) });
    const wrong = await run('ledger:check');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`database "${missing}" does not exist`);

    env({ DATABASE_URL: databaseUrl(db) });
    const { code, output } = await run('ledger:check');
    expect(code).toBe(0);
    expect(JSON.parse(output)).toMatchObject({ ok: true, violations: [] });
  });
});
