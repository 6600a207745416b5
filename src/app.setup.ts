import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import { SwaggerModule } from '@nestjs/swagger';
import { errorReferenceHtml } from './common/errors/error-reference';
import { Logger } from './common/logging/logger';
import { bodyParsing } from './common/http/body-parsing';
import { requestContext } from './common/http/request-context';
import { securityHeaders } from './common/http/security-headers';
import type { AppConfig } from './config/config';
import { closeConnectionsWhileDraining, Drain } from './health/drain';
import { httpMetrics } from './observability/http-metrics';
import { serveDocs } from './openapi/docs-page';
import { buildOpenApiDocument } from './openapi/openapi';
import { s3Origins } from './upload/storage/s3-origins';

/**
 * HTTP set-up shared by main.ts and the e2e suite: request ids and access logs, security headers (helmet; the
 * origin's CSP is in security-headers.ts, the docs pages set a stricter one), `Connection: close` while draining,
 * body parsing with the invalid_json envelope, the API reference at /docs with the guides of docs/ (serveDocs), the
 * error reference at /docs/errors.md (where the OpenAPI error descriptions link) and the OpenAPI document at
 * /openapi.json and /openapi.yaml.
 */
export function setupApp(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  const logger = app.get(Logger);
  express.disable('x-powered-by');
  // No ETag on res.send bodies: hashing every JSON answer (sha1) was 1 % of the API's time under the listing
  // benchmark, for conditional requests no client of this API makes (answers are live data, never cached).
  express.set('etag', false);
  express.set('trust proxy', config.trustProxy);
  // First, so a request's time covers every middleware after it (product-decisions §20).
  if (config.metrics.enabled) express.use(httpMetrics());
  express.use(requestContext(logger));
  const photoOrigins = config.storage.driver === 's3' ? s3Origins(config.storage) : [];
  express.use(securityHeaders(config.paymentMode === 'live', photoOrigins));
  express.use(closeConnectionsWhileDraining(app.get(Drain)));
  for (const middleware of bodyParsing()) express.use(middleware);
  const errorReference = errorReferenceHtml();
  const server: Express = express.getHttpAdapter().getInstance();
  server.get('/docs/errors.md', (_req, res) => {
    // Stricter than the origin's policy: the reference is one static page with inline styles and nothing else.
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    res.type('html').send(errorReference);
  });
  // The document only (/openapi.json, /openapi.yaml); the page at /docs is ours (serveDocs). Built on the first
  // request for it, not at start-up (about 0.5 s of CPU in a start-up profile, and the document's memory in every
  // process that never serves it).
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    ui: false,
    raw: ['json', 'yaml'],
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
  });
  serveDocs(server, config, ['errors.md']);
}
