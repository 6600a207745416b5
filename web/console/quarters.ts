/**
 * Quarters as the worker-income report draws them (GET /v1/admin/reports/worker-income): `YYYY-Q1` to `YYYY-Q4`,
 * bounded in China time (UTC+8, no daylight saving), whatever the operator's own time zone. A quarter that has not
 * begun is refused by the API, so the picker offers the current one and those before it.
 */
const CHINA_OFFSET_MS = 8 * 3_600_000;

export interface QuarterRef {
  year: number;
  /** 1 to 4. */
  q: number;
}

/** The quarter a moment falls in, in China time. */
export function chinaQuarterOf(at: Date): QuarterRef {
  const china = new Date(at.getTime() + CHINA_OFFSET_MS);
  return { year: china.getUTCFullYear(), q: Math.floor(china.getUTCMonth() / 3) + 1 };
}

export function quarterLabel(ref: QuarterRef): string {
  return `${ref.year}-Q${ref.q}`;
}

function previous(ref: QuarterRef): QuarterRef {
  return ref.q === 1 ? { year: ref.year - 1, q: 4 } : { year: ref.year, q: ref.q - 1 };
}

/** The quarter before the one `now` is in (China time): the last one whose income is final. */
export function lastCompleteQuarter(now: Date): string {
  return quarterLabel(previous(chinaQuarterOf(now)));
}

/** The current quarter (China time) and the `count - 1` before it, newest first. */
export function recentQuarters(now: Date, count: number): string[] {
  const labels: string[] = [];
  let ref = chinaQuarterOf(now);
  for (let i = 0; i < count; i++) {
    labels.push(quarterLabel(ref));
    ref = previous(ref);
  }
  return labels;
}
