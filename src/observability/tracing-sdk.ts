import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';

/** What startSdk gives tracing.ts once OpenTelemetry is started. */
export interface Tracer {
  /** Runs `work` inside a new span (a child of the active one), ended when `work` settles. */
  span<T>(name: string, attributes: Record<string, string | number>, work: () => Promise<T>): Promise<T>;
  /** The active trace and span ids, for log lines. */
  ids(): { trace_id: string; span_id: string } | null;
  shutdown(): Promise<void>;
}

/** Probes arrive every few seconds from every kubelet: no spans for them. */
const UNTRACED_PATHS = new Set(['/livez', '/readyz', '/health', '/metrics']);

/**
 * OpenTelemetry, loaded only when tracing is on (tracing.ts): spans for incoming and outgoing HTTP (the API's
 * requests, webhook deliveries, the payment providers' SDKs over axios), fetch (undici: the sandbox's provider calls)
 * and PostgreSQL queries made inside a traced operation (pg-boss's and the outbox's polls alone would be thousands of
 * root spans a minute), exported over OTLP/HTTP (JSON) to `<endpoint>/v1/traces` in batches.
 */
export function startSdk(endpoint: string, serviceName: string): Tracer {
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
    // Traces only: metrics are Prometheus's (metrics.ts), logs are pino's on stdout. Left unset, the SDK would start
    // exporting OTLP metrics and logs to the same endpoint from its own reading of the environment.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]),
        // The server span named by its route template (`POST /v1/tasks/:task_id/feedback`), as metrics label it.
        applyCustomAttributesOnSpan: (span, request) => {
          const express = request as { route?: { path?: unknown }; baseUrl?: string; method?: string };
          const route = express.route?.path;
          if (typeof route !== 'string') return;
          const template = `${express.baseUrl ?? ''}${route}`;
          span.setAttribute('http.route', template);
          span.updateName(`${express.method} ${template}`);
        },
        // Outgoing requests with no parent (pg-boss has none; a health poll) are not worth a trace of their own.
        requireParentforOutgoingSpans: true,
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  sdk.start();
  const tracer = trace.getTracer('legwork');
  return {
    span: (name, attributes, work) =>
      tracer.startActiveSpan(name, { attributes }, async (span) => {
        try {
          return await work();
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw err;
        } finally {
          span.end();
        }
      }),
    ids: () => {
      const span = trace.getSpan(context.active());
      if (!span) return null;
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
    shutdown: () => sdk.shutdown(),
  };
}
