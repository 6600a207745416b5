import sharp from 'sharp';
import { EARTH_RADIUS_METERS, type LatLng } from '../common/geo';
import type { ExifKind } from './behaviors';

/**
 * The JPEGs simulated workers submit: a real (tiny) JPEG with an EXIF block written here, so the upload checks and
 * the 100 m rule run on them exactly as on a phone's photo. No image library: the pixels are a fixed 16x16 baseline
 * JPEG, the EXIF a little-endian TIFF structure with IFD0, the Exif IFD (DateTimeOriginal, OffsetTimeOriginal) and
 * the GPS IFD (latitude and longitude as degrees, minutes, seconds).
 */
const PIXELS = Buffer.from(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8a' +
    'Gi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAQABADASIAAhEBAxEB/8QAFQABAQAA' +
    'AAAAAAAAAAAAAAAAAAL/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAX/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oA' +
    'DAMBAAIRAxEAPwCgFIF//9k=',
  'base64',
);

let stock: Promise<Buffer> | null = null;

/**
 * The `reuses_photo` persona's picture: one fixed scene (a checkerboard over a gradient, so its perceptual hash is
 * defined, unlike the flat 16x16 one), the same for every such worker, so each copy after the first on the platform
 * is a near-duplicate of an earlier photo (product-decisions §18). Made once per process with sharp.
 */
export function stockPicture(): Promise<Buffer> {
  stock ??= (() => {
    const width = 96;
    const height = 72;
    const raw = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const square = ((x >> 3) ^ (y >> 4)) & 1 ? 150 : 0;
        const i = 3 * (y * width + x);
        raw[i] = square + Math.round((x / width) * 100);
        raw[i + 1] = square + Math.round((y / height) * 100);
        raw[i + 2] = 60;
      }
    }
    return sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
  })();
  return stock;
}

/** How old a `stale` photo is: taken two days before it is submitted. */
export const STALE_PHOTO_AGE_MS = 2 * 86_400_000;

/** The point `meters` due north of `from` (due south in the northern hemisphere, so it never passes a pole). */
export function pointAtDistance(from: LatLng, meters: number): LatLng {
  const degrees = (meters / EARTH_RADIUS_METERS) * (180 / Math.PI);
  return {
    latitude: from.latitude > 0 ? from.latitude - degrees : from.latitude + degrees,
    longitude: from.longitude,
  };
}

export interface SandboxPhotoOptions {
  /** Where the EXIF GPS says the photo was taken (ignored for `missing`). */
  at: LatLng;
  exif: ExifKind;
  /** The moment of submission; the capture time is this (or two days before, for `stale`). */
  now: Date;
  /** IFD0 Software: an editor's name marks the photo as edited (the `edited_exif` persona). */
  software?: string;
  /** A baseline JPEG to carry the EXIF instead of the fixed 16x16 one (the `reuses_photo` persona's stock picture). */
  pixels?: Buffer;
}

export function sandboxPhoto(opts: SandboxPhotoOptions): Buffer {
  const takenAt = new Date(opts.now.getTime() - (opts.exif === 'stale' ? STALE_PHOTO_AGE_MS : 0));
  const tiff = tiffBlock(opts.exif === 'missing' ? null : opts.at, takenAt, opts.software ?? null);
  const pixels = opts.pixels ?? PIXELS;
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(2 + 6 + tiff.length, 2);
  // SOI, then APP1 "Exif\0\0" + TIFF, then the rest of the JPEG.
  return Buffer.concat([
    pixels.subarray(0, 2),
    header,
    Buffer.from('Exif\0\0', 'latin1'),
    tiff,
    pixels.subarray(2),
  ]);
}

type Entry = { tag: number; type: 1 | 2 | 4 | 5; count: number; data: Buffer };

const ascii = (tag: number, text: string): Entry => {
  const data = Buffer.from(`${text}\0`, 'latin1');
  return { tag, type: 2, count: data.length, data };
};
const long = (tag: number, value: number): Entry => {
  const data = Buffer.alloc(4);
  data.writeUInt32LE(value, 0);
  return { tag, type: 4, count: 1, data };
};
const rationals = (tag: number, pairs: [number, number][]): Entry => {
  const data = Buffer.alloc(8 * pairs.length);
  pairs.forEach(([n, d], i) => {
    data.writeUInt32LE(n, 8 * i);
    data.writeUInt32LE(d, 8 * i + 4);
  });
  return { tag, type: 5, count: pairs.length, data };
};

/** Degrees as [degrees, minutes, seconds] rationals (seconds to a millionth). */
function dms(value: number): [number, number][] {
  const abs = Math.abs(value);
  const deg = Math.floor(abs);
  const minutes = (abs - deg) * 60;
  const min = Math.floor(minutes);
  return [
    [deg, 1],
    [min, 1],
    [Math.round((minutes - min) * 60 * 1_000_000), 1_000_000],
  ];
}

/** One IFD at `offset` in the TIFF: entries (sorted by tag), next-IFD 0, then the values longer than 4 bytes. */
function ifd(entries: Entry[], offset: number): Buffer {
  const head = Buffer.alloc(2 + 12 * entries.length + 4);
  head.writeUInt16LE(entries.length, 0);
  const extra: Buffer[] = [];
  let dataOffset = offset + head.length;
  entries.forEach((e, i) => {
    const at = 2 + 12 * i;
    head.writeUInt16LE(e.tag, at);
    head.writeUInt16LE(e.type, at + 2);
    head.writeUInt32LE(e.count, at + 4);
    if (e.data.length <= 4) {
      e.data.copy(head, at + 8);
    } else {
      head.writeUInt32LE(dataOffset, at + 8);
      const padded = e.data.length % 2 ? Buffer.concat([e.data, Buffer.alloc(1)]) : e.data;
      extra.push(padded);
      dataOffset += padded.length;
    }
  });
  return Buffer.concat([head, ...extra]);
}

function exifTime(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getUTCFullYear()}:${p(at.getUTCMonth() + 1)}:${p(at.getUTCDate())} ${p(at.getUTCHours())}:${p(at.getUTCMinutes())}:${p(at.getUTCSeconds())}`;
}

function tiffBlock(gps: LatLng | null, takenAt: Date, software: string | null): Buffer {
  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);
  // IFD0: Software (0x0131) first when present, as entries go in tag order; its text follows the IFD.
  const tag = software ? ascii(0x0131, software) : null;
  const softwareBytes = tag ? tag.data.length + (tag.data.length % 2) : 0;
  const ifd0Size =
    2 + 12 * ((gps ? 2 : 1) + (tag ? 1 : 0)) + 4 + (tag && tag.data.length > 4 ? softwareBytes : 0);
  const exifOffset = 8 + ifd0Size;
  const exif = ifd([ascii(0x9003, exifTime(takenAt)), ascii(0x9011, '+00:00')], exifOffset);
  const gpsOffset = exifOffset + exif.length;
  const pointers = gps ? [long(0x8769, exifOffset), long(0x8825, gpsOffset)] : [long(0x8769, exifOffset)];
  const ifd0 = ifd(tag ? [tag, ...pointers] : pointers, 8);
  if (!gps) return Buffer.concat([header, ifd0, exif]);
  const version: Entry = { tag: 0x0000, type: 1, count: 4, data: Buffer.from([2, 3, 0, 0]) };
  const gpsIfd = ifd(
    [
      version,
      ascii(0x0001, gps.latitude >= 0 ? 'N' : 'S'),
      rationals(0x0002, dms(gps.latitude)),
      ascii(0x0003, gps.longitude >= 0 ? 'E' : 'W'),
      rationals(0x0004, dms(gps.longitude)),
    ],
    gpsOffset,
  );
  return Buffer.concat([header, ifd0, exif, gpsIfd]);
}
