/**
 * A place from a pasted map link or plain coordinates, as WGS-84 (what phones' GPS and photos' EXIF use, so what the
 * API's 100 m check compares against). Chinese map services publish shifted coordinates: Amap (Gaode), Tencent and
 * Google's China tiles use GCJ-02, Baidu uses BD-09, hundreds of metres off WGS-84; a link from them is converted
 * back, otherwise a task placed from an Amap link would refuse every honest photo.
 */
export interface Place {
  latitude: number;
  longitude: number;
  /** Which datum the link used, shown so a person can tell what was converted. */
  datum: 'wgs84' | 'gcj02' | 'bd09';
}

const NUM = String.raw`(-?\d{1,3}(?:\.\d+)?)`;

function valid(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
}

/** Parses a link or "lat,lng"; null when no place can be read from it. */
export function parsePlace(input: string): Place | null {
  const text = input.trim();
  if (!text) return null;
  const pair = (re: RegExp, src: string, lngFirst = false): [number, number] | null => {
    const m = re.exec(src);
    if (!m) return null;
    const a = Number(m[1]);
    const b = Number(m[2]);
    const [lat, lng] = lngFirst ? [b, a] : [a, b];
    return valid(lat, lng) ? [lat, lng] : null;
  };
  const plain = pair(new RegExp(`^${NUM}\\s*[,，\\s]\\s*${NUM}$`), text);
  if (plain) return toWgs84(plain, 'wgs84');
  if (/^geo:/i.test(text)) {
    const geo = pair(new RegExp(`^geo:${NUM},${NUM}`, 'i'), text);
    return geo ? toWgs84(geo, 'wgs84') : null;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  const q = url.searchParams;
  const param = (name: string, lngFirst = false) => {
    const value = q.get(name);
    return value ? pair(new RegExp(`^${NUM},\\s*${NUM}`), value, lngFirst) : null;
  };
  if (host.endsWith('amap.com') || host.endsWith('gaode.com')) {
    // uri.amap.com/marker?position=lng,lat ; m.amap.com/...?q=lat,lng
    const found = param('position', true) ?? param('q');
    return found ? toWgs84(found, 'gcj02') : null;
  }
  if (host.endsWith('baidu.com')) {
    // api.map.baidu.com/marker?location=lat,lng&coord_type=... (bd09ll unless stated)
    const found = param('location');
    if (!found) return null;
    const type = (q.get('coord_type') ?? 'bd09ll').toLowerCase();
    return toWgs84(found, type === 'wgs84' ? 'wgs84' : type === 'gcj02' ? 'gcj02' : 'bd09');
  }
  if (host.endsWith('qq.com')) {
    // apis.map.qq.com/uri/v1/marker?marker=coord:lat,lng;title:...
    const marker = q.get('marker');
    const found = marker ? pair(new RegExp(`coord:${NUM},${NUM}`), marker) : null;
    return found ? toWgs84(found, 'gcj02') : null;
  }
  if (host.endsWith('openstreetmap.org')) {
    const mlat = Number(q.get('mlat'));
    const mlon = Number(q.get('mlon'));
    if (q.get('mlat') && valid(mlat, mlon)) return toWgs84([mlat, mlon], 'wgs84');
    const hash = pair(new RegExp(`map=\\d+/${NUM}/${NUM}`), url.hash);
    return hash ? toWgs84(hash, 'wgs84') : null;
  }
  // Google Maps (/@lat,lng,zoom or ?q= / ?query= / ?ll=) and Apple Maps (?ll= / ?q=), both WGS-84 outside China.
  const at = pair(new RegExp(`@${NUM},${NUM}`), url.pathname);
  const found = at ?? param('ll') ?? param('q') ?? param('query') ?? param('daddr') ?? param('sll');
  return found ? toWgs84(found, 'wgs84') : null;
}

function toWgs84([lat, lng]: [number, number], datum: Place['datum']): Place {
  if (datum === 'bd09') [lat, lng] = bd09ToGcj02(lat, lng);
  if (datum !== 'wgs84') [lat, lng] = gcj02ToWgs84(lat, lng);
  return { latitude: round(lat), longitude: round(lng), datum };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

// GCJ-02 is WGS-84 plus a published polynomial offset (Krasovsky ellipsoid), applied inside China only.
const A = 6378245.0;
const EE = 0.006693421622965943;

function outOfChina(lat: number, lng: number): boolean {
  return lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271;
}

function transformLat(x: number, y: number): number {
  let r = -100 + 2 * x + 3 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x));
  r += ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3;
  r += ((20 * Math.sin(y * Math.PI) + 40 * Math.sin((y / 3) * Math.PI)) * 2) / 3;
  r += ((160 * Math.sin((y / 12) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30)) * 2) / 3;
  return r;
}

function transformLng(x: number, y: number): number {
  let r = 300 + x + 2 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x));
  r += ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3;
  r += ((20 * Math.sin(x * Math.PI) + 40 * Math.sin((x / 3) * Math.PI)) * 2) / 3;
  r += ((150 * Math.sin((x / 12) * Math.PI) + 300 * Math.sin((x / 30) * Math.PI)) * 2) / 3;
  return r;
}

export function wgs84ToGcj02(lat: number, lng: number): [number, number] {
  if (outOfChina(lat, lng)) return [lat, lng];
  const radLat = (lat / 180) * Math.PI;
  let magic = Math.sin(radLat);
  magic = 1 - EE * magic * magic;
  const sqrtMagic = Math.sqrt(magic);
  const dLat = (transformLat(lng - 105, lat - 35) * 180) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI);
  const dLng = (transformLng(lng - 105, lat - 35) * 180) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI);
  return [lat + dLat, lng + dLng];
}

/** The inverse has no closed form: iterate the forward offset until it lands on the GCJ-02 point (sub-metre). */
export function gcj02ToWgs84(lat: number, lng: number): [number, number] {
  let [wLat, wLng] = [lat, lng];
  for (let i = 0; i < 10; i++) {
    const [gLat, gLng] = wgs84ToGcj02(wLat, wLng);
    const dLat = gLat - lat;
    const dLng = gLng - lng;
    wLat -= dLat;
    wLng -= dLng;
    if (Math.abs(dLat) < 1e-7 && Math.abs(dLng) < 1e-7) break;
  }
  return [wLat, wLng];
}

function bd09ToGcj02(lat: number, lng: number): [number, number] {
  const xPi = (Math.PI * 3000) / 180;
  const x = lng - 0.0065;
  const y = lat - 0.006;
  const z = Math.sqrt(x * x + y * y) - 0.00002 * Math.sin(y * xPi);
  const theta = Math.atan2(y, x) - 0.000003 * Math.cos(x * xPi);
  return [z * Math.sin(theta), z * Math.cos(theta)];
}
