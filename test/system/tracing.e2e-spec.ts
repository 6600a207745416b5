import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DIST } from '../support/process';
import { startProcessRig, taskBody, type ProcessRig } from '../fault/process-support';
import { waitFor } from '../support/waiters';

/** One span as an OTLP/HTTP JSON export carries it, with the service that sent it. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: {
      spans: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: OtlpAttribute[];
      }[];
    }[];
  }[];
}

const attrs = (list: OtlpAttribute[] = []): Record<string, unknown> =>
  Object.fromEntries(list.map((a) => [a.key, a.value.stringValue ?? a.value.intValue ?? a.value.boolValue]));

/**
 * A real OTLP/HTTP receiver, as a collector listens on :4318: POST /v1/traces with a JSON export, answered 200 with
 * an empty partial-success body. Keeps every span it was sent.
 */
async function startReceiver(): Promise<{
  server: Server;
  url: string;
  spans: ExportedSpan[];
  paths: string[];
}> {
  const spans: ExportedSpan[] = [];
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      if (req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const rs of body.resourceSpans) {
        const service = String(attrs(rs.resource.attributes)['service.name']);
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans)
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              attributes: attrs(s.attributes),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, paths };
}

/** How many modules of OpenTelemetry the API's tracing preload leaves loaded, with this environment. */
function openTelemetryModulesLoaded(env: Record<string, string>): number {
  const script = `require(${JSON.stringify(join(DIST, 'src', 'observability', 'tracing-api.js'))});
    console.log(Object.keys(require.cache).filter((k) => k.includes('@opentelemetry')).length);
    process.exit(0);`;
  const out = execFileSync(process.execPath, ['-e', script], {
    env: { PATH: process.env.PATH ?? '', HOME: '/tmp', DATA_DIR: '/tmp/legwork-test-data', ...env },
    encoding: 'utf8',
  });
  return Number(out.trim());
}

/**
 * product-decisions §20: with OTEL_EXPORTER_OTLP_ENDPOINT set, the compiled API sends spans to a real OTLP/HTTP
 * receiver: its requests (named by route template) with their PostgreSQL queries as children, each webhook delivery
 * with its outgoing POST, and the log lines of a request carry its trace id. Unset, no OpenTelemetry module is even
 * loaded. Needs `npm run build`.
 */
describe('tracing: OpenTelemetry to an OTLP/HTTP receiver', () => {
  let rig: ProcessRig;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let hooks: Server;
  const delivered: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    hooks = createServer((req, res) => {
      delivered.push(String(req.headers['x-event-id']));
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    rig = await startProcessRig(1, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'legwork-test',
      // Jobs in this process: it delivers the webhooks too.
      JOBS_IN_PROCESS: 'true',
      LOG_LEVEL: 'info',
    });
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
    await new Promise((r) => hooks?.close(r));
    await new Promise((r) => receiver?.server.close(r));
  });

  it('exports request, query and webhook spans, and logs the trace id', async () => {
    const base = rig.server.baseUrl;
    const auth = { authorization: `Bearer ${rig.agents[0].apiKey}`, 'content-type': 'application/json' };
    const hook = await fetch(`${base}/v1/agent/webhooks`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/h`,
        events: ['*'],
      }),
    });
    expect(hook.status).toBe(201);
    const created = await fetch(`${base}/v1/tasks/create`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': `trace-${Date.now()}` },
      body: JSON.stringify(taskBody()),
    });
    expect(created.status).toBe(201);
    const taskId = ((await created.json()) as { task_id: string }).task_id;
    const cancelled = await fetch(`${base}/v1/tasks/${taskId}/cancel`, { method: 'POST', headers: auth });
    expect(cancelled.status).toBe(200);
    await waitFor(() => delivered.length > 0, 'the task.cancelled webhook', 20_000);

    // The batch processor exports every few seconds.
    const spans = receiver.spans;
    const create = await waitFor(
      () => spans.find((s) => s.name === 'POST /v1/tasks/create'),
      'the task creation span',
      30_000,
    );
    // Traces only, as JSON (the SDK's own OTLP metrics and logs are not started).
    expect(new Set(receiver.paths)).toEqual(new Set(['POST /v1/traces application/json']));
    expect(create.service).toBe('legwork-test');
    expect(create.attributes['http.route']).toBe('/v1/tasks/create');
    expect(create.parentSpanId).toBe('');
    // Its queries, in its trace (children of it or of each other).
    const queries = spans.filter(
      (s) => s.traceId === create.traceId && s.attributes['db.system.name'] === 'postgresql',
    );
    expect(queries.length).toBeGreaterThan(2);
    // The cancel route by its template, no id in the name.
    expect(spans.some((s) => s.name === 'POST /v1/tasks/:task_id/cancel')).toBe(true);
    expect(spans.some((s) => s.name.includes(taskId))).toBe(false);
    // The webhook delivery: its own span, with the POST to the receiver as its child.
    const deliver = await waitFor(
      () =>
        spans.find(
          (s) => s.name === 'webhook.deliver' && s.attributes['legwork.event_name'] === 'task.cancelled',
        ),
      'the webhook delivery span',
      30_000,
    );
    const post = await waitFor(
      () => spans.find((s) => s.parentSpanId === deliver.spanId && s.name === 'POST'),
      'the delivery POST span',
      30_000,
    );
    expect(post.traceId).toBe(deliver.traceId);
    // Log lines carry the trace id while tracing is on: the creation's access line names its trace.
    const lines = rig.server
      .lastLines(200)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const access = lines.find((l) => l.msg === 'request' && l.path === '/v1/tasks/create');
    expect(access).toMatchObject({ trace_id: create.traceId, request_id: expect.any(String) });
    console.log(
      `spans received: ${spans.length} (${new Set(spans.map((s) => s.traceId)).size} traces); ` +
        `task creation: ${queries.length} query spans`,
    );
  });

  it('loads no OpenTelemetry module when OTEL_EXPORTER_OTLP_ENDPOINT is unset', () => {
    expect(openTelemetryModulesLoaded({})).toBe(0);
    expect(openTelemetryModulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url })).toBeGreaterThan(10);
  });
});
