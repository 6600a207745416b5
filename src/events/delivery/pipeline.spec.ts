import { setImmediate as nextTurn } from 'node:timers/promises';
import { drainPipelined } from './pipeline';

/**
 * Time here is counted in event-loop turns, never in milliseconds: a claim takes one turn and item i's work takes
 * `turns(i)`, so what the pipeline does in what order is the same on an idle laptop and on a loaded CI machine.
 */
async function turns(n: number): Promise<void> {
  for (let k = 0; k < n; k++) await nextTurn();
}

/** A queue of `n` items whose work takes `cost(i)` turns; records the most items in flight, claims and order. */
function queue(n: number, cost: (i: number) => number) {
  const pending = Array.from({ length: n }, (_, i) => i);
  const stats = { inFlight: 0, peak: 0, claims: [] as number[], worked: [] as number[] };
  const claim = async (limit: number): Promise<number[]> => {
    await nextTurn();
    stats.claims.push(limit);
    return pending.splice(0, limit);
  };
  const work = async (i: number): Promise<void> => {
    stats.inFlight++;
    stats.peak = Math.max(stats.peak, stats.inFlight);
    await turns(cost(i));
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
    // It claimed again while a batch was still in flight, so more than one batch was in flight at once.
    expect(q.stats.peak).toBeGreaterThan(20);
    expect(Math.max(...q.stats.claims)).toBeLessThanOrEqual(20);
  });

  it('keeps claiming while one slow item holds its slot', async () => {
    // Item 0 is held until every other item is worked (or, should the pipeline wait for it, 10,000 turns pass, far
    // more than the 99 others need). A batch-at-a-time loop would wait for item 0 before claiming again, so item 0
    // would finish first; the pipeline works the rest meanwhile, so item 0 finishes last.
    const q = queue(100, () => 1);
    const work = async (i: number): Promise<void> => {
      if (i !== 0) return q.work(i);
      for (let k = 0; k < 10_000 && q.stats.worked.length < 99; k++) await nextTurn();
      q.stats.worked.push(0);
    };
    expect(await drainPipelined(q.claim, work, 10, 16)).toBe(100);
    expect(q.stats.worked).toHaveLength(100);
    expect(q.stats.worked.at(-1)).toBe(0);
    // Claims went on (the first of them while item 0 was in flight) until the queue ran dry.
    expect(q.stats.claims.length).toBeGreaterThan(10);
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
    // Shutdown begins while the first claim is on its way: its items are worked, nothing more is claimed.
    const claim = async (limit: number) => {
      const items = await q.claim(limit);
      claiming = false;
      return items;
    };
    const worked = await drainPipelined(claim, q.work, 10, 10, () => claiming);
    expect(worked).toBe(10);
    expect(q.stats.worked.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(q.stats.inFlight).toBe(0);
    expect(q.stats.claims).toEqual([10]);
  });
});
