import { Samples } from '../bench/stats';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Per-operation counts, statuses and latencies of everything the soak sends. */
export class Traffic {
  readonly ops = new Map<string, { statuses: Record<string, number>; latency: Samples }>();
  /** Responses 5xx or no response at all, with what came back (the first few kept for the report). */
  failures = 0;
  readonly examples: string[] = [];

  constructor(readonly baseUrl: string) {}

  async call(
    op: string,
    method: string,
    path: string,
    token: string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const started = performance.now();
    let status = 0;
    let parsed: Record<string, unknown> = {};
    try {
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      status = res.status;
      const text = await res.text();
      parsed =
        text && res.headers.get('content-type')?.includes('json')
          ? (JSON.parse(text) as Record<string, unknown>)
          : {};
    } catch (err) {
      parsed = { error: { code: 'network', message: (err as Error).message } };
    }
    const entry = this.ops.get(op) ?? { statuses: {}, latency: new Samples() };
    this.ops.set(op, entry);
    entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
    entry.latency.add(performance.now() - started);
    if (status === 0 || status >= 500) {
      this.failures++;
      if (this.examples.length < 10)
        this.examples.push(`${op} ${method} ${path} -> ${status} ${JSON.stringify(parsed)}`);
    }
    return { status, body: parsed };
  }

  total(): number {
    let n = 0;
    for (const e of this.ops.values()) n += e.latency.count;
    return n;
  }
}
