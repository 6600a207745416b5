import { isQuietHour, OFFER_SMS_DAILY_CAP, quietHoursEnd, smsSkipReason } from './offer-sms-policy';

describe('offer SMS policy', () => {
  /** A time given as China time (UTC+8). */
  const china = (hhmm: string) => new Date(`2026-03-10T${hhmm}:00+08:00`);

  it.each([
    ['21:59', false],
    ['22:00', true],
    ['23:30', true],
    ['00:00', true],
    ['07:59', true],
    ['08:00', false],
    ['12:00', false],
  ])('at %s China time, quiet is %s', (hhmm, quiet) => {
    expect(isQuietHour(china(hhmm))).toBe(quiet);
  });

  it('decides by the worker first, then the hour, then the cap', () => {
    const day = china('10:00');
    const night = china('23:00');
    expect(smsSkipReason({ enabled: true, at: day, sentInWindow: 0 })).toBeNull();
    expect(smsSkipReason({ enabled: true, at: day, sentInWindow: OFFER_SMS_DAILY_CAP - 1 })).toBeNull();
    expect(smsSkipReason({ enabled: true, at: day, sentInWindow: OFFER_SMS_DAILY_CAP })).toBe('daily_cap');
    expect(smsSkipReason({ enabled: true, at: night, sentInWindow: OFFER_SMS_DAILY_CAP })).toBe(
      'quiet_hours',
    );
    expect(smsSkipReason({ enabled: false, at: night, sentInWindow: OFFER_SMS_DAILY_CAP })).toBe(
      'turned_off',
    );
  });

  it.each([
    ['2026-03-10T22:00:00+08:00', '2026-03-11T08:00:00+08:00'],
    ['2026-03-10T23:30:00+08:00', '2026-03-11T08:00:00+08:00'],
    ['2026-03-11T00:00:00+08:00', '2026-03-11T08:00:00+08:00'],
    ['2026-03-11T07:59:00+08:00', '2026-03-11T08:00:00+08:00'],
  ])('quiet hours that contain %s end at %s', (at, end) => {
    expect(quietHoursEnd(new Date(at))).toEqual(new Date(end));
  });
});
