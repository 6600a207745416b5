import fc from 'fast-check';
import {
  fxRateMicros,
  newOrderId,
  newRefundId,
  newWithdrawalId,
  refundProviderCents,
  refundReasonCode,
  usdCentsFor,
  usdToCnyCents,
  utcDayStart,
} from './payment-rules';
import { ORDER_ID, REFUND_ID, TRANSFER_ID } from './providers/provider-error';

describe('currency conversion', () => {
  it('converts USD cents to CNY cents rounding half up, in integers', () => {
    const rate = fxRateMicros(7.1);
    expect(rate).toBe(7_100_000);
    expect(usdToCnyCents(100, rate)).toBe(710);
    expect(usdToCnyCents(1, fxRateMicros(7.125))).toBe(7); // 7.125 -> 7
    expect(usdToCnyCents(2, fxRateMicros(7.125))).toBe(14); // 14.25 -> 14
    expect(usdToCnyCents(2, fxRateMicros(7.25))).toBe(15); // 14.5 -> 15 (half up)
  });

  it('usdCentsFor is the smallest USD amount whose conversion covers the cost', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 10_000, max: 1_000_000_000 }),
        (cny, rate) => {
          const usd = usdCentsFor(cny, rate);
          expect(usdToCnyCents(usd, rate)).toBeGreaterThanOrEqual(cny);
          if (usd > 0) expect(usdToCnyCents(usd - 1, rate)).toBeLessThan(cny);
        },
      ),
    );
    // 704 US cents convert to 4998.4 -> 4998 (short); 705 to 5005.5 -> 5006.
    expect(usdCentsFor(5000, fxRateMicros(7.1))).toBe(705);
    expect(usdToCnyCents(705, fxRateMicros(7.1))).toBe(5006);
  });

  it('rejects a rate that is not positive', () => {
    expect(() => fxRateMicros(0)).toThrow(RangeError);
  });
});

describe('refund amounts', () => {
  const usdOrder = {
    amountCents: 1000,
    providerAmountCents: 7100,
    refundedCents: 0,
    providerRefundedCents: 0,
    fxRateMicros: 7_100_000,
  };

  it('CNY refunds are the amount itself', () => {
    const cny = { ...usdOrder, providerAmountCents: 1000, fxRateMicros: null };
    expect(refundProviderCents(cny, 300)).toBe(300);
  });

  it('partial USD refunds convert; the last one returns exactly what is left in CNY', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1_000_000, max: 50_000_000 }),
        (parts, rate) => {
          const amount = parts.reduce((a, b) => a + b, 0);
          const order = {
            amountCents: amount,
            providerAmountCents: usdToCnyCents(amount, rate),
            refundedCents: 0,
            providerRefundedCents: 0,
            fxRateMicros: rate,
          };
          for (const part of parts) {
            const cny = refundProviderCents(order, part);
            expect(cny).toBeGreaterThan(0);
            order.refundedCents += part;
            order.providerRefundedCents += cny;
            expect(order.providerRefundedCents).toBeLessThanOrEqual(order.providerAmountCents);
          }
          expect(order.providerRefundedCents).toBe(order.providerAmountCents);
        },
      ),
    );
  });
});

describe('ids and reasons', () => {
  it('merchant ids fit the providers', () => {
    for (let i = 0; i < 50; i++) {
      expect(newOrderId()).toMatch(ORDER_ID);
      expect(newRefundId()).toMatch(REFUND_ID);
      expect(newWithdrawalId()).toMatch(TRANSFER_ID);
    }
  });

  it('listed reasons are their own code; free text is other', () => {
    expect(refundReasonCode('quality_issue')).toBe('quality_issue');
    expect(refundReasonCode('The photos were blurry')).toBe('other');
  });

  it('UTC day start', () => {
    expect(utcDayStart(new Date('2025-03-04T23:59:59.999+08:00')).toISOString()).toBe(
      '2025-03-04T00:00:00.000Z',
    );
  });
});
