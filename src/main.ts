import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';
import { Logger } from './common/logging/logger';
import { ConfigError, loadConfig } from './config/config';
import { startEmbeddedPostgres } from './database/embedded-postgres';
import { runMigrations } from './database/migrate';

/**
 * The API process. With no DATABASE_URL it starts the embedded PostgreSQL under .data/ first; either way it applies
 * migrations (under an advisory lock), then serves HTTP. SIGTERM/SIGINT close HTTP, jobs, the pool and the
 * embedded database, in that order.
 */
async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const logger = new Logger(config.logLevel);
  // Sandbox mode: the provider simulators run as a child process (loaded dynamically: live mode never loads them).
  const sandbox = config.payments.sandbox?.spawn
    ? await import('./sandbox/spawn-provider-sandbox.js').then((m) => m.spawnProviderSandbox())
    : null;
  if (sandbox)
    logger.info({ alipay: sandbox.alipayBaseUrl, wechat: sandbox.wechatBaseUrl }, 'provider sandbox started');
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, logger);
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  await runMigrations(databaseUrl, logger);

  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register(config, databaseUrl, logger),
    {
      bodyParser: false,
      logger,
      bufferLogs: false,
    },
  );
  setupApp(app, config);
  await app.listen(config.port, '0.0.0.0');
  logger.info(
    { port: config.port, mode: config.paymentMode, database: embedded ? 'embedded' : 'external' },
    `Legwork listening on ${config.publicBaseUrl} (docs at /docs)`,
  );

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await app.close();
    await sandbox?.stop();
    await embedded?.stop();
    logger.flush();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

bootstrap().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error('Legwork failed to start:', err);
  process.exit(1);
});
