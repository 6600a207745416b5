import type { Request, RequestParams } from 'autocannon';
import http from 'node:http';
import { cpuFigures, LoadResult } from './load';
import type { ServerProcess } from './server';
import { LatencySummary, round, Samples } from './stats';

export interface OpenLoopRun {
  server: ServerProcess;
  /** Sequences started per second, evenly spaced. */
  rate: number;
  seconds: number;
  /**
   * The same autocannon request list a closed-loop run uses: each arrival runs it in order with a context of its
   * own (setupRequest may return null to end the sequence early, as a lost accept does with its submit).
   */
  requests: Request[];
  expected: number[];
  /** Stop starting new sequences once this says so (e.g. every slot is taken). */
  done?: () => boolean;
}

/**
 * The generator's first second at the rate, run but left out of the figures: its keep-alive connections are opened
 * then (one per request in flight), and those first requests answered in 50 to 60 ms while the rest took 2 to 5, which
 * alone made the p99 of a 10-second run. pgbench's first second at a fixed rate is left out for the same reason
 * (pgbench.ts), so both sides are measured on warm connections.
 */
export const OPEN_LOOP_WARMUP_SECONDS = 1;

/**
 * Latency at a steady rate, not at saturation: an open-loop generator starts a sequence every 1/rate seconds whatever
 * the answers are doing (autocannon's overallRate sends each connection's per-second budget at the top of each
 * second, a burst every second, and waits for answers: closed loop). A request's latency is measured from the moment
 * it was due, not from when the generator got round to sending it, so a stall in the generator shows up instead of
 * being hidden (coordinated omission). Keep-alive connections, as many as are in flight. The run lasts
 * OPEN_LOOP_WARMUP_SECONDS more than `seconds`; the figures (latency, statuses, errors, rate, server CPU) are of the
 * sequences due after the warm-up.
 */
export async function openLoop(
  run: OpenLoopRun,
): Promise<{ total: LoadResult; byKind: Record<string, LatencySummary> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const all = new Samples();
  const kinds = new Map<string, Samples>();
  const statuses: Record<string, number> = {};
  let errors = 0;
  let rssMax = run.server.rssMiB();
  const sampler = setInterval(() => {
    try {
      rssMax = Math.max(rssMax, run.server.rssMiB());
    } catch {
      // the server is gone; the run reports errors
    }
  }, 250);
  const target = new URL(run.server.baseUrl);
  const send = (
    p: RequestParams,
    dueAt: number,
    ctx: Record<string, unknown>,
    r: Request,
    measured: boolean,
  ) =>
    new Promise<void>((resolve) => {
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: p.method ?? r.method ?? 'GET',
          path: p.path ?? r.path ?? '/',
          headers: p.headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const ms = performance.now() - dueAt;
            const status = res.statusCode ?? 0;
            const body = Buffer.concat(chunks).toString('utf8');
            let failed = !run.expected.includes(status);
            try {
              r.onResponse?.(status, body, ctx, res.headers as Record<string, string>);
            } catch {
              failed = true;
            }
            if (!measured) return resolve();
            all.add(ms);
            statuses[status] = (statuses[status] ?? 0) + 1;
            if (failed) errors++;
            const kind = typeof ctx.kind === 'string' ? ctx.kind : undefined;
            if (kind) {
              if (!kinds.has(kind)) kinds.set(kind, new Samples());
              kinds.get(kind)!.add(ms);
            }
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(p.body);
    });
  const sequence = async (dueAt: number, measured: boolean): Promise<void> => {
    const ctx: Record<string, unknown> = {};
    let due = dueAt;
    for (const r of run.requests) {
      const base: RequestParams = { method: r.method, path: r.path, headers: r.headers, body: r.body };
      let params: RequestParams | null;
      try {
        params = r.setupRequest ? (r.setupRequest(base, ctx) as RequestParams | null) : base;
      } catch {
        if (measured) errors++;
        return;
      }
      if (!params) return;
      await send(params, due, ctx, r, measured);
      // The next request of a sequence is sent when the previous answer arrives: its latency starts there.
      due = performance.now();
    }
  };
  const warmup = Math.round(run.rate * OPEN_LOOP_WARMUP_SECONDS);
  const count = warmup + Math.round(run.rate * run.seconds);
  const begun = performance.now();
  let started = begun;
  let cpuAtStart = run.server.cpuMs();
  let threadAtStart = run.server.mainThread();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < count && !run.done?.(); i++) {
    const dueAt = begun + (i * 1000) / run.rate;
    const wait = dueAt - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (i === warmup) {
      started = dueAt;
      cpuAtStart = run.server.cpuMs();
      threadAtStart = run.server.mainThread();
    }
    inflight.push(sequence(dueAt, i >= warmup));
  }
  await Promise.all(inflight);
  clearInterval(sampler);
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  const cpu = run.server.cpuMs() - cpuAtStart;
  const thread = run.server.mainThread();
  const summary = all.summary();
  return {
    total: {
      connections: 0,
      seconds: round(seconds),
      rps: round(summary.count / seconds),
      ...summary,
      errors,
      statuses,
      rss_max_mib: rssMax,
      rss_end_mib: run.server.rssMiB(),
      ...cpuFigures(cpu, summary.count, seconds, threadAtStart, thread),
      offered_rate: round(run.rate),
    },
    byKind: Object.fromEntries([...kinds].map(([k, s]) => [k, s.summary()])),
  };
}
