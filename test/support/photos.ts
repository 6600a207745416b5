import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { type PhotoOptions, type Point, withExif } from '../../scripts/exif-photo';
import type { TestWorker } from './actors';
import { createTestApp, TestApp } from './app';
import { startS3Server, type S3TestServer } from './object-storage';

export type { PhotoOptions, Point };

export type StorageDriver = 'local' | 's3';
/** The upload specs run once per storage driver (describe.each). */
export const STORAGE_DRIVERS: StorageDriver[] = ['local', 's3'];

export interface UploadTestApp extends TestApp {
  driver: StorageDriver;
  /** The local driver's UPLOAD_DIR (unused with s3). */
  uploadDir: string;
  /** Where uploads are staged while they stream in; empty between requests. */
  stagingDir: string;
  /** How many files the store holds (files under UPLOAD_DIR, or objects in the bucket). */
  storedFiles(): Promise<number>;
  /** GET a file URL (or path) as a client does, following the redirect to a signed URL with object storage. */
  fetchFile(url: string): Promise<FetchedFile>;
}

export interface FetchedFile {
  status: number;
  contentType: string | null;
  contentDisposition: string | null;
  body: Buffer;
  /** The signed URL the API redirected to (s3), or null when it served the bytes itself. */
  signedUrl: string | null;
}

export interface UploadTestAppOptions {
  driver?: StorageDriver;
  /** A bucket shared with other instances; by default an s3 app starts (and closes) a server of its own. */
  s3?: S3TestServer;
  /** Another instance of the same deployment: boot on this app's database (see createTestApp). */
  databaseName?: string;
}

/**
 * A test app whose uploads go to a store of its own (a directory, or a bucket on a local S3-compatible server),
 * removed when the app closes.
 */
export async function createUploadTestApp(
  env: Record<string, string> = {},
  opts: UploadTestAppOptions = {},
): Promise<UploadTestApp> {
  const driver = opts.driver ?? 'local';
  const uploadDir = mkdtempSync(join(tmpdir(), 'legwork-uploads-'));
  const stagingDir = mkdtempSync(join(tmpdir(), 'legwork-staging-'));
  const s3 = driver === 's3' ? (opts.s3 ?? (await startS3Server())) : null;
  const t = await createTestApp(
    { UPLOAD_DIR: uploadDir, UPLOAD_TMP_DIR: stagingDir, ...(s3?.env ?? {}), ...env },
    { databaseName: opts.databaseName },
  );
  const close = t.close;
  t.close = async () => {
    await close();
    if (s3 && !opts.s3) await s3.close();
    rmSync(uploadDir, { recursive: true, force: true });
    rmSync(stagingDir, { recursive: true, force: true });
  };
  return Object.assign(t, {
    driver,
    uploadDir,
    stagingDir,
    storedFiles: async () =>
      s3
        ? (await s3.keys()).length
        : readdirSync(uploadDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length,
    fetchFile: (url: string) => fetchFile(t, url),
  });
}

async function fetchFile(t: TestApp, url: string): Promise<FetchedFile> {
  const path = url.startsWith('/') ? url : new URL(url).pathname;
  const res = await t.http
    .get(path)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  if (res.status !== 302) {
    return {
      status: res.status,
      contentType: res.headers['content-type'] ?? null,
      contentDisposition: res.headers['content-disposition'] ?? null,
      body: res.body as Buffer,
      signedUrl: null,
    };
  }
  const signedUrl = res.headers.location;
  const direct = await fetch(signedUrl);
  return {
    status: direct.status,
    contentType: direct.headers.get('content-type'),
    contentDisposition: direct.headers.get('content-disposition'),
    body: Buffer.from(await direct.arrayBuffer()),
    signedUrl,
  };
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

/** A real JPEG (sharp) with the given EXIF written by piexifjs. */
export async function jpeg(opts: PhotoOptions = {}): Promise<Buffer> {
  const width = opts.width ?? 64;
  const base = await sharp({
    create: { width, height: Math.round(width * 0.75), channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .jpeg()
    .toBuffer();
  return withExif(base, opts);
}

/**
 * A photo-like scene: a gradient sky and ground with shapes placed by `seed`, so different seeds are different
 * pictures to a perceptual hash and the same seed is the same picture. EXIF as jpeg(opts).
 */
export async function scene(seed: number, opts: PhotoOptions = {}): Promise<Buffer> {
  let s = seed * 2654435761 + 1;
  const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) % 1000) / 1000;
  const hue = () =>
    `hsl(${Math.round(rnd() * 360)},${40 + Math.round(rnd() * 50)}%,${25 + Math.round(rnd() * 50)}%)`;
  const shapes = Array.from({ length: 12 }, () =>
    rnd() < 0.5
      ? `<circle cx="${rnd() * 640}" cy="${rnd() * 480}" r="${20 + rnd() * 120}" fill="${hue()}"/>`
      : `<rect x="${rnd() * 600}" y="${rnd() * 440}" width="${30 + rnd() * 250}" height="${30 + rnd() * 200}" fill="${hue()}"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><defs><linearGradient id="g" x2="0" y2="1"><stop offset="0" stop-color="${hue()}"/><stop offset="1" stop-color="${hue()}"/></linearGradient></defs><rect width="640" height="480" fill="url(#g)"/>${shapes}</svg>`;
  const width = opts.width ?? 640;
  const base = await sharp(Buffer.from(svg)).resize(width).jpeg({ quality: 90 }).toBuffer();
  return withExif(base, opts);
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
