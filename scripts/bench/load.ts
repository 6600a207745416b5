import autocannon, { Request } from 'autocannon';
import type { ServerProcess, ThreadTimes } from './server';
import { LatencySummary, round, Samples } from './stats';

export interface LoadResult extends LatencySummary {
  connections: number;
  seconds: number;
  /** Completed requests per second (every status). */
  rps: number;
  /** Responses whose status the scenario did not expect, plus socket errors and timeouts. */
  errors: number;
  statuses: Record<string, number>;
  rss_max_mib: number;
  rss_end_mib: number;
  /** Server process CPU time (user + system) over the run divided by the responses: ms of CPU per request. */
  cpu_ms_per_request?: number;
  /** Server process CPU time over the run's wall time (1.0 = one core busy the whole run). */
  cpu_cores?: number;
  /**
   * The server's main thread (the event loop) runnable but waiting for a CPU, per request (ServerProcess.mainThread):
   * time in which it had work and another process held both cores.
   */
  cpu_wait_ms_per_request?: number;
  /** The main thread on a CPU or waiting for one, over the run's wall time: 1.0 = it never idled. */
  main_thread_busy?: number;
  /** Open-loop runs: the rate requests (sequences) were started at. */
  offered_rate?: number;
}

export interface LoadRun {
  server: ServerProcess;
  connections: number;
  seconds: number;
  /** Stop after this many requests instead of after `seconds`. */
  amount?: number;
  requests: Request[];
  /** Statuses that count as the expected outcome (e.g. [201], or [200, 409] in a race). */
  expected: number[];
  /** Called after every response; returning true stops the run early (e.g. once every slot is taken). */
  done?: () => boolean;
  /** Requests may tag themselves (context.kind) to get per-kind latencies, e.g. accept vs submit. */
  kindOf?: (status: number) => string | undefined;
}

/**
 * One autocannon run against the server child. Latencies come from autocannon's per-response timings, kept whole
 * (not bucketed) so p95 is exact; the server's RSS is sampled every 250 ms from /proc while the run lasts.
 */
export async function load(
  run: LoadRun,
): Promise<{ total: LoadResult; byKind: Record<string, LatencySummary> }> {
  const all = new Samples();
  const kinds = new Map<string, Samples>();
  const statuses: Record<string, number> = {};
  let unexpected = 0;
  let lastKind: string | undefined;
  // onResponse (which sets lastKind) runs right before autocannon emits 'response' for the same reply.
  const requests = run.requests.map((r) => ({
    ...r,
    onResponse: (
      status: number,
      body: string,
      ctx: Record<string, unknown>,
      headers: Record<string, string>,
    ) => {
      lastKind = typeof ctx.kind === 'string' ? ctx.kind : undefined;
      r.onResponse?.(status, body, ctx, headers);
    },
  }));
  let rssMax = run.server.rssMiB();
  const sampler = setInterval(() => {
    try {
      rssMax = Math.max(rssMax, run.server.rssMiB());
    } catch {
      // the server is gone; the run reports errors
    }
  }, 250);
  const started = Date.now();
  const cpuAtStart = run.server.cpuMs();
  const threadAtStart = run.server.mainThread();
  const instance = autocannon({
    url: run.server.baseUrl,
    connections: run.connections,
    duration: run.seconds,
    ...(run.amount ? { amount: run.amount } : {}),
    timeout: 30,
    requests,
  });
  let stopped = false;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    all.add(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (!run.expected.includes(status)) unexpected++;
    if (lastKind) {
      if (!kinds.has(lastKind)) kinds.set(lastKind, new Samples());
      kinds.get(lastKind)!.add(ms);
    }
    if (!stopped && run.done?.()) {
      stopped = true;
      instance.stop();
    }
  });
  const result = await instance;
  clearInterval(sampler);
  const seconds = (Date.now() - started) / 1000;
  const cpu = run.server.cpuMs() - cpuAtStart;
  const thread = run.server.mainThread();
  const summary = all.summary();
  return {
    total: {
      connections: run.connections,
      seconds: round(seconds),
      rps: round(summary.count / seconds),
      ...summary,
      errors: unexpected + result.errors,
      statuses,
      rss_max_mib: rssMax,
      rss_end_mib: run.server.rssMiB(),
      ...cpuFigures(cpu, summary.count, seconds, threadAtStart, thread),
    },
    byKind: Object.fromEntries([...kinds].map(([k, s]) => [k, s.summary()])),
  };
}

/**
 * CPU per request and cores busy, from the server's CPU time over a run (see ServerProcess.cpuMs), and what its main
 * thread spent waiting for a CPU (ServerProcess.mainThread, read at the start and the end of the run).
 */
export function cpuFigures(
  cpuMs: number,
  requests: number,
  seconds: number,
  threadAtStart: ThreadTimes,
  threadAtEnd: ThreadTimes,
): Pick<LoadResult, 'cpu_ms_per_request' | 'cpu_cores' | 'cpu_wait_ms_per_request' | 'main_thread_busy'> {
  const waitMs = threadAtEnd.waitMs - threadAtStart.waitMs;
  const busyMs = threadAtEnd.cpuMs - threadAtStart.cpuMs + waitMs;
  return {
    cpu_ms_per_request: requests > 0 ? round(cpuMs / requests, 2) : undefined,
    cpu_cores: seconds > 0 ? round(cpuMs / 1000 / seconds, 2) : undefined,
    cpu_wait_ms_per_request: requests > 0 ? round(waitMs / requests, 2) : undefined,
    main_thread_busy: seconds > 0 ? round(busyMs / 1000 / seconds, 2) : undefined,
  };
}
