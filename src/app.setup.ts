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
import { buildOpenApiDocument } from './openapi/openapi';

/**
 * HTTP set-up shared by main.ts and the e2e suite: request ids and access logs, security headers (helmet; the CSP
 * is in security-headers.ts), `Connection: close` while draining,
 * body parsing with the invalid_json envelope, interactive docs at /docs, the error reference at /docs/errors.md
 * (where the OpenAPI error descriptions link) and the OpenAPI document at /openapi.json.
 */
export function setupApp(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  const logger = app.get(Logger);
  express.disable('x-powered-by');
  express.set('trust proxy', config.trustProxy);
  express.use(requestContext(logger));
  express.use(securityHeaders(config.paymentMode === 'live'));
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
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Legwork API',
    // No validator badge: it would load an image from validator.swagger.io, outside the CSP.
    swaggerOptions: { persistAuthorization: true, validatorUrl: null },
  });
}
