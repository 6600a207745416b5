import fc from 'fast-check';
import { cancellationSplit, type ShareSplit, shareSplit, splitSlot, taskCost } from './fees';

const budget = fc.integer({ min: 1000, max: 5_000_000 });
const bps = fc.integer({ min: 0, max: 5000 });

describe('fee policy', () => {
  it('payout + fee = budget, integers, fee is round-half-up of budget * bps / 10000', () => {
    fc.assert(
      fc.property(budget, bps, (b, r) => {
        const { payoutCents, feeCents } = splitSlot(b, r);
        expect(Number.isInteger(payoutCents) && Number.isInteger(feeCents)).toBe(true);
        expect(payoutCents + feeCents).toBe(b);
        expect(feeCents).toBeGreaterThanOrEqual(0);
        expect(Math.abs(feeCents - (b * r) / 10000)).toBeLessThanOrEqual(0.5);
        // half up: exactly .5 rounds up
        if ((b * r) % 10000 === 5000) expect(feeCents).toBe(Math.ceil((b * r) / 10000));
      }),
      { numRuns: 5000 },
    );
  });

  it('task cost is per slot times max_workers and sums exactly', () => {
    fc.assert(
      fc.property(budget, fc.integer({ min: 1, max: 10 }), bps, (b, n, r) => {
        const c = taskCost(b, n, r);
        expect(c.worker_payout_cents + c.platform_fee_cents).toBe(c.total_cents);
        expect(c.total_cents).toBe(b * n);
        expect(c.platform_fee_cents).toBe(splitSlot(b, r).feeCents * n);
      }),
    );
  });

  it('70/30 cancellation split sums to the budget exactly', () => {
    fc.assert(
      fc.property(budget, (b) => {
        const { agentRefundCents, workerCents } = cancellationSplit(b);
        expect(agentRefundCents + workerCents).toBe(b);
        expect(Number.isInteger(workerCents)).toBe(true);
        expect(Math.abs(workerCents - b * 0.3)).toBeLessThanOrEqual(0.5);
      }),
      { numRuns: 5000 },
    );
  });

  it('examples: 10 % of 5000 is 500; 10 % of 1005 rounds 100.5 up to 101', () => {
    expect(splitSlot(5000, 1000)).toEqual({ payoutCents: 4500, feeCents: 500 });
    expect(splitSlot(1005, 1000)).toEqual({ payoutCents: 904, feeCents: 101 });
    expect(cancellationSplit(1005)).toEqual({ agentRefundCents: 703, workerCents: 302 });
  });

  it('rejects non-integers and negative amounts', () => {
    expect(() => splitSlot(10.5, 1000)).toThrow(RangeError);
    expect(() => splitSlot(-1, 1000)).toThrow(RangeError);
    expect(() => splitSlot(1000, 1.5)).toThrow(RangeError);
  });
});

describe('shareSplit (product-decisions §19)', () => {
  // Worked examples: budget, percent and fee rate in, the four parts out.
  const examples: [string, [number, number, number], ShareSplit][] = [
    [
      '5,000 at 20 % with a 10 % fee: the worker gets 900, the fee is 100, the agent 4,000 back',
      [5000, 20, 1000],
      { shareCents: 1000, workerCents: 900, feeCents: 100, agentRefundCents: 4000 },
    ],
    [
      'rounds the share and its fee half up: 1,005 at 50 % is a share of 503, a fee of 50',
      [1005, 50, 1000],
      { shareCents: 503, workerCents: 453, feeCents: 50, agentRefundCents: 502 },
    ],
    [
      'pays nothing at 0 %',
      [5000, 0, 1000],
      { shareCents: 0, workerCents: 0, feeCents: 0, agentRefundCents: 5000 },
    ],
  ];
  it.each(examples)('%s', (_name, [budgetCents, percent, feeBps], split) => {
    expect(shareSplit(budgetCents, percent, feeBps)).toEqual(split);
  });

  it('the parts always sum to the budget and the worker never gets less than nothing', () => {
    for (const budget of [1000, 1001, 1234, 99_999, 5_000_000])
      for (const percent of [0, 1, 20, 33, 50, 99])
        for (const bps of [0, 800, 1000, 1234]) {
          const s = shareSplit(budget, percent, bps);
          expect(s.workerCents + s.feeCents + s.agentRefundCents).toBe(budget);
          expect(s.workerCents).toBeGreaterThanOrEqual(0);
        }
  });
});
