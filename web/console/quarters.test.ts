import { describe, expect, it } from 'vitest';
import { chinaQuarterOf, lastCompleteQuarter, recentQuarters } from './quarters';

/** The console's quarter picker (web/console/quarters.ts): quarters drawn in China time, as the API draws them. */
describe('quarters in China time', () => {
  it('a moment belongs to the quarter of its China date, not its UTC date', () => {
    // 30 September 16:00 UTC is 1 October 00:00 in Shanghai: Q4 there, though still Q3 in UTC.
    expect(chinaQuarterOf(new Date('2026-09-30T16:00:00Z'))).toEqual({ year: 2026, q: 4 });
    expect(chinaQuarterOf(new Date('2026-09-30T15:59:59Z'))).toEqual({ year: 2026, q: 3 });
    expect(chinaQuarterOf(new Date('2026-12-31T16:00:00Z'))).toEqual({ year: 2027, q: 1 });
  });

  it('the last complete quarter is the one before the current, across a year', () => {
    expect(lastCompleteQuarter(new Date('2026-11-27T22:00:00Z'))).toBe('2026-Q3');
    expect(lastCompleteQuarter(new Date('2026-09-30T16:00:00Z'))).toBe('2026-Q3');
    expect(lastCompleteQuarter(new Date('2026-09-30T15:00:00Z'))).toBe('2026-Q2');
    expect(lastCompleteQuarter(new Date('2027-02-01T00:00:00Z'))).toBe('2026-Q4');
  });

  it('the picker offers the current quarter and those before it, newest first', () => {
    expect(recentQuarters(new Date('2026-02-10T00:00:00Z'), 4)).toEqual([
      '2026-Q1',
      '2025-Q4',
      '2025-Q3',
      '2025-Q2',
    ]);
  });
});
