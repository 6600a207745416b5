import fc from 'fast-check';
import { computeReputation, ReputationStats, responseScore } from './reputation';

const none: ReputationStats = {
  approved: 0,
  finished: 0,
  ratingCount: 0,
  ratingSum: 0,
  responseCount: 0,
  medianResponseSeconds: null,
};

const statsArb = fc
  .record({
    approved: fc.nat(200),
    failed: fc.nat(200),
    ratings: fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 200 }),
    responseCount: fc.nat(200),
    median: fc.integer({ min: 0, max: 48 * 3600 }),
  })
  .map((r): ReputationStats => ({
    approved: r.approved,
    finished: r.approved + r.failed,
    ratingCount: r.ratings.length,
    ratingSum: r.ratings.reduce((a, b) => a + b, 0),
    responseCount: r.responseCount,
    medianResponseSeconds: r.responseCount > 0 ? r.median : null,
  }));

describe('reputation (product-decisions §5)', () => {
  it('a new worker has 4.0', () => {
    expect(computeReputation(none).score).toBe(4);
  });

  it('worked examples', () => {
    // One abandonment: completion (0 + 2.4) / 4 = 0.6 -> 5 * (0.36 + 0.24 + 0.08) = 3.4.
    expect(computeReputation({ ...none, finished: 1 }).score).toBe(3.4);
    // One approval rated 5, submitted within 30 minutes: every part (1 + 2.4) / 4 = 0.85 -> 4.25.
    expect(
      computeReputation({
        approved: 1,
        finished: 1,
        ratingCount: 1,
        ratingSum: 5,
        responseCount: 1,
        medianResponseSeconds: 600,
      }).score,
    ).toBe(4.25);
    // One rejection rated 1, submitted fast: 5 * (0.6 * 0.6 + 0.3 * 0.65 + 0.1 * 0.85) = 3.2.
    expect(
      computeReputation({
        approved: 0,
        finished: 1,
        ratingCount: 1,
        ratingSum: 1,
        responseCount: 1,
        medianResponseSeconds: 60,
      }).score,
    ).toBe(3.2);
  });

  it('response falls linearly from 1 at 30 minutes to 0 at 4 hours', () => {
    expect(responseScore(0)).toBe(1);
    expect(responseScore(1800)).toBe(1);
    expect(responseScore(1800 + 6300)).toBeCloseTo(0.5);
    expect(responseScore(4 * 3600)).toBe(0);
    expect(responseScore(10 * 3600)).toBe(0);
  });

  it('a long perfect record approaches 5 and a long failed one approaches 0', () => {
    const perfect = computeReputation({
      approved: 1000,
      finished: 1000,
      ratingCount: 1000,
      ratingSum: 5000,
      responseCount: 1000,
      medianResponseSeconds: 60,
    });
    expect(perfect.score).toBeGreaterThanOrEqual(4.99);
    const failed = computeReputation({
      ...none,
      finished: 1000,
      responseCount: 1000,
      medianResponseSeconds: 86400,
    });
    // Ratings stay at the prior (no reviews): 5 * 0.3 * 0.8 = 1.2 is what remains.
    expect(failed.score).toBeCloseTo(1.2, 1);
  });

  it('always between 0 and 5 with at most 2 decimals', () => {
    fc.assert(
      fc.property(statsArb, (s) => {
        const { score } = computeReputation(s);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(5);
        expect(Math.round(score * 100)).toBeCloseTo(score * 100, 6);
      }),
    );
  });

  it('one more approval never lowers it; one more failure never raises it', () => {
    fc.assert(
      fc.property(statsArb, (s) => {
        const base = computeReputation(s).score;
        expect(
          computeReputation({ ...s, approved: s.approved + 1, finished: s.finished + 1 }).score,
        ).toBeGreaterThanOrEqual(base);
        expect(computeReputation({ ...s, finished: s.finished + 1 }).score).toBeLessThanOrEqual(base);
      }),
    );
  });

  it('a higher rating never lowers it; a slower median never raises it', () => {
    fc.assert(
      fc.property(statsArb, fc.integer({ min: 1, max: 5 }), (s, r) => {
        const base = computeReputation(s).score;
        const rated = { ...s, ratingCount: s.ratingCount + 1 };
        expect(computeReputation({ ...rated, ratingSum: s.ratingSum + 5 }).score).toBeGreaterThanOrEqual(
          computeReputation({ ...rated, ratingSum: s.ratingSum + r }).score,
        );
        if (s.medianResponseSeconds !== null) {
          expect(
            computeReputation({ ...s, medianResponseSeconds: s.medianResponseSeconds + 600 }).score,
          ).toBeLessThanOrEqual(base);
        }
      }),
    );
  });
});
