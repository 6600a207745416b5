import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from './app.module';
import { Logger } from './common/logging/logger';
import { loadConfig } from './config/config';
import { buildOpenApiDocument, sortedJson } from './openapi/openapi';

/**
 * Writes openapi/openapi.json from the compiled code (so the swagger CLI plugin's metadata is included), keys
 * sorted. With --check it writes nothing and fails when the committed file differs: CI's drift check.
 * The application graph is built in preview mode: no provider runs, so no database is needed.
 */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const config = loadConfig({
    NODE_ENV: 'production',
    PAYMENT_MODE: 'sandbox',
    DATA_DIR: '/tmp/legwork-openapi',
    JWT_ACCESS_SECRET: 'openapi-generation-access-secret-000000',
    JWT_REFRESH_SECRET: 'openapi-generation-refresh-secret-00000',
  });
  const logger = new Logger('silent');
  const app = await NestFactory.create(
    AppModule.register(config, 'postgres://unused@127.0.0.1:1/unused', logger),
    {
      preview: true,
      logger: false,
      abortOnError: false,
    },
  );
  const json = sortedJson(buildOpenApiDocument(app));
  const file = join(__dirname, '..', '..', 'openapi', 'openapi.json');
  if (check) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      // missing counts as drift
    }
    if (committed !== json) {
      console.error(
        'openapi/openapi.json is out of date: run `npm run build && npm run openapi` and commit it.',
      );
      process.exit(1);
    }
    console.log('openapi/openapi.json is up to date.');
  } else {
    writeFileSync(file, json);
    console.log(`wrote ${file}`);
  }
  await app.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
