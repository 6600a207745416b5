import fc from 'fast-check';
import {
  alipayTime,
  centsToYuan,
  parseAlipayTime,
  parseRfc3339,
  parseTimeoutExpress,
  wechatTime,
  yuanToCents,
} from './formats';

describe('sandbox wire formats', () => {
  it('yuan strings and cents convert both ways without floating point', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (c) => yuanToCents(centsToYuan(c)) === c),
    );
    expect(centsToYuan(1)).toBe('0.01');
    expect(centsToYuan(100000)).toBe('1000.00');
    expect(yuanToCents('12.3')).toBe(1230);
    expect(yuanToCents('7')).toBe(700);
  });

  it.each(['', '1.234', '-1.00', '1e3', ' 1.00', '1,00', '0x10'])('refuses the amount %p', (v) => {
    expect(yuanToCents(v)).toBeNull();
  });

  it('writes and reads Beijing times', () => {
    const d = new Date('2024-03-01T16:30:05Z');
    expect(alipayTime(d)).toBe('2024-03-02 00:30:05');
    expect(parseAlipayTime('2024-03-02 00:30:05')).toEqual(d);
    expect(wechatTime(d)).toBe('2024-03-02T00:30:05+08:00');
    expect(parseRfc3339('2024-03-02T00:30:05+08:00')).toEqual(d);
    expect(parseRfc3339('2024-03-02 00:30:05')).toBeNull();
    expect(parseAlipayTime('2024-03-02T00:30:05')).toBeNull();
  });

  it('reads timeout_express', () => {
    expect(parseTimeoutExpress('15m')).toBe(900_000);
    expect(parseTimeoutExpress('2h')).toBe(7_200_000);
    expect(parseTimeoutExpress('1d')).toBe(86_400_000);
    expect(parseTimeoutExpress('15')).toBeNull();
  });
});
