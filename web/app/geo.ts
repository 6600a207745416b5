import { ApiError } from '../shared/errors';

/** Position helpers: the device fix, distances and compass directions, and links that open the phone's map app. */
export interface Fix {
  latitude: number;
  longitude: number;
  accuracy_m: number;
  captured_at: string;
}

export function toFix(p: GeolocationPosition): Fix {
  return {
    latitude: p.coords.latitude,
    longitude: p.coords.longitude,
    accuracy_m: Math.max(0, Math.round(p.coords.accuracy * 10) / 10),
    captured_at: new Date(p.timestamp).toISOString(),
  };
}

/** One fresh fix (never a cached one older than 30 s: a submission's device_location must be the moment's). */
export function currentFix(): Promise<Fix> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) {
      reject(new ApiError(0, 'location_unavailable', 'This browser cannot read the position.'));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve(toFix(p)),
      (err) =>
        reject(new ApiError(0, 'location_unavailable', err.message || `geolocation error ${err.code}`)),
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 30_000 },
    );
  });
}

const R = 6_371_000;
const rad = (d: number) => (d * Math.PI) / 180;

export function distanceMeters(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
) {
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

const POINTS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

/** The compass point from a to b (initial bearing), for "600 m away (NE)". */
export function direction(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
) {
  const y = Math.sin(rad(b.longitude - a.longitude)) * Math.cos(rad(b.latitude));
  const x =
    Math.cos(rad(a.latitude)) * Math.sin(rad(b.latitude)) -
    Math.sin(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.cos(rad(b.longitude - a.longitude));
  const bearing = ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
  return POINTS[Math.round(bearing / 45) % 8];
}

/**
 * A `geo:` URI opens the default map app on Android; Amap's URI (WGS-84 coordinates declared, so no datum shift)
 * opens Amap or its web page anywhere, iPhones included. No map tiles are loaded by the app itself.
 */
export function mapLinks(p: { latitude: number; longitude: number }, label: string) {
  const name = encodeURIComponent(label);
  return {
    geo: `geo:${p.latitude},${p.longitude}?q=${p.latitude},${p.longitude}(${name})`,
    amap: `https://uri.amap.com/marker?position=${p.longitude},${p.latitude}&name=${name}&coordinate=wgs84&callnative=1`,
  };
}
