import { setTimeout as sleep } from 'node:timers/promises';
import { drainPipelined } from './pipeline';

/** A queue of `n` items whose work takes `ms(i)`; records the most items in flight at once and every claim size. */
function queue(n: number, ms: (i: number) => number) {
  const pending = Array.from({ length: n }, (_, i) => i);
  const stats = { inFlight: 0, peak: 0, claims: [] as number[], worked: [] as number[] };
  const claim = async (limit: number): Promise<number[]> => {
    await sleep(1);
    stats.claims.push(limit);
    return pending.splice(0, limit);
  };
  const work = async (i: number): Promise<void> => {
    stats.inFlight++;
    stats.peak = Math.max(stats.peak, stats.inFlight);
    await sleep(ms(i));
    stats.inFlight--;
    stats.worked.push(i);
  };
  return { claim, work, stats };
}

describe('drainPipelined', () => {
  it('works every item once and never has more than maxInFlight in flight', async () => {
    const q = queue(200, (i) => (i % 7) * 2);
    expect(await drainPipelined(q.claim, q.work, 20, 32)).toBe(200);
    expect([...q.stats.worked].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(q.stats.peak).toBeLessThanOrEqual(32);
    expect(q.stats.peak).toBeGreaterThan(20);
    expect(Math.max(...q.stats.claims)).toBeLessThanOrEqual(20);
  });

  it('keeps claiming while one slow item holds its slot', async () => {
    // Item 0 takes 300 ms; the other 99 take 1 ms each. A batch-at-a-time loop would wait for item 0 before
    // claiming again; the pipeline works the rest meanwhile.
    const q = queue(100, (i) => (i === 0 ? 300 : 1));
    const run = drainPipelined(q.claim, q.work, 10, 16);
    await sleep(200);
    expect(q.stats.worked.length).toBe(99);
    expect(await run).toBe(100);
  });

  it('returns 0 at once on an empty queue, and survives work that throws', async () => {
    const empty = queue(0, () => 0);
    expect(await drainPipelined(empty.claim, empty.work, 20, 32)).toBe(0);
    expect(empty.stats.claims).toEqual([20]);
    const items = [1, 2, 3];
    const worked = await drainPipelined(
      async (limit) => items.splice(0, limit),
      () => Promise.reject(new Error('boom')),
      2,
      5,
    );
    expect(worked).toBe(3);
  });

  it('stops claiming once keepClaiming says no, and finishes what is in flight', async () => {
    const q = queue(100, () => 20);
    let claiming = true;
    const run = drainPipelined(q.claim, q.work, 10, 10, () => claiming);
    await sleep(5);
    claiming = false;
    const worked = await run;
    expect(worked).toBe(10);
    expect(q.stats.worked.length).toBe(10);
    expect(q.stats.inFlight).toBe(0);
    expect(q.stats.claims).toEqual([10]);
  });
});
