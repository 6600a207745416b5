import { Client } from 'pg';
import { loadConfig } from '../config/config';
import { loadEnvFile } from '../config/env-file';
import { Logger } from '../common/logging/logger';
import { startEmbeddedPostgres } from '../database/embedded-postgres';
import { checkLedger } from './ledger-check';

/** `npm run ledger:check`: prints the invariant report as JSON; exit code 1 on any violation. */
async function main(): Promise<void> {
  loadEnvFile();
  const config = loadConfig();
  const logger = new Logger('warn');
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, logger);
  const client = new Client({ connectionString: config.databaseUrl ?? embedded!.url });
  await client.connect();
  try {
    const report = await checkLedger({
      query: async (sql: string, params?: unknown[]) =>
        (await client.query<Record<string, unknown>>(sql, params)).rows,
    });
    console.log(JSON.stringify(report, null, 2));
    process.exitCode = report.ok ? 0 : 1;
  } finally {
    await client.end();
    await embedded?.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(2);
});
