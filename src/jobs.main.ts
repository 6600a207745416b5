// First: V8 settings that must hold before anything allocates (see runtime/gc-tuning.ts).
import './runtime/gc-tuning';
// Second: OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set, before pg loads (see tracing.ts).
import './observability/tracing-jobs';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from './common/logging/logger';
import { ConfigError, loadConfig } from './config/config';
import { loadEnvFile } from './config/env-file';
import { embeddedDatabaseUrl, runningEmbeddedPort } from './database/embedded-postgres';
import { runMigrations } from './database/migrate';
import { Drain } from './health/drain';
import { closeHealthServer, startHealthServer } from './health/health-server';
import { Readiness } from './health/readiness.service';
import { onShutdownSignal } from './health/shutdown';
import { serveMetrics } from './observability/metrics-server';
import { stopTracing, traceLogFields } from './observability/tracing';
import { JobsRunnerModule } from './jobs/jobs-runner.module';
import { NotificationsModule } from './notifications/notifications.module';
import { SimulationModule } from './simulation/simulation.module';

/**
 * The job-runner process (`npm run start:jobs`): only the background jobs; its one HTTP listener is /livez and /readyz
 * on JOBS_HEALTH_PORT when that is set (Kubernetes probes). Run any number of them next to API instances started with
 * JOBS_IN_PROCESS=false. Without DATABASE_URL it connects to the embedded PostgreSQL that a local `npm start` runs
 * (the embedded server belongs to the API process). On SIGTERM it stops taking jobs and webhook deliveries, lets the
 * running ones finish, and exits 0.
 */
async function bootstrap(): Promise<void> {
  loadEnvFile();
  const config = loadConfig();
  const logger = new Logger(config.logLevel, undefined, traceLogFields());
  // The embedded server a local `npm start` runs on DATA_DIR, on whatever port it got.
  const databaseUrl =
    config.databaseUrl ?? embeddedDatabaseUrl(runningEmbeddedPort(config.dataDir) ?? config.embeddedPgPort);
  await runMigrations(databaseUrl, logger);
  const app = await NestFactory.createApplicationContext(
    // Offers' pushes and SMS are jobs, and in sandbox mode the simulated workers' steps too.
    JobsRunnerModule.register(config, databaseUrl, logger, [
      { module: NotificationsModule },
      SimulationModule.register(config),
    ]),
    {
      logger,
    },
  );
  const health = config.jobsHealthPort
    ? await startHealthServer(config.jobsHealthPort, app.get(Readiness))
    : null;
  // The job runner's metrics (and the database's gauges, which only job-running processes export) on their own port.
  const metrics = config.metrics.enabled ? await serveMetrics(config.metrics.jobsPort, logger) : null;
  logger.info(
    {
      database: config.databaseUrl ? 'external' : 'embedded',
      health_port: config.jobsHealthPort,
      metrics_port: metrics?.port ?? null,
    },
    'Legwork job runner started',
  );
  if (metrics) process.send?.({ type: 'metrics', port: metrics.port });

  onShutdownSignal(async (signal) => {
    app.get(Drain).begin();
    logger.info({ signal }, 'job runner shutting down: finishing running jobs and deliveries');
    await app.close();
    if (health) await closeHealthServer(health);
    await metrics?.close();
    await stopTracing();
  }, logger);
}

bootstrap().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error('Legwork job runner failed to start:', err);
  process.exit(1);
});
