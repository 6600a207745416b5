/**
 * The periods spend caps count in (product-decisions §21): the day and the month in China time. Asia/Shanghai has
 * been UTC+8 without daylight saving since 1991, so a fixed offset is exact and needs no time-zone database.
 */
export type SpendPeriod = 'daily' | 'monthly';
export const SPEND_PERIODS: readonly SpendPeriod[] = ['daily', 'monthly'];

const CHINA_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;

export interface PeriodBounds {
  /** The first instant of the period that contains `at`. */
  start: Date;
  /** The first instant of the next period: when the counted amount starts again from zero. */
  resetsAt: Date;
}

export function periodBounds(period: SpendPeriod, at: Date): PeriodBounds {
  const local = at.getTime() + CHINA_OFFSET_MS;
  if (period === 'daily') {
    const start = Math.floor(local / DAY_MS) * DAY_MS;
    return { start: new Date(start - CHINA_OFFSET_MS), resetsAt: new Date(start + DAY_MS - CHINA_OFFSET_MS) };
  }
  const d = new Date(local);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { start: new Date(start - CHINA_OFFSET_MS), resetsAt: new Date(next - CHINA_OFFSET_MS) };
}
