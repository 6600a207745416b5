import fc from 'fast-check';
import { distanceMeters } from '../common/geo';
import {
  OfferCandidate,
  offerScore,
  rankCandidates,
  rankTasksForWorker,
  responsiveness,
  type TaskForWorker,
} from './offer-policy';

const c = (
  workerId: string,
  distanceMeters: number,
  reputation = 4,
  medianAnswerSeconds: number | null = null,
) => ({ workerId, distanceMeters, reputation, medianAnswerSeconds }) satisfies OfferCandidate;

describe('offer ranking', () => {
  it('score = 0.5 proximity + 0.3 reputation/5 + 0.2 responsiveness', () => {
    expect(offerScore(c('a', 0, 5, 0), 1000)).toBeCloseTo(1);
    expect(offerScore(c('a', 1000, 0, 120), 1000)).toBeCloseTo(0);
    // 250 m of 1000, reputation 4, answers in 30 s: 0.5*0.75 + 0.3*0.8 + 0.2*0.75
    expect(offerScore(c('a', 250, 4, 30), 1000)).toBeCloseTo(0.765);
    // No offer history: responsiveness 0.5.
    expect(offerScore(c('a', 0, 4, null), 1000)).toBeCloseTo(0.5 + 0.24 + 0.1);
  });

  it('with equal reputation and history, nearer is better', () => {
    const ranked = rankCandidates([c('far', 800), c('near', 100), c('mid', 400)], 1000);
    expect(ranked.map((x) => x.workerId)).toEqual(['near', 'mid', 'far']);
  });

  it('a much better reputation can outweigh a little distance', () => {
    const ranked = rankCandidates([c('close-but-weak', 100, 3.6), c('a-bit-further', 150, 5)], 1000);
    expect(ranked[0].workerId).toBe('a-bit-further');
  });

  it('is a total order: ties go to the nearer worker, then the lower id', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            workerId: fc.uuid(),
            distanceMeters: fc.integer({ min: 0, max: 1000 }),
            reputation: fc.integer({ min: 0, max: 50 }).map((x) => x / 10),
            medianAnswerSeconds: fc.option(fc.integer({ min: 0, max: 300 })),
          }),
          { maxLength: 30 },
        ),
        (cands) => {
          const once = rankCandidates(cands, 1000).map((x) => x.workerId);
          const again = rankCandidates([...cands].reverse(), 1000).map((x) => x.workerId);
          expect(again).toEqual(once);
          const scores = rankCandidates(cands, 1000).map((x) => offerScore(x, 1000));
          for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
        },
      ),
    );
  });
});

describe('the tasks for one worker going on call', () => {
  const task = (taskId: string, distanceMeters: number, maxDistanceMeters = 1000) =>
    ({ taskId, distanceMeters, maxDistanceMeters }) satisfies TaskForWorker;

  it('rank by the same score: the worker’s part is the same for every task, so by distance within each radius', () => {
    const ranked = rankTasksForWorker([task('near', 300), task('wide', 400, 5000), task('far', 900)]);
    expect(ranked.map((x) => x.taskId)).toEqual(['wide', 'near', 'far']);
    // Each task's place is where that worker would stand among its candidates: the order of its offer score.
    const score = (x: TaskForWorker) =>
      offerScore(
        { workerId: 'w', distanceMeters: x.distanceMeters, reputation: 4, medianAnswerSeconds: 30 },
        x.maxDistanceMeters,
      );
    const scores = ranked.map(score);
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
  });

  it('ties go to the nearer task, then the lower id', () => {
    const ranked = rankTasksForWorker([task('b', 500, 2000), task('c', 250, 1000), task('a', 250, 1000)]);
    expect(ranked.map((x) => x.taskId)).toEqual(['a', 'c', 'b']);
  });

  it('responsiveness: 0.5 without history, 1 for an instant answer, 0 from a lapse on', () => {
    expect(responsiveness(null)).toBe(0.5);
    expect(responsiveness(0)).toBe(1);
    expect(responsiveness(30)).toBe(0.75);
    expect(responsiveness(120)).toBe(0);
    expect(responsiveness(600)).toBe(0);
  });
});

describe('distanceMeters', () => {
  it('one degree of latitude is about 111.2 km; 30 m north is 30 m', () => {
    expect(distanceMeters({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(
      111_195,
      -1,
    );
    const p = { latitude: 31.2304, longitude: 121.4737 };
    expect(distanceMeters(p, { latitude: p.latitude + 30 / 111_195, longitude: p.longitude })).toBeCloseTo(
      30,
      1,
    );
  });
});
