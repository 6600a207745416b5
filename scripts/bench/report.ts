import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { JOBS_POOL_SIZE } from '../../src/database/data-source';
import type { ScenarioReport } from './context';

export interface Machine {
  nproc: number;
  memory_gib: number;
  cpu_model: string;
  node: string;
  postgres: Record<string, string>;
  api_pool_size: number;
  jobs_pool_size: number;
  load_generator: string;
  /** 1-minute load average when the run started and ended: the machine is shared, so this says how quiet it was. */
  load_average: { start: number; end: number };
}

export function loadAverage(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}

export function machine(postgres: Record<string, string>, poolSize: number, loadAtStart: number): Machine {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  let nproc = cpus().length;
  try {
    nproc = Number(execFileSync('nproc').toString().trim());
  } catch {
    // keep os.cpus()
  }
  return {
    nproc,
    memory_gib: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    cpu_model: /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1] ?? 'unknown',
    node: process.version,
    postgres,
    api_pool_size: poolSize,
    jobs_pool_size: 3,
    load_generator: 'autocannon 8 in the harness process, on the same machine as the server and PostgreSQL',
    load_average: { start: loadAtStart, end: loadAverage() },
  };
}

export interface BenchReport {
  started_at: string;
  finished_at: string;
  git: string;
  seconds_per_run: number;
  machine: Machine;
  /** The API process at rest: RSS 5 s after boot with no request served, and start-up times. */
  server?: { rss_mib: number; boot_ms: number; npm_start_ms: number | null };
  scenarios: ScenarioReport[];
  ledger_check: { ok: boolean; violations: string[]; accounts: number; journals: number };
}

const n = (v: number | undefined, digits = 1): string =>
  v === undefined ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits });

export function markdown(r: BenchReport): string {
  const m = r.machine;
  const lines: string[] = [
    `# Legwork benchmark — ${r.started_at.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Commit \`${r.git}\`; ${r.seconds_per_run} s per measured run; finished ${r.finished_at.slice(11, 19)} UTC.`,
    '',
    '## Machine',
    '',
    `- ${m.nproc} CPUs (${m.cpu_model}), ${m.memory_gib} GiB memory`,
    `- Node ${m.node}; PostgreSQL ${m.postgres.server_version} (shared_buffers ${m.postgres.shared_buffers}, work_mem ${m.postgres.work_mem}, max_connections ${m.postgres.max_connections}, synchronous_commit ${m.postgres.synchronous_commit}, fsync ${m.postgres.fsync})`,
    `- API: one process (\`node dist/src/main.js\`), database pool ${m.api_pool_size} (plus ${JOBS_POOL_SIZE} for the outbox and webhook deliveries), pg-boss pool ${m.jobs_pool_size}, LOG_LEVEL=warn`,
    `- Load: ${m.load_generator}; the DB-only baseline is pgbench with as many clients as the API pool`,
    `- 1-minute load average ${m.load_average.start} at the start, ${m.load_average.end} at the end (the machine is shared with other work; figures move by ±20 % between runs)`,
    ...(r.server
      ? [
          `- API at rest: RSS ${r.server.rss_mib} MiB 5 s after boot, before any request; \`node dist/src/main.js\` healthy after ${(r.server.boot_ms / 1000).toFixed(1)} s (migrations on a fresh database included), \`npm start\` on a current build (prestart skips the build) ${r.server.npm_start_ms === null ? 'not measured (the sources changed after the build)' : `healthy after ${(r.server.npm_start_ms / 1000).toFixed(1)} s`}`,
        ]
      : []),
    '',
    '## Results',
    '',
    "Server CPU: the API process's CPU time (user + system, /proc/<pid>/stat) over the run divided by its requests; less sensitive to a busy machine than throughput. CPU wait: the time the server's main thread (the event loop) was runnable but waiting for a CPU (/proc/<pid>/task/<pid>/schedstat), divided by the requests; main thread busy: its time on a CPU plus that wait, over the run (1.0: it never idled, so the event loop bounds the rate). Open-loop runs start requests at a fixed rate (half of the closed-loop throughput) and measure latency from when each was due; where such a row has DB-only figures, they are pgbench at the same rate (-R), its latency also counted from when each transaction was due.",
    '',
    '| Scenario | Run | API req/s | p50 ms | p95 ms | p99 ms | errors | server RSS max MiB | server CPU ms/req | CPU wait ms/req | main thread busy | DB-only tps | DB p50 / p99 ms | API / DB |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of r.scenarios) {
    if (s.status !== 'ok' || s.runs.length === 0) {
      lines.push(`| ${s.title} | **${s.status}** | | | | | | | | | | | | ${s.reason ?? ''} |`);
      continue;
    }
    for (const run of s.runs) {
      if (run.events) continue;
      const b = run.baseline;
      lines.push(
        `| ${s.title} | ${run.label} | ${n(run.api.rps)} | ${n(run.api.p50)} | ${n(run.api.p95)} | ${n(run.api.p99)} | ${run.api.errors} | ${n(run.api.rss_max_mib)} | ${n(run.api.cpu_ms_per_request, 2)} | ${n(run.api.cpu_wait_ms_per_request, 2)} | ${n(run.api.main_thread_busy, 2)} | ${b ? n(b.tps) : '–'} | ${b ? `${n(b.p50)} / ${n(b.p99)}` : '–'} | ${run.fraction === undefined ? '–' : `${Math.round(run.fraction * 100)} %`} |`,
      );
    }
  }
  const eventRuns = r.scenarios.flatMap((s) =>
    s.status === 'ok' ? s.runs.filter((run) => run.events).map((run) => ({ s, run })) : [],
  );
  if (eventRuns.length > 0) {
    // Webhooks and WebSocket are measured from the event's timestamp to its receipt, not per request.
    lines.push(
      '',
      'Events: changes made through the API (task cancellations), and what reached the receivers: receipts per second from the first to the last, lag from the event timestamp to receipt. The DB-only baseline runs the same SQL path without HTTP or sockets.',
      '',
      '| Scenario | Run | API changes/s | received/s | lag p50 ms | p95 ms | p99 ms | received / expected | server RSS max MiB | DB-only /s | DB p50 / p99 ms | API / DB |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const { s, run } of eventRuns) {
      const e = run.events!;
      const lag = (v: number) => (e.lag.count === 0 ? '–' : n(v));
      const b = run.baseline;
      lines.push(
        `| ${s.title} | ${run.label} | ${n(e.changes_per_second)} | ${n(e.received_per_second)} | ${lag(e.lag.p50)} | ${lag(e.lag.p95)} | ${lag(e.lag.p99)} | ${n(e.received, 0)} / ${n(e.expected, 0)} | ${n(run.api.rss_max_mib)} | ${b ? n(b.tps) : '–'} | ${b ? `${n(b.p50)} / ${n(b.p99)}` : '–'} | ${run.fraction === undefined ? '–' : `${Math.round(run.fraction * 100)} %`} |`,
      );
    }
  }
  lines.push('', '## Scenarios', '');
  for (const s of r.scenarios) {
    lines.push(`### ${s.title}`, '');
    if (s.reason) lines.push(`Status: **${s.status}** — ${s.reason}`, '');
    for (const note of s.notes) lines.push(`- ${note}`);
    for (const run of s.runs) {
      if (run.kinds) {
        for (const [kind, l] of Object.entries(run.kinds)) {
          lines.push(
            `- ${run.label}, ${kind}: ${l.count} requests, p50 ${l.p50} ms, p95 ${l.p95} ms, p99 ${l.p99} ms`,
          );
        }
      }
      if (run.events) {
        const e = run.events;
        lines.push(
          `- ${run.label}: ${e.received} of ${e.expected} received, ${e.missed} missed, ${e.duplicates} duplicates; lag p50 ${e.lag.p50} ms, p95 ${e.lag.p95} ms, p99 ${e.lag.p99} ms, max ${e.lag.max} ms; API change requests p50 ${run.api.p50} ms, p99 ${run.api.p99} ms`,
        );
      }
      if (run.extra) lines.push(`- ${run.label}: ${JSON.stringify(run.extra)}`);
      const statuses = Object.entries(run.api.statuses)
        .map(([code, count]) => `${code}: ${count}`)
        .join(', ');
      lines.push(`- ${run.label}: statuses ${statuses}`);
    }
    for (const [check, ok] of Object.entries(s.checks))
      lines.push(`- Check: ${check} — **${ok ? 'passed' : 'FAILED'}**`);
    lines.push('');
  }
  const lc = r.ledger_check;
  lines.push(
    '## Ledger check after the run',
    '',
    `${lc.ok ? 'Clean' : '**VIOLATIONS**'}: ${lc.accounts.toLocaleString('en-US')} accounts, ${lc.journals.toLocaleString('en-US')} journals${lc.violations.length ? `; ${lc.violations.slice(0, 10).join('; ')}` : ''}.`,
    '',
  );
  return lines.join('\n');
}
