import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import piexif from 'piexifjs';
import sharp from 'sharp';
import { forensicSignals } from '../src/task/domain/photo-forensics';
import {
  hammingDistance,
  nearDuplicate,
  perceptualHash,
  REUSE_MAX_DISTANCE,
} from '../src/upload/perceptual-hash';
import { readPhotoMetadata } from '../src/upload/photo-metadata';
import { withExif } from './exif-photo';

/**
 * `npm run proof:redteam` (outside CI; product-decisions §18, docs/proof-integrity.md): how well the photo checks
 * catch a cheat, and how often they flag an honest photo.
 *
 * Corpus: real photographs from the Debian wallpaper packages installed on the machine (desktop-base,
 * gnome-backgrounds, plasma-workspace-wallpapers, mate-backgrounds: `apt-get install` them first), one per picture
 * (a picture shipped in several sizes or light/dark variants of one name counts once, and any two whose hashes are
 * at most 2 bits apart, the same picture re-rendered, keep only the first; files under 480 px on their short side,
 * boot-splash sprites, logos and previews, are not pictures), plus generated scenes (SVG compositions
 * of gradients, shapes, lines and text, from a seeded generator) up to at least 1,000 distinct images. Each is saved
 * as a phone would: a JPEG at most 800 px wide (the hash reads 32×32 pixels, so the size changes the cost, not the result) with camera EXIF (make, model, capture time, GPS).
 *
 * Alterations of each: resize 50 %, re-encode at quality 60, crop 2-10 % (random sides), brightness +15 % and
 * -15 %, EXIF stripped, EXIF edited (an editor's Software tag, the capture time moved), GPS moved 5 km. A copy is
 * detected as reused when the service's rule (`nearDuplicate`: the banded index finds it and the hashes are within
 * REUSE_MAX_DISTANCE) matches it to its original among all the originals; an EXIF edit is detected when the EXIF
 * forensics flag exif_edited on the copy's bytes. The false-flag rate: distinct images submitted one after another,
 * each flagged when it matches any earlier one, with a Wilson 95 % interval. Also printed: the distance percentiles
 * per alteration and the rates dHash (difference hash) would give, which docs/decisions.md compares.
 *
 *   npm run proof:redteam -- [--generated N] [--threshold T]
 */

const WALLPAPER_DIRS = ['/usr/share/backgrounds', '/usr/share/wallpapers', '/usr/share/desktop-base'];
const RASTER = new Set(['.jpg', '.jpeg', '.png', '.webp']);
/** The shortest side of a picture in the corpus, pixels: below it, a file is a sprite, an icon or a preview. */
const MIN_PICTURE_SIDE = 480;
const CAMERA = { make: 'Xiaomi', model: '2211133C' };

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

function walk(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    const st = statSync(p);
    if (st.isDirectory()) out = out.concat(walk(p));
    else if (RASTER.has(extname(n).toLowerCase())) out.push(p);
  }
  return out;
}

/**
 * One file per picture name: plasma keeps sizes of one picture in <Name>/contents/images/<W>x<H>.<ext>, GNOME
 * and MATE name sizes and variants with suffixes; the largest file of a name is kept.
 */
function pictureKey(path: string): string {
  if (path.includes('/contents/images')) return dirname(dirname(dirname(path)));
  return join(
    dirname(path),
    basename(path, extname(path))
      .replace(/[-_](l|d|day|night|light|dark)$/i, '')
      .replace(/[-_]?\d+x\d+$/, ''),
  );
}

async function wallpapers(): Promise<{ name: string; bytes: Buffer }[]> {
  const byKey = new Map<string, string>();
  for (const p of WALLPAPER_DIRS.flatMap(walk)) {
    const k = pictureKey(p);
    const prev = byKey.get(k);
    if (!prev || statSync(p).size > statSync(prev).size) byKey.set(k, p);
  }
  const out: { name: string; bytes: Buffer }[] = [];
  for (const p of [...byKey.values()].sort()) {
    try {
      // Boot-splash sprites, logos and a wallpaper's preview (plasma's contents/screenshot.png) ship beside the
      // wallpapers; they are not pictures of anything, and a preview is its wallpaper again.
      const { width = 0, height = 0 } = await sharp(p).metadata();
      if (Math.min(width, height) < MIN_PICTURE_SIDE) continue;
      out.push({
        name: p,
        bytes: await sharp(p)
          .rotate()
          .resize({ width: 800, withoutEnlargement: true })
          .jpeg({ quality: 90 })
          .toBuffer(),
      });
    } catch {
      // an unreadable file is not part of the corpus
    }
  }
  return out;
}

/** A seeded scene: sky and ground gradients, shapes, lines, a few words; no two seeds alike. */
async function generated(seed: number): Promise<Buffer> {
  let s = (seed * 2654435761) >>> 0 || 1;
  const rnd = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  const w = 640;
  const h = 480;
  const col = () =>
    `hsl(${Math.round(rnd() * 360)},${Math.round(20 + rnd() * 70)}%,${Math.round(15 + rnd() * 70)}%)`;
  const parts: string[] = [];
  const horizon = Math.round(h * (0.3 + rnd() * 0.4));
  parts.push(`<rect width="${w}" height="${horizon}" fill="url(#sky)"/>`);
  parts.push(`<rect y="${horizon}" width="${w}" height="${h - horizon}" fill="url(#ground)"/>`);
  const n = 6 + Math.floor(rnd() * 30);
  for (let i = 0; i < n; i++) {
    const k = rnd();
    const o = (0.4 + rnd() * 0.6).toFixed(2);
    if (k < 0.3) {
      parts.push(
        `<rect x="${rnd() * w}" y="${rnd() * h}" width="${20 + rnd() * 300}" height="${20 + rnd() * 300}" fill="${col()}" opacity="${o}" transform="rotate(${Math.round(rnd() * 40 - 20)} ${w / 2} ${h / 2})"/>`,
      );
    } else if (k < 0.55) {
      parts.push(
        `<ellipse cx="${rnd() * w}" cy="${rnd() * h}" rx="${10 + rnd() * 200}" ry="${10 + rnd() * 150}" fill="${col()}" opacity="${o}"/>`,
      );
    } else if (k < 0.75) {
      const pts = Array.from(
        { length: 3 + Math.floor(rnd() * 4) },
        () => `${Math.round(rnd() * w)},${Math.round(rnd() * h)}`,
      ).join(' ');
      parts.push(`<polygon points="${pts}" fill="${col()}" opacity="${o}"/>`);
    } else if (k < 0.9) {
      parts.push(
        `<line x1="${rnd() * w}" y1="${rnd() * h}" x2="${rnd() * w}" y2="${rnd() * h}" stroke="${col()}" stroke-width="${2 + rnd() * 30}"/>`,
      );
    } else {
      parts.push(
        `<text x="${rnd() * w * 0.7}" y="${40 + rnd() * (h - 40)}" font-size="${20 + rnd() * 90}" font-family="sans-serif" fill="${col()}">SHOP ${seed}</text>`,
      );
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs>
    <linearGradient id="sky" x2="0" y2="1"><stop offset="0" stop-color="${col()}"/><stop offset="1" stop-color="${col()}"/></linearGradient>
    <linearGradient id="ground" x2="${rnd().toFixed(2)}" y2="1"><stop offset="0" stop-color="${col()}"/><stop offset="1" stop-color="${col()}"/></linearGradient>
    </defs>${parts.join('')}</svg>`;
  // A little sensor noise, as a camera has.
  const noise = await sharp({
    create: {
      width: w,
      height: h,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .png()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: noise, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

const GPS = { latitude: 31.2304, longitude: 121.4737 };

/** The original as a phone would save it: camera EXIF, capture time with its zone, GPS and its time stamp. */
function asPhoto(jpeg: Buffer, i: number): Buffer {
  const at = new Date(Date.UTC(2030, 0, 1, 2, 0, 0) + i * 60_000);
  const local = new Date(at.getTime() + 8 * 3600_000)
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ')
    .replace(/-/g, ':');
  return withExif(jpeg, {
    camera: CAMERA,
    takenAt: local,
    offset: '+08:00',
    gpsTime: at,
    gps: { latitude: GPS.latitude + i * 1e-4, longitude: GPS.longitude },
  });
}

type Alteration = {
  name: string;
  make: (orig: Buffer, i: number, rnd: () => number) => Promise<Buffer>;
  exif?: boolean;
};

const ALTERATIONS: Alteration[] = [
  {
    name: 'resize 50 %',
    make: async (o) =>
      sharp(o)
        .resize(Math.round((await sharp(o).metadata()).width / 2))
        .jpeg({ quality: 85 })
        .toBuffer(),
  },
  { name: 're-encode q60', make: (o) => sharp(o).jpeg({ quality: 60 }).toBuffer() },
  {
    name: 'crop 2-10 %',
    make: async (o, _i, rnd) => {
      const { width = 0, height = 0 } = await sharp(o).metadata();
      const f = 0.02 + rnd() * 0.08;
      const cw = Math.round(width * f);
      const ch = Math.round(height * f);
      const left = Math.round(cw * rnd());
      const top = Math.round(ch * rnd());
      return sharp(o)
        .extract({ left, top, width: width - cw, height: height - ch })
        .jpeg({ quality: 90 })
        .toBuffer();
    },
  },
  {
    name: 'brightness +15 %',
    make: (o) => sharp(o).modulate({ brightness: 1.15 }).jpeg({ quality: 90 }).toBuffer(),
  },
  {
    name: 'brightness -15 %',
    make: (o) => sharp(o).modulate({ brightness: 0.85 }).jpeg({ quality: 90 }).toBuffer(),
  },
  { name: 'EXIF stripped', make: async (o) => Buffer.from(piexif.remove(o.toString('binary')), 'binary') },
  {
    name: 'EXIF edited',
    exif: true,
    make: async (o, i, rnd) => {
      const bare = Buffer.from(piexif.remove(o.toString('binary')), 'binary');
      const at = new Date(Date.UTC(2030, 0, 1, 2, 0, 0) + i * 60_000);
      // The capture time moved by 11 minutes to two days, either way.
      const shift = (11 + Math.floor(rnd() * 2870)) * 60_000 * (rnd() < 0.5 ? -1 : 1);
      const moved = new Date(at.getTime() + 8 * 3600_000 + shift);
      const local = moved.toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, ':');
      // Half say so in Software; the other half only moved the capture time (the GPS stamp stays the camera's).
      const software =
        i % 2 === 0
          ? [
              'Adobe Photoshop 25.0 (Windows)',
              'Snapseed 2.0',
              'GIMP 2.10.34',
              'Meitu',
              '美图秀秀',
              'PicsArt',
            ][i % 6]
          : undefined;
      return withExif(bare, {
        camera: CAMERA,
        takenAt: local,
        offset: '+08:00',
        gpsTime: at,
        gps: GPS,
        software,
      });
    },
  },
  {
    name: 'GPS moved 5 km',
    make: async (o, i) => {
      const bare = Buffer.from(piexif.remove(o.toString('binary')), 'binary');
      const at = new Date(Date.UTC(2030, 0, 1, 2, 0, 0) + i * 60_000);
      const local = new Date(at.getTime() + 8 * 3600_000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ')
        .replace(/-/g, ':');
      return withExif(bare, {
        camera: CAMERA,
        takenAt: local,
        offset: '+08:00',
        gpsTime: at,
        gps: { latitude: GPS.latitude + 0.045, longitude: GPS.longitude },
      });
    },
  },
];

/** Difference hash (dHash), 64 bits: 9×8 grey pixels, one bit per horizontal neighbour pair. For comparison only. */
async function dHash(file: Buffer): Promise<bigint> {
  const px = await sharp(file).rotate().greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer();
  let h = 0n;
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) h = (h << 1n) | (px[y * 9 + x] < px[y * 9 + x + 1] ? 1n : 0n);
  return h;
}

/** Wilson score interval, 95 %. */
function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959964;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = p + (z * z) / (2 * n);
  const r = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [(c - r) / d, (c + r) / d];
}

const pct = (x: number) => `${(100 * x).toFixed(2)} %`;
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

async function main(): Promise<void> {
  const threshold = arg('threshold', REUSE_MAX_DISTANCE);
  const started = performance.now();
  const real = await wallpapers();
  const originals: { name: string; bytes: Buffer; p: bigint; d: bigint }[] = [];
  const hashMs: number[] = [];
  const addDistinct = async (name: string, jpeg: Buffer) => {
    const bytes = asPhoto(jpeg, originals.length);
    const t0 = performance.now();
    const p = await perceptualHash(bytes);
    hashMs.push(performance.now() - t0);
    if (p === null) return;
    // The same picture re-rendered (another size or format of one wallpaper) is not a distinct image.
    if (originals.some((o) => hammingDistance(o.p, p) <= 2)) return;
    originals.push({ name, bytes, p, d: await dHash(bytes) });
  };
  for (const r of real) await addDistinct(r.name, r.bytes);
  console.error(`wallpapers: ${originals.length} distinct of ${real.length} pictures`);
  const realCount = originals.length;
  const wanted = Math.max(arg('generated', 1000), 1000 - realCount);
  for (let seed = 1; originals.length < realCount + wanted; seed++) {
    await addDistinct(`scene ${seed}`, await generated(seed));
    if (seed % 200 === 0) console.error(`generated ${seed}`);
  }
  console.log(
    `corpus: ${originals.length} distinct images (${realCount} Debian wallpapers from ${real.length} pictures, ${originals.length - realCount} generated scenes)`,
  );
  console.log(
    `threshold: ${threshold} bits of 64 (banded index: 4 × 16-bit bands, each probed within 1 bit)\n`,
  );

  // False flags: each distinct image against every earlier one, as the platform would see them arrive.
  let flagged = 0;
  let flaggedD = 0;
  const nearest: number[] = [];
  const flaggedPairs: string[] = [];
  for (let i = 0; i < originals.length; i++) {
    let min = 64;
    let closest = -1;
    let hit = false;
    let hitD = false;
    for (let j = 0; j < i; j++) {
      const dist = hammingDistance(originals[i].p, originals[j].p);
      if (dist < min) [min, closest] = [dist, j];
      if (nearDuplicate(originals[i].p, originals[j].p, threshold)) hit = true;
      if (hammingDistance(originals[i].d, originals[j].d) <= threshold) hitD = true;
    }
    if (i > 0) nearest.push(min);
    if (hit) {
      flagged++;
      flaggedPairs.push(`${originals[i].name} ~ ${originals[closest].name}: ${min} bits`);
    }
    if (hitD) flaggedD++;
  }

  const rnd = (() => {
    let s = 12345;
    return () => ((s = (s * 1103515245 + 12345) >>> 0) % 100000) / 100000;
  })();
  const rows: string[] = [];
  rows.push(
    '| alteration | reuse detected (pHash) | 95 % CI | distance p50 / p95 / max | dHash detected | exif_edited |',
  );
  rows.push('|---|---|---|---|---|---|');
  const distancesByAlteration = new Map<string, number[]>();
  for (const alt of ALTERATIONS) {
    let found = 0;
    let foundD = 0;
    let edited = 0;
    const dists: number[] = [];
    for (const [i, o] of originals.entries()) {
      const copy = await alt.make(o.bytes, i, rnd);
      // A copy with no hash (it became featureless, e.g. a pale picture brightened to white) is not found.
      const p = await perceptualHash(copy);
      const d = await dHash(copy);
      dists.push(p === null ? 64 : hammingDistance(p, o.p));
      // Matched to its own original, as the index would return it among all originals.
      if (p !== null && nearDuplicate(p, o.p, threshold)) found++;
      if (hammingDistance(d, o.d) <= threshold) foundD++;
      if (alt.exif) {
        const meta = await readPhotoMetadata(copy);
        if (forensicSignals(meta.exif, meta.gps, null).some((s) => s.code === 'exif_edited')) edited++;
      }
    }
    const n = originals.length;
    distancesByAlteration.set(alt.name, dists);
    console.error(`${alt.name}: ${found}/${n}`);
    const [lo, hi] = wilson(found, n);
    rows.push(
      `| ${alt.name} | ${pct(found / n)} (${found}/${n}) | ${pct(lo)} – ${pct(hi)} | ${quantile(dists, 0.5)} / ${quantile(dists, 0.95)} / ${Math.max(...dists)} | ${pct(foundD / n)} | ${alt.exif ? `${pct(edited / n)} (${edited}/${n})` : '–'} |`,
    );
  }
  const n = originals.length;
  const [lo, hi] = wilson(flagged, n);
  console.log(rows.join('\n'));
  console.log(
    `\nfalse flags among distinct images (pHash): ${flagged}/${n} = ${pct(flagged / n)}, 95 % CI (Wilson) ${pct(lo)} – ${pct(hi)}`,
  );
  for (const pair of flaggedPairs) console.log(`  flagged: ${pair}`);
  console.log(
    `false flags among distinct images (dHash, same threshold): ${flaggedD}/${n} = ${pct(flaggedD / n)}`,
  );
  // The trade-off behind the threshold, from the same distances: up to 7 bits the banded index finds every hash
  // within the threshold, so being flagged is being within it.
  const within = (xs: number[], t: number) => xs.filter((x) => x <= t).length;
  const altNames = [...distancesByAlteration.keys()].filter(
    (a) => !a.startsWith('EXIF') && !a.startsWith('GPS'),
  );
  console.log(`\n| threshold | ${altNames.join(' | ')} | false flags |`);
  console.log(`|---|${altNames.map(() => '---|').join('')}---|`);
  for (let t = 3; t <= 7; t++) {
    const cells = altNames.map((a) => pct(within(distancesByAlteration.get(a)!, t) / n));
    console.log(
      `| ${t} | ${cells.join(' | ')} | ${pct(within(nearest, t) / n)} (${within(nearest, t)}/${n}) |`,
    );
  }
  console.log(
    `nearest earlier distinct image, bits apart: min ${Math.min(...nearest)}, p1 ${quantile(nearest, 0.01)}, p5 ${quantile(nearest, 0.05)}, p50 ${quantile(nearest, 0.5)}`,
  );
  console.log(
    `pHash of a photo (decode + hash, ≤ 800 px JPEG): p50 ${quantile(hashMs, 0.5).toFixed(1)} ms, p99 ${quantile(hashMs, 0.99).toFixed(1)} ms`,
  );
  console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
