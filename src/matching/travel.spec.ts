import { travelBetween, TrailPoint } from './travel';

const BEIJING = { latitude: 39.9042, longitude: 116.4074 };
const SHANGHAI = { latitude: 31.2304, longitude: 121.4737 };
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 27, 8, 0) + minutes * 60_000);
const point = (p: typeof BEIJING, minutes: number, accuracy_m: number | null = 10): TrailPoint => ({
  ...p,
  accuracy_m,
  at: at(minutes),
});

describe('travelBetween', () => {
  it('Beijing to Shanghai in 10 minutes is impossible (about 1,070 km)', () => {
    const t = travelBetween(point(BEIJING, 0), point(SHANGHAI, 10));
    expect(t.impossible).toBe(true);
    expect(t.minutes).toBe(10);
    expect(t.km).toBeGreaterThan(1000);
    expect(t.km).toBeLessThan(1100);
    expect(t.speedKmh).toBeGreaterThan(6000);
  });

  it('Beijing to Shanghai in 6 hours is possible (a fast train)', () => {
    expect(travelBetween(point(BEIJING, 0), point(SHANGHAI, 360)).impossible).toBe(false);
  });

  it('ignores short hops however quick, and allows for accuracy', () => {
    const near = { latitude: BEIJING.latitude + 0.008, longitude: BEIJING.longitude }; // ~890 m north
    expect(travelBetween(point(BEIJING, 0), point(near, 0)).impossible).toBe(false);
    // 3 km in one minute is 180 km/h... after 2 x 50 m of accuracy; 4 km in one minute is not.
    const three = { latitude: BEIJING.latitude + 0.027, longitude: BEIJING.longitude };
    const four = { latitude: BEIJING.latitude + 0.036, longitude: BEIJING.longitude };
    expect(travelBetween(point(BEIJING, 0, 50), point(three, 1, 50)).impossible).toBe(false);
    expect(travelBetween(point(BEIJING, 0, 50), point(four, 1, 50)).impossible).toBe(true);
    // A position known only to 2 km explains a 3 km jump.
    expect(travelBetween(point(BEIJING, 0, 2000), point(three, 0, 10)).impossible).toBe(false);
  });

  it('a real distance in no time at all is impossible; unknown accuracy counts as 50 m', () => {
    const t = travelBetween(point(BEIJING, 5, null), point(SHANGHAI, 5, null));
    expect(t).toMatchObject({ impossible: true, minutes: 0, speedKmh: null });
  });
});
