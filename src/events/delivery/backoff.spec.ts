import fc from 'fast-check';
import { MAX_ATTEMPTS, maxRetryDelayMs, retryDelayMs } from './backoff';

describe('webhook retry schedule', () => {
  it('without jitter: 30 s, 2 m, 8 m, 32 m, 2 h 8 m, 8 h 32 m, then 12 h, ten attempts over about two days', () => {
    const mid = () => 0.5;
    const delays = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, mid)!);
    expect(delays.map((d) => d / 1000)).toEqual([30, 120, 480, 1920, 7680, 30720, 43200, 43200, 43200]);
    const total = delays.reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeCloseTo(47.38, 1);
    expect(retryDelayMs(MAX_ATTEMPTS, mid)).toBeNull();
  });

  it('jitter stays within ±20% and below maxRetryDelayMs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_ATTEMPTS - 1 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (n, r) => {
          const d = retryDelayMs(n, () => r)!;
          const base = retryDelayMs(n, () => 0.5)!;
          expect(d).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
          expect(d).toBeLessThanOrEqual(maxRetryDelayMs(n));
        },
      ),
    );
  });

  it('the whole schedule spans between 1.5 and 2.5 days whatever the jitter', () => {
    for (const r of [0, 0.999999]) {
      let total = 0;
      for (let n = 1; n < MAX_ATTEMPTS; n++) total += retryDelayMs(n, () => r)!;
      expect(total / 86_400_000).toBeGreaterThan(1.5);
      expect(total / 86_400_000).toBeLessThan(2.5);
    }
  });
});
