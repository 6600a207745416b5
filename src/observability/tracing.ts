import { ConfigError, loadConfig } from '../config/config';
import { loadEnvFile } from '../config/env-file';
import type { Tracer } from './tracing-sdk';

let tracer: Tracer | null = null;

/**
 * Starts OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set (product-decisions §20), for the process named by
 * `role`. Imported by the entry points (main.ts, jobs.main.ts) before Nest, Express and pg are loaded, because the
 * instrumentations patch those modules as they are required. With tracing off it loads nothing of OpenTelemetry: no
 * context manager (an AsyncLocalStorage makes every promise of the process pay for async hooks, see transaction.ts)
 * and no instrumentation, so the request path is exactly as without it. A configuration error is left to the
 * entry point's own loadConfig, which reports it.
 */
export function startTracing(role: 'api' | 'jobs'): void {
  let endpoint: string | null;
  let serviceName: string;
  try {
    loadEnvFile();
    const config = loadConfig();
    endpoint = config.tracing.otlpEndpoint;
    serviceName = role === 'jobs' ? `${config.tracing.serviceName}-jobs` : config.tracing.serviceName;
  } catch (err) {
    if (err instanceof ConfigError) return;
    throw err;
  }
  if (!endpoint) return;
  // require, not import(): synchronous, so the SDK is up before the entry point's next import loads Express and pg.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  tracer = sdk.startSdk(endpoint, serviceName);
}

/** Runs `work` in a span named `name` when tracing is on; otherwise just runs it. */
export function traced<T>(
  name: string,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
): Promise<T> {
  return tracer ? tracer.span(name, attributes, work) : work();
}

/** Fields for each log line while tracing is on (trace_id, span_id of the active span); null when off. */
export function traceLogFields(): (() => object) | null {
  const t = tracer;
  return t ? () => t.ids() ?? {} : null;
}

/** Flushes the spans still buffered (on shutdown). */
export async function stopTracing(): Promise<void> {
  await tracer?.shutdown();
}
