import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import piexif from 'piexifjs';
import sharp from 'sharp';
import type { TestWorker } from './actors';
import { createTestApp, TestApp } from './app';

/** A test app whose uploads go to a directory of its own, removed when the app closes. */
export async function createUploadTestApp(
  env: Record<string, string> = {},
): Promise<TestApp & { uploadDir: string }> {
  const uploadDir = mkdtempSync(join(tmpdir(), 'legwork-uploads-'));
  const t = await createTestApp({ UPLOAD_DIR: uploadDir, ...env });
  const close = t.close;
  t.close = async () => {
    await close();
    rmSync(uploadDir, { recursive: true, force: true });
  };
  return Object.assign(t, { uploadDir });
}

export interface Point {
  latitude: number;
  longitude: number;
}

const METERS_PER_DEGREE = 111_195;

/** A point `north` and `east` metres away from `p` (small distances). */
export function offset(p: Point, north: number, east = 0): Point {
  return {
    latitude: p.latitude + north / METERS_PER_DEGREE,
    longitude: p.longitude + east / (METERS_PER_DEGREE * Math.cos((p.latitude * Math.PI) / 180)),
  };
}

/** A spot of the map no other test uses (so searches and offers only see this test's tasks and workers). */
export function spot(): Point {
  return { latitude: -55 + Math.random() * 110, longitude: -170 + Math.random() * 340 };
}

function rational(x: number): [[number, number], [number, number], [number, number]] {
  const deg = Math.floor(x);
  const minFloat = (x - deg) * 60;
  const min = Math.floor(minFloat);
  return [
    [deg, 1],
    [min, 1],
    [Math.round((minFloat - min) * 60 * 1_000_000), 1_000_000],
  ];
}

export interface PhotoOptions {
  gps?: Point;
  /** EXIF DateTimeOriginal, "YYYY:MM:DD HH:MM:SS". */
  takenAt?: string;
  /** GPS date and time stamp (UTC). */
  gpsTime?: Date;
  width?: number;
}

/** A real JPEG (sharp) with the given EXIF written by piexifjs. */
export async function jpeg(opts: PhotoOptions = {}): Promise<Buffer> {
  const width = opts.width ?? 64;
  const base = await sharp({
    create: { width, height: Math.round(width * 0.75), channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .jpeg()
    .toBuffer();
  const gps: Record<number, unknown> = {};
  if (opts.gps) {
    gps[piexif.GPSIFD.GPSLatitudeRef] = opts.gps.latitude >= 0 ? 'N' : 'S';
    gps[piexif.GPSIFD.GPSLatitude] = rational(Math.abs(opts.gps.latitude));
    gps[piexif.GPSIFD.GPSLongitudeRef] = opts.gps.longitude >= 0 ? 'E' : 'W';
    gps[piexif.GPSIFD.GPSLongitude] = rational(Math.abs(opts.gps.longitude));
  }
  if (opts.gpsTime) {
    const d = opts.gpsTime;
    gps[piexif.GPSIFD.GPSDateStamp] = d.toISOString().slice(0, 10).replace(/-/g, ':');
    gps[piexif.GPSIFD.GPSTimeStamp] = [
      [d.getUTCHours(), 1],
      [d.getUTCMinutes(), 1],
      [d.getUTCSeconds(), 1],
    ];
  }
  const exif: Record<number, unknown> = {};
  if (opts.takenAt) exif[piexif.ExifIFD.DateTimeOriginal] = opts.takenAt;
  if (!opts.gps && !opts.gpsTime && !opts.takenAt) return base;
  const bytes = piexif.dump({ GPS: gps, Exif: exif } as never);
  return Buffer.from(piexif.insert(bytes, base.toString('binary')), 'binary');
}

/** A real PNG; with options, the EXIF of jpeg(opts) carried over into an eXIf chunk. */
export async function png(opts: PhotoOptions = {}): Promise<Buffer> {
  return sharp(await jpeg(opts))
    .withMetadata()
    .png()
    .toBuffer();
}

/** The file padded with zero bytes to `size` (still starts like the original: only its size is wrong). */
export function padded(file: Buffer, size: number): Buffer {
  return Buffer.concat([file, Buffer.alloc(Math.max(0, size - file.length))]);
}

export function uploadProof(t: TestApp, worker: TestWorker, bytes: Buffer, name = 'proof.jpg') {
  return t.http
    .post('/v1/upload/task-proof')
    .set('Authorization', worker.bearer)
    .attach('file', bytes, { filename: name, contentType: 'application/octet-stream' });
}

export function submitWithPhoto(
  t: TestApp,
  worker: TestWorker,
  assignmentId: string,
  photo: Buffer | null,
  opts: { name?: string; contentType?: string; resultData?: string } = {},
) {
  const req = t.http
    .post(`/v1/worker/assignments/${assignmentId}/submit-with-photo`)
    .set('Authorization', worker.bearer)
    .field('result_data', opts.resultData ?? JSON.stringify({ storefront: 'open' }));
  return photo
    ? req.attach('photo', photo, {
        filename: opts.name ?? 'photo.jpg',
        contentType: opts.contentType ?? 'image/jpeg',
      })
    : req;
}
