import { describe, expect, it } from 'vitest';
import { direction, distanceMeters, mapLinks, toFix } from './geo';

const here = { latitude: 31.2304, longitude: 121.4737 };

describe('geo', () => {
  it('measures distances and names the compass point from the worker to the task', () => {
    const north = { latitude: here.latitude + 0.001, longitude: here.longitude };
    expect(distanceMeters(here, north)).toBeCloseTo(111.2, 0);
    expect(direction(here, north)).toBe('N');
    expect(direction(here, { latitude: here.latitude, longitude: here.longitude + 0.01 })).toBe('E');
    expect(direction(here, { latitude: here.latitude - 0.01, longitude: here.longitude - 0.01 })).toBe('SW');
  });

  it('links to the phone’s map apps', () => {
    const links = mapLinks(here, 'Shop & café');
    expect(links.geo).toBe('geo:31.2304,121.4737?q=31.2304,121.4737(Shop%20%26%20caf%C3%A9)');
    expect(links.amap).toContain('position=121.4737,31.2304');
    expect(links.amap).toContain('coordinate=wgs84');
  });

  it('turns a browser position into the device_location the API takes', () => {
    const fix = toFix({
      coords: { latitude: 1, longitude: 2, accuracy: 12.345 },
      timestamp: Date.parse('2030-01-01T12:00:00Z'),
    } as GeolocationPosition);
    expect(fix).toEqual({
      latitude: 1,
      longitude: 2,
      accuracy_m: 12.3,
      captured_at: '2030-01-01T12:00:00.000Z',
    });
  });
});
