/** Latency samples in milliseconds with exact percentiles (runs keep at most a few hundred thousand samples). */
export class Samples {
  private values: number[] = [];

  add(ms: number): void {
    this.values.push(ms);
  }

  get count(): number {
    return this.values.length;
  }

  merge(other: Samples): void {
    for (const v of other.values) this.values.push(v);
  }

  summary(): LatencySummary {
    const sorted = [...this.values].sort((a, b) => a - b);
    const at = (p: number): number =>
      sorted.length
        ? round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)])
        : 0;
    return {
      count: sorted.length,
      p50: at(50),
      p95: at(95),
      p99: at(99),
      max: sorted.length ? round(sorted[sorted.length - 1]) : 0,
    };
  }
}

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
