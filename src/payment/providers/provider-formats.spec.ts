import fc from 'fast-check';
import {
  centsToYuan,
  fromAlipayTime,
  fromRfc3339,
  toAlipayTime,
  toRfc3339Beijing,
  yuanToCents,
} from './provider-formats';

describe('provider wire formats (service side)', () => {
  it('cents and yuan strings round-trip exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999_999 }), (c) => yuanToCents(centsToYuan(c)) === c),
    );
  });

  it('formats two decimals', () => {
    expect(centsToYuan(0)).toBe('0.00');
    expect(centsToYuan(5)).toBe('0.05');
    expect(centsToYuan(123456)).toBe('1234.56');
  });

  it('refuses non-integer or negative cents', () => {
    expect(() => centsToYuan(1.5)).toThrow(RangeError);
    expect(() => centsToYuan(-1)).toThrow(RangeError);
  });

  it.each([
    ['0.1', 10],
    ['10', 1000],
    ['99.99', 9999],
  ])('reads %s yuan as %d cents', (y, c) => expect(yuanToCents(y)).toBe(c));

  it.each([undefined, 12, '', '1.001', '-2.00', 'abc', '1.2.3'])('refuses %p', (v) =>
    expect(yuanToCents(v)).toBeNull(),
  );

  it('Beijing times both ways', () => {
    const d = new Date('2025-12-31T23:59:59Z');
    expect(toAlipayTime(d)).toBe('2026-01-01 07:59:59');
    expect(fromAlipayTime('2026-01-01 07:59:59')).toEqual(d);
    expect(fromAlipayTime('garbage')).toBeNull();
    expect(toRfc3339Beijing(d)).toBe('2026-01-01T07:59:59+08:00');
    expect(fromRfc3339('2026-01-01T07:59:59+08:00')).toEqual(d);
    expect(fromRfc3339(undefined)).toBeNull();
  });
});
