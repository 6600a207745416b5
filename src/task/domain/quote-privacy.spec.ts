import fc from 'fast-check';
import { distanceMeters } from '../../common/geo';
import { quoteCountArea, workerCountBucket } from './quote-privacy';

describe('quote privacy', () => {
  it('reports each count as the lower bound of its bucket (0, 1, 5, 20, 100)', () => {
    const cases: [number, number][] = [
      [0, 0],
      [1, 1],
      [4, 1],
      [5, 5],
      [19, 5],
      [20, 20],
      [99, 20],
      [100, 100],
      [12_345, 100],
    ];
    for (const [count, bucket] of cases) expect([count, workerCountBucket(count)]).toEqual([count, bucket]);
  });

  it('never reports more than the count, and keeps the order of two counts', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), (a, b) => {
        expect(workerCountBucket(a)).toBeLessThanOrEqual(a);
        if (a <= b) expect(workerCountBucket(a)).toBeLessThanOrEqual(workerCountBucket(b));
      }),
    );
  });

  it('counts within 2,000 m at least, or the task’s radius when larger, around the 500 m cell’s centre', () => {
    const here = { latitude: 31.2304, longitude: 121.4737 };
    const small = quoteCountArea(here, 1);
    expect(small.radiusMeters).toBe(2000);
    expect(quoteCountArea(here, 5000).radiusMeters).toBe(5000);
    expect(distanceMeters(here, small.centre)).toBeLessThan(360);
    expect(quoteCountArea(small.centre, 100).centre).toEqual(small.centre);
  });
});
