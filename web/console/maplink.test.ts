import { describe, expect, it } from 'vitest';
import { gcj02ToWgs84, parsePlace, wgs84ToGcj02 } from './maplink';

/** Metres between two points (equirectangular: exact enough at these distances). */
function metres(a: [number, number], b: [number, number]): number {
  const r = 6_371_000;
  const rad = Math.PI / 180;
  const x = (b[1] - a[1]) * rad * Math.cos(((a[0] + b[0]) / 2) * rad);
  const y = (b[0] - a[0]) * rad;
  return Math.hypot(x, y) * r;
}

/**
 * The console's map-link reader (web/console/maplink.ts): which links give which place, and the datum conversion
 * that keeps a place taken from a Chinese map within the 100 m photo check.
 */
describe('parsePlace', () => {
  it.each([
    ['31.2304, 121.4737', 31.2304, 121.4737],
    ['31.2304，121.4737', 31.2304, 121.4737],
    ['geo:-33.8568,151.2153?z=17', -33.8568, 151.2153],
    ['https://www.google.com/maps/@48.8584,2.2945,17z', 48.8584, 2.2945],
    ['https://www.google.com/maps/search/?api=1&query=40.6892,-74.0445', 40.6892, -74.0445],
    ['https://maps.google.com/?q=51.5007,-0.1246', 51.5007, -0.1246],
    ['https://maps.apple.com/?ll=35.6586,139.7454&q=Tower', 35.6586, 139.7454],
    ['https://www.openstreetmap.org/?mlat=52.5163&mlon=13.3777#map=17/52.5163/13.3777', 52.5163, 13.3777],
    ['https://www.openstreetmap.org/#map=17/41.8902/12.4922', 41.8902, 12.4922],
  ])('reads %s as WGS-84 unchanged', (link, lat, lng) => {
    expect(parsePlace(link)).toEqual({ latitude: lat, longitude: lng, datum: 'wgs84' });
  });

  it('reads an Amap link (longitude first) and converts it from GCJ-02', () => {
    const wgs: [number, number] = [31.2304, 121.4737];
    const [gLat, gLng] = wgs84ToGcj02(...wgs);
    const place = parsePlace(`https://uri.amap.com/marker?position=${gLng},${gLat}&name=x`)!;
    expect(place.datum).toBe('gcj02');
    expect(metres([place.latitude, place.longitude], wgs)).toBeLessThan(1);
  });

  it('reads Tencent and Baidu links, converting each datum', () => {
    const [gLat, gLng] = wgs84ToGcj02(39.9087, 116.3975);
    const tencent = parsePlace(`https://apis.map.qq.com/uri/v1/marker?marker=coord:${gLat},${gLng};title:x`)!;
    expect(tencent.datum).toBe('gcj02');
    expect(metres([tencent.latitude, tencent.longitude], [39.9087, 116.3975])).toBeLessThan(1);
    const baidu = parsePlace('https://api.map.baidu.com/marker?location=39.915,116.404&title=x&output=html')!;
    expect(baidu.datum).toBe('bd09');
    // BD-09 sits a further ~1 km north-east of GCJ-02: the WGS-84 point is well away from the raw numbers.
    expect(metres([baidu.latitude, baidu.longitude], [39.915, 116.404])).toBeGreaterThan(500);
    const stated = parsePlace('https://api.map.baidu.com/marker?location=39.915,116.404&coord_type=wgs84')!;
    expect(stated).toEqual({ latitude: 39.915, longitude: 116.404, datum: 'wgs84' });
  });

  it.each([
    '',
    'not a link',
    'https://example.com/?q=hello',
    'geo:200,10',
    '91, 10',
    'https://uri.amap.com/marker',
  ])('finds no place in %j', (text) => {
    expect(parsePlace(text)).toBeNull();
  });
});

describe('GCJ-02', () => {
  // Reference values from the coordtransform library's README (the same published algorithm).
  it('matches the published forward transform and BD-09 step', () => {
    const [lat, lng] = wgs84ToGcj02(39.915, 116.404);
    expect(lat).toBeCloseTo(39.91640428150164, 9);
    expect(lng).toBeCloseTo(116.41024449916938, 9);
    // bd09togcj02(116.404, 39.915) = (116.39762729119315, 39.90865673957631), then to WGS-84.
    const baidu = parsePlace('https://api.map.baidu.com/marker?location=39.915,116.404')!;
    const expected = gcj02ToWgs84(39.90865673957631, 116.39762729119315);
    expect(baidu.latitude).toBeCloseTo(expected[0], 6);
    expect(baidu.longitude).toBeCloseTo(expected[1], 6);
  });

  it('shifts points in China by a few hundred metres and leaves the rest of the world alone', () => {
    const shanghai: [number, number] = [31.2304, 121.4737];
    const shift = metres(wgs84ToGcj02(...shanghai), shanghai);
    expect(shift).toBeGreaterThan(100);
    expect(shift).toBeLessThan(1000);
    expect(wgs84ToGcj02(48.8584, 2.2945)).toEqual([48.8584, 2.2945]);
  });

  it('is inverted to well under a metre across China', () => {
    for (const p of [
      [39.9087, 116.3975],
      [22.5431, 114.0579],
      [43.8256, 87.6168],
      [30.5728, 104.0668],
      [45.8038, 126.534],
    ] as [number, number][]) {
      expect(metres(gcj02ToWgs84(...wgs84ToGcj02(...p)), p)).toBeLessThan(0.5);
    }
  });
});
