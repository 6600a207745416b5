import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { setupApp } from '../../src/app.setup';
import { Clock } from '../../src/common/clock';
import { LegworkExpressAdapter } from '../../src/runtime/express-adapter';
import { Logger } from '../../src/common/logging/logger';
import { AppConfig, loadConfig } from '../../src/config/config';
import { createTestDatabase, databaseUrl, dropDatabase } from './databases';
import { TestClock } from './test-clock';

export interface TestApp {
  app: INestApplication;
  http: TestAgent;
  clock: TestClock;
  db: DataSource;
  config: AppConfig;
  databaseName: string;
  close(): Promise<void>;
}

/** Checks registered by later modules (the ledger invariants) run against every test database after each file. */
type FileCheck = (db: DataSource) => Promise<void>;
const fileChecks: FileCheck[] = [];
export function registerFileCheck(check: FileCheck): void {
  fileChecks.push(check);
}

const open: TestApp[] = [];

export const TEST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  PAYMENT_MODE: 'sandbox',
  JWT_ACCESS_SECRET: 'test-access-secret-0123456789abcdefghijklmnop',
  JWT_REFRESH_SECRET: 'test-refresh-secret-0123456789abcdefghijklmno',
  WEBHOOK_SECRET_KEY: 'test-webhook-secret-key-0123456789abcdefghijk',
  VAPID_PRIVATE_KEY: 'Z-_D2lNKUP3U1P7TWMvEoE1C_ksqkWalSKQYZdHW3ok',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  DATA_DIR: '/tmp/legwork-test-data',
  // Like createAgent's agents, a quote budget no test reaches by accident (the validation table alone sends dozens of
  // quotes from one agent); test/task/quote-privacy.e2e-spec.ts sets a small one to test it.
  QUOTE_RATE_LIMIT_PER_MINUTE: '100000',
  QUOTE_RATE_LIMIT_PER_DAY: '1000000',
};

export interface TestAppOptions {
  /**
   * Boot on this existing database instead of a fresh one: a second instance of the same deployment (several API
   * instances share one PostgreSQL). The instance that created the database drops it.
   */
  databaseName?: string;
  /** Providers replaced by values (for example the events module's HOST_RESOLVER, so no test needs real DNS). */
  overrides?: { provide: unknown; useValue: unknown }[];
}

/**
 * Boots the real AppModule (the production stack of guards, pipes and filters) on a fresh database with a test
 * clock. `env` overrides configuration (for example REDIS_URL or a rate limit).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: TestAppOptions = {},
): Promise<TestApp> {
  const ownsDatabase = !opts.databaseName;
  const databaseName = opts.databaseName ?? (await createTestDatabase());
  const url = databaseUrl(databaseName);
  // The test database always wins: a shared environment (e.g. liveTestEnv) must never point elsewhere.
  const config = loadConfig({ ...TEST_ENV, ...env, DATABASE_URL: url });
  const logger = new Logger(config.logLevel);
  const clock = new TestClock();
  let builder = Test.createTestingModule({ imports: [AppModule.register(config, url, logger)] })
    .overrideProvider(Clock)
    .useValue(clock);
  for (const o of opts.overrides ?? []) builder = builder.overrideProvider(o.provide).useValue(o.useValue);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(new LegworkExpressAdapter(), {
    bodyParser: false,
    logger: false,
  });
  setupApp(app, config);
  try {
    await app.init();
  } catch (err) {
    // A boot that fails half-way (the shared PostgreSQL out of connections, say) has already started some providers
    // (pg-boss polls on a timer): close them, or they outlive the test file and keep its jest worker from exiting.
    await app.close().catch(() => undefined);
    if (ownsDatabase) await dropDatabase(databaseName).catch(() => undefined);
    throw err;
  }
  const db = app.get(DataSource);
  const testApp: TestApp = {
    app,
    http: request(app.getHttpServer()),
    clock,
    db,
    config,
    databaseName,
    close: async () => {
      const i = open.indexOf(testApp);
      if (i >= 0) open.splice(i, 1);
      for (const check of fileChecks) await check(db);
      await app.close();
      if (ownsDatabase) await dropDatabase(databaseName);
    },
  };
  open.push(testApp);
  return testApp;
}

/** Closes (with checks) any app a test file left open. */
export async function runAfterFileChecks(): Promise<void> {
  // Newest first: a second instance on a shared database closes before the instance that drops it.
  for (const t of [...open].reverse()) await t.close();
}
