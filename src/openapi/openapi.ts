import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_SECRET_SCHEME } from '../auth/auth.decorators';
import { VERSION } from '../common/version';
import { addEventSchemas, EVENT_DATA_MODELS } from './event-schemas';
import { layoutReference } from './reference-layout';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Legwork API')
    .setDescription(
      [
        'Agent-to-human fulfillment. Agents (API consumers) post paid real-world tasks; workers take them in the ' +
          'mobile app; money is held in escrow and released on approval.',
        'Start with the [integration guide](../docs/integration.md): credentials, safe retries with ' +
          '`Idempotency-Key`, a task’s life and its money. Events reach you as signed webhooks ' +
          '([webhooks and events](../docs/webhooks.md): payloads per event, `Legwork-Signature`, retries). Every ' +
          'error is `{error: {code, message, request_id, ...}}` ([error reference](../docs/errors.md)); every ' +
          'response carries `X-Request-ID`.',
        'Agent operations are served on `/v1` and, in the spec’s reference form, on `/api/v1` ' +
          '([API surfaces](../docs/api-surfaces.md)); the reference form is grouped apart below. Sandbox keys ' +
          '(`lw_test_…`) work against a sandbox service ([provider sandbox](../docs/provider-sandbox.md)).',
      ].join('\n\n'),
    )
    .setVersion(VERSION)
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Agent API key (lw_live_… / lw_test_…)' },
      'api_key',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Agent access token' },
      'agent_jwt',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Worker access token' },
      'worker_jwt',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Operator access token' },
      'admin_jwt',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Secret',
        description:
          'API secret issued with the API key; required with the bearer credential on /api/v1/payment/*',
      },
      API_SECRET_SCHEME,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: EVENT_DATA_MODELS,
    // A controller mounted on several prefixes gets method keys like `list[1]`; the index is dropped here and the
    // /api/v1 copy is told apart by the `_api` suffix below.
    operationIdFactory: (controllerKey, methodKey) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey.replace(/\[\d+\]$/, '')}`,
  });
  // A handler mounted on both /v1 and /api/v1 appears twice (Nest suffixes the ids with [0], [1]); operation ids
  // must stay unique and readable: `Worker_login` and `Worker_login_api`.
  for (const [path, item] of Object.entries(document.paths)) {
    for (const op of Object.values(item) as { operationId?: string }[]) {
      if (!op || typeof op !== 'object' || !op.operationId) continue;
      op.operationId = op.operationId.replace(/\[\d+\]/g, '');
      if (path.startsWith('/api/')) op.operationId += '_api';
    }
  }
  addEventSchemas(document);
  layoutReference(document);
  return document;
}

/** Deterministic JSON: object keys sorted recursively, so the committed file only changes when the API does. */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}
