import { loadConfig } from '../config/config';
import { loadEnvFile } from '../config/env-file';
import { Logger } from '../common/logging/logger';
import { startEmbeddedPostgres } from './embedded-postgres';
import { runMigrations } from './migrate';

/** `npm run migrate`: applies migrations to DATABASE_URL (or the embedded database) and exits. */
async function main(): Promise<void> {
  loadEnvFile();
  const config = loadConfig();
  const logger = new Logger(config.logLevel === 'silent' ? 'info' : config.logLevel);
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, logger);
  try {
    const applied = await runMigrations(config.databaseUrl ?? embedded!.url, logger);
    logger.info({ applied: applied.length }, 'migrations complete');
  } finally {
    await embedded?.stop();
    logger.flush();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
