import type { LatencySummary } from '../bench/stats';

export interface MemorySample {
  seconds: number;
  rss_mib: number;
}

export interface SoakReport {
  started_at: string;
  minutes: number;
  requests: number;
  failures: number;
  failure_examples: string[];
  operations: Record<string, LatencySummary & { statuses: Record<string, number> }>;
  database: Record<string, string>;
  memory: MemorySample[];
  memory_verdict: MemoryVerdict;
  ledger: { minute: number; ok: boolean; journals: number; violations: string[] }[];
}

export interface MemoryVerdict {
  warmup_seconds: number;
  rss_after_warmup_mib: number;
  rss_end_mib: number;
  growth_percent: number;
  /** Per-minute medians after warm-up. */
  minute_medians_mib: number[];
  monotonic: boolean;
  leak: boolean;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};

/**
 * Warm-up is the first minute (a fifth of the run for runs under five minutes). RSS "after warm-up" and "at the
 * end" are medians over a window (a minute, or a fifth of a short run) so that one garbage collection does not
 * decide. A leak is RSS at the end more than 20 % above RSS after warm-up, or per-minute median RSS rising every
 * single minute after warm-up (at least four minutes) by more than 5 % overall: steady growth that a short run
 * would not push past 20 % yet.
 */
export function judgeMemory(samples: MemorySample[], minutes: number): MemoryVerdict {
  const window = minutes >= 5 ? 60 : Math.max(10, Math.round((minutes * 60) / 5));
  const warmup = window;
  const last = samples[samples.length - 1]?.seconds ?? 0;
  const after = samples.filter((s) => s.seconds >= warmup);
  const base = median(after.filter((s) => s.seconds < warmup + window).map((s) => s.rss_mib));
  const end = median(samples.filter((s) => s.seconds > last - window).map((s) => s.rss_mib));
  const byMinute = new Map<number, number[]>();
  for (const s of after) {
    const m = Math.floor(s.seconds / 60);
    byMinute.set(m, [...(byMinute.get(m) ?? []), s.rss_mib]);
  }
  const medians = [...byMinute.values()].map(median);
  const rising = medians.length >= 4 && medians.every((m, i) => i === 0 || m > medians[i - 1]);
  const monotonic = rising && medians[medians.length - 1] > medians[0] * 1.05;
  const growth = base > 0 ? Math.round(((end - base) / base) * 1000) / 10 : 0;
  return {
    warmup_seconds: warmup,
    rss_after_warmup_mib: base,
    rss_end_mib: end,
    growth_percent: growth,
    minute_medians_mib: medians,
    monotonic,
    leak: growth > 20 || monotonic,
  };
}

export function soakMarkdown(r: SoakReport): string {
  const v = r.memory_verdict;
  const lines = [
    `# Soak — ${r.minutes} minutes from ${r.started_at.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `- Requests: ${r.requests.toLocaleString('en-US')} (${(r.requests / (r.minutes * 60)).toFixed(1)}/s); 5xx or lost: **${r.failures}**`,
    `- Ledger checked ${r.ledger.length} times: ${r.ledger.every((l) => l.ok) ? '**clean every time**' : '**VIOLATIONS**'} (${r.ledger[r.ledger.length - 1]?.journals ?? 0} journals at the end)`,
    `- Database at the end: ${Object.entries(r.database)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
    `- RSS after warm-up (median of the ${v.warmup_seconds} s after it) ${v.rss_after_warmup_mib} MiB, at the end (median of the last ${v.warmup_seconds} s) ${v.rss_end_mib} MiB (${v.growth_percent >= 0 ? '+' : ''}${v.growth_percent} %); per-minute medians ${v.minute_medians_mib.join(', ')} MiB; monotonic growth: ${v.monotonic ? 'yes' : 'no'} — **${v.leak ? 'LEAK' : 'no leak'}**`,
    '',
    '| Operation | requests | p50 ms | p95 ms | p99 ms | statuses |',
    '|---|---:|---:|---:|---:|---|',
    ...Object.entries(r.operations).map(
      ([op, o]) =>
        `| ${op} | ${o.count} | ${o.p50} | ${o.p95} | ${o.p99} | ${Object.entries(o.statuses)
          .map(([s, n]) => `${s}: ${n}`)
          .join(', ')} |`,
    ),
    '',
    'RSS over time (s: MiB): ' + r.memory.map((m) => `${m.seconds}: ${m.rss_mib}`).join(', '),
    '',
  ];
  if (r.failure_examples.length) lines.push('Failures:', ...r.failure_examples.map((e) => `- ${e}`), '');
  return lines.join('\n');
}
