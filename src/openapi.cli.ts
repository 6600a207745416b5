import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AppModule } from './app.module';
import { errorReferenceMarkdown } from './common/errors/error-reference';
import { Logger } from './common/logging/logger';
import { loadConfig } from './config/config';
import { withEventReference } from './openapi/event-reference';
import { buildOpenApiDocument, sortedJson } from './openapi/openapi';

/**
 * Writes openapi/openapi.json from the compiled code (so the swagger CLI plugin's metadata is included), keys
 * sorted, docs/errors.md, the error reference its error descriptions link to, and the event reference block of
 * docs/webhooks.md (from the event catalogue's schemas). With --check it writes nothing
 * and fails when a committed file differs: CI's drift check.
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
  const root = join(__dirname, '..', '..');
  const document = buildOpenApiDocument(app);
  const webhooksDoc = join(root, 'docs', 'webhooks.md');
  const outputs = [
    { file: join(root, 'openapi', 'openapi.json'), content: sortedJson(document) },
    { file: join(root, 'docs', 'errors.md'), content: errorReferenceMarkdown() },
    { file: webhooksDoc, content: withEventReference(committed(webhooksDoc), document) },
  ];
  for (const { file, content } of outputs) {
    const name = relative(root, file);
    if (!check) {
      writeFileSync(file, content);
      console.log(`wrote ${name}`);
    } else if (committed(file) !== content) {
      console.error(`${name} is out of date: run \`npm run build && npm run openapi\` and commit it.`);
      process.exitCode = 1;
    } else {
      console.log(`${name} is up to date.`);
    }
  }
  await app.close();
}

function committed(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // missing counts as drift
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
