// First: V8 settings that must hold before anything allocates (see runtime/gc-tuning.ts).
import './runtime/gc-tuning';
// Second: OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set, before Express and pg load (see tracing.ts).
import './observability/tracing-api';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';
import { LegworkExpressAdapter } from './runtime/express-adapter';
import { reservePort } from './common/http/reserved-port';
import { Logger } from './common/logging/logger';
import { ConfigError, loadConfig } from './config/config';
import { loadEnvFile } from './config/env-file';
import { EmbeddedPostgresError, startEmbeddedPostgres } from './database/embedded-postgres';
import { runMigrations } from './database/migrate';
import { Drain } from './health/drain';
import { onShutdownSignal, sleep } from './health/shutdown';
import { serveMetrics } from './observability/metrics-server';
import { stopTracing, traceLogFields } from './observability/tracing';

const HOST = '0.0.0.0';

/**
 * The API process. With no DATABASE_URL it starts the embedded PostgreSQL under .data/ first; either way it applies
 * migrations (under an advisory lock), then serves HTTP. PORT=0 serves on a port the operating system picks, held
 * from the start (reservePort); the log line names it, and a parent that started this process with an IPC channel
 * (the benchmarks, the tests) is sent `{type: 'listening', port}`. On SIGTERM it drains (docs/scaling.md): /readyz turns 503 at
 * once while the listener keeps serving for SHUTDOWN_DRAIN_SECONDS, then HTTP stops accepting, in-flight requests and
 * jobs finish, and the pool and the embedded database close. SIGINT (Ctrl-C) skips the drain window.
 */
async function bootstrap(): Promise<void> {
  loadEnvFile();
  let config = loadConfig();
  const logger = new Logger(config.logLevel, undefined, traceLogFields());
  // Settings known only once the process has them (a port the OS picked), over the environment's.
  const known: Record<string, string> = {};
  const reserved = config.port === 0 ? await reservePort(HOST) : null;
  if (reserved) {
    known.PORT = String(reserved.port);
    config = loadConfig({ ...process.env, ...known });
  }
  // Sandbox mode: the provider simulators run as a child process (loaded dynamically: live mode never loads them).
  const settings = config.payments.sandbox;
  const sandbox = settings?.spawn
    ? await import('./sandbox/spawn-provider-sandbox.js').then((m) => m.spawnProviderSandbox(settings))
    : null;
  if (sandbox) {
    logger.info(
      { alipay: sandbox.alipayBaseUrl, wechat: sandbox.wechatBaseUrl, push: sandbox.pushBaseUrl },
      'provider sandbox started',
    );
    // Unset ports mean free ones, known only now: the provider URLs are built from the ports the sandbox got.
    known.SANDBOX_ALIPAY_PORT = new URL(sandbox.alipayBaseUrl).port;
    known.SANDBOX_WECHAT_PORT = new URL(sandbox.wechatBaseUrl).port;
    known.SANDBOX_PUSH_PORT = new URL(sandbox.pushBaseUrl).port;
    config = loadConfig({ ...process.env, ...known });
  }
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, logger);
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  await runMigrations(databaseUrl, logger);

  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register(config, databaseUrl, logger),
    new LegworkExpressAdapter(),
    {
      bodyParser: false,
      logger,
      bufferLogs: false,
    },
  );
  setupApp(app, config);
  // GET /metrics on its own port, never the public one (product-decisions §20); up before the API listens.
  const metrics = config.metrics.enabled ? await serveMetrics(config.metrics.port, logger) : null;
  if (metrics) process.send?.({ type: 'metrics', port: metrics.port });
  // Nest hands the reserved socket to Node's server.listen, which takes a listening server's handle over.
  if (reserved) await app.listen(reserved.server as unknown as number);
  else await app.listen(config.port, HOST);
  logger.info(
    { port: config.port, mode: config.paymentMode, database: embedded ? 'embedded' : 'external' },
    `Legwork listening on ${config.publicBaseUrl} (docs at /docs)`,
  );
  process.send?.({ type: 'listening', port: config.port });

  onShutdownSignal(async (signal) => {
    const drainSeconds = signal === 'SIGTERM' ? config.shutdownDrainSeconds : 0;
    app.get(Drain).begin();
    logger.info({ signal, drain_seconds: drainSeconds }, 'draining: /readyz answers 503, still serving');
    await sleep(drainSeconds * 1000);
    logger.info('closing: no new connections; finishing in-flight requests and jobs');
    await app.close();
    await metrics?.close();
    await stopTracing();
    await sandbox?.stop();
    await embedded?.stop();
  }, logger);
}

bootstrap().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof EmbeddedPostgresError) console.error(err.message);
  else console.error('Legwork failed to start:', err);
  process.exit(1);
});
