import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from './common/logging/logger';
import { ConfigError, loadConfig } from './config/config';
import { embeddedDatabaseUrl } from './database/embedded-postgres';
import { runMigrations } from './database/migrate';
import { JobsRunnerModule } from './jobs/jobs-runner.module';

/**
 * The job-runner process (`npm run start:jobs`): only the background jobs, no HTTP. Run any number of them next to
 * API instances started with JOBS_IN_PROCESS=false. Without DATABASE_URL it connects to the embedded PostgreSQL
 * that a local `npm start` runs (the embedded server belongs to the API process).
 */
async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const logger = new Logger(config.logLevel);
  const databaseUrl = config.databaseUrl ?? embeddedDatabaseUrl(config.embeddedPgPort);
  await runMigrations(databaseUrl, logger);
  const app = await NestFactory.createApplicationContext(
    JobsRunnerModule.register(config, databaseUrl, logger),
    {
      logger,
    },
  );
  logger.info({ database: config.databaseUrl ? 'external' : 'embedded' }, 'Legwork job runner started');

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'job runner shutting down');
    await app.close();
    logger.flush();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

bootstrap().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error('Legwork job runner failed to start:', err);
  process.exit(1);
});
