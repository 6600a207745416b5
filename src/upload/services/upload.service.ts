import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { LatLng } from '../../common/geo';
import type { UploadResponse } from '../dtos/upload.dto';
import { ACCEPTED_MIME_TYPES, MediaType, PHOTO_MIME_TYPES } from '../media-type';
import { MAX_FILE_BYTES, removeStaged } from '../multipart';
import { perceptualHash, toSigned } from '../perceptual-hash';
import { type ExifFacts, readPhotoMetadata } from '../photo-metadata';
import { stageFile, type StagedFile } from '../staging';
import { FileStorage, isStorageKey, Presentation, UploadCategory } from '../storage/file-storage';
import { UploadQuotaService } from './upload-quota.service';

/** A file that passed every check, not stored yet (its bytes are still in the staging file). */
export interface CheckedFile {
  path: string;
  size: number;
  type: MediaType;
  sha256: string;
  originalName: string | null;
  gps: LatLng | null;
  takenAt: Date | null;
  /** The perceptual hash (product-decisions §18); null for other files and featureless images. */
  phash: bigint | null;
  /** The EXIF facts forensics read; null for other files. */
  exif: ExifFacts | null;
}

export interface StoredFile extends CheckedFile {
  key: string;
  category: UploadCategory;
}

export interface UploadRecord {
  id: string;
  worker_id: string;
  category: UploadCategory;
  storage_key: string;
  original_name: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string;
  latitude: number | null;
  longitude: number | null;
  taken_at: Date | null;
  /** Signed 64-bit, as PostgreSQL returns a bigint: a decimal string. */
  phash: string | null;
  exif: ExifFacts | null;
  created_at: Date;
}

/** A received file as the upload routes hand it over: staged on disk and inspected (src/upload/multipart.ts). */
export type IncomingFile = StagedFile;

/**
 * Uploaded proof files (product-decisions §9): the type is decided by the bytes (JPG, PNG, PDF, MP4, MOV), images must be
 * structurally whole, EXIF is kept as sent (it is the proof) and its GPS position and capture time are recorded.
 * Files arrive streamed and staged on disk, already inspected (multipart.ts), and are checked completely before any
 * is stored; bytes go to FileStorage first and the row is written in a transaction after, so a failed transaction
 * removes the bytes again and a row never points at nothing. Recording checks the worker's daily quota.
 */
@Injectable()
export class UploadService {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: FileStorage,
    private readonly clock: Clock,
    private readonly quota: UploadQuotaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The upload endpoints: all files checked first, then all stored, or none. */
  async upload(actor: WorkerActor, files: IncomingFile[], field: string): Promise<UploadResponse[]> {
    if (files.length === 0) throw ApiError.field(field, 'at least one file is required');
    const checked: CheckedFile[] = [];
    for (const [i, f] of files.entries()) {
      checked.push(await this.check(f, { field: files.length > 1 ? `${field}[${i}]` : field }));
    }
    const now = this.clock.now();
    const stored: StoredFile[] = [];
    try {
      for (const c of checked) stored.push(await this.put('task-proofs', c, now));
      const records = await inTransaction(this.ds, async (em) => {
        const out: UploadRecord[] = [];
        for (const s of stored) out.push(await this.record(em, actor.id, s, now));
        return out;
      });
      return records.map((r) => this.view(r));
    } catch (err) {
      await this.discard(stored);
      throw err;
    }
  }

  /**
   * Checks one file. 415 unsupported_media_type when the bytes are none of the accepted types (or, with
   * `photoOnly`, not a JPEG or PNG); 400 invalid_photo when they start like a JPEG or PNG but are not a whole image.
   */
  async check(f: IncomingFile, opts: { field: string; photoOnly?: boolean }): Promise<CheckedFile> {
    if (f.size === 0) throw ApiError.field(opts.field, 'the file is empty');
    if (f.size > MAX_FILE_BYTES) {
      throw new ApiError('payload_too_large', 'Each file may be at most 10 MB.', {
        max_bytes: MAX_FILE_BYTES,
      });
    }
    const accepted = opts.photoOnly ? PHOTO_MIME_TYPES : ACCEPTED_MIME_TYPES;
    const type = f.type;
    if (!type || !accepted.includes(type.mime)) {
      throw new ApiError(
        'unsupported_media_type',
        opts.photoOnly
          ? 'The photo must be a JPEG or PNG image (judged by its content, not its name).'
          : 'Accepted files are JPG, PNG, PDF, MP4 and MOV (judged by their content, not their names).',
        { field: opts.field, detected_type: type?.mime ?? null, accepted_types: accepted },
      );
    }
    if (f.problem) {
      throw new ApiError('invalid_photo', `The image cannot be read: ${f.problem}.`, { field: opts.field });
    }
    // EXIF is read from the staged file: exifr reads only the blocks it needs, from the start of the file.
    const image = type.mime.startsWith('image/');
    const meta = image ? await readPhotoMetadata(f.path) : { gps: null, takenAt: null, exif: null };
    const phash = image ? await perceptualHash(f.path) : null;
    return {
      path: f.path,
      size: f.size,
      type,
      sha256: f.sha256,
      originalName: cleanName(f.originalname),
      gps: meta.gps,
      takenAt: meta.takenAt,
      phash,
      exif: meta.exif,
    };
  }

  /**
   * Runs `use` with bytes made inside the server (the sandbox's simulated workers' photos) staged like a received
   * file, so they take the same checks and path to storage; the staged copy is removed afterwards.
   */
  async withStaged<T>(bytes: Buffer, name: string, use: (f: IncomingFile) => Promise<T>): Promise<T> {
    await mkdir(this.config.uploads.stagingDir, { recursive: true, mode: 0o700 });
    const staged = await stageFile(Readable.from([bytes]), this.config.uploads.stagingDir, () => undefined);
    try {
      return await use({ ...staged, originalname: name });
    } finally {
      await removeStaged([staged]);
    }
  }

  /** Writes the bytes under a new random key (24 base64url characters: 144 bits, unguessable). */
  async put(category: UploadCategory, c: CheckedFile, now: Date): Promise<StoredFile> {
    const key = `${category}/${now.toISOString().slice(0, 10)}/${randomBytes(18).toString('base64url')}.${c.type.ext}`;
    await this.storage.put(key, createReadStream(c.path), c.size, c.type.mime);
    return { ...c, key, category };
  }

  /** Records a stored file in the caller's transaction, within the worker's daily quota (429 if it does not fit). */
  async record(em: EntityManager, workerId: string, s: StoredFile, now: Date): Promise<UploadRecord> {
    await this.quota.reserve(em, workerId, s.size);
    const [row] = await sqlRows<UploadRecord>(
      em,
      `INSERT INTO uploads (worker_id, category, storage_key, original_name, content_type, size_bytes, sha256,
                            latitude, longitude, taken_at, phash, exif, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
      [
        workerId,
        s.category,
        s.key,
        s.originalName,
        s.type.mime,
        s.size,
        s.sha256,
        s.gps?.latitude ?? null,
        s.gps?.longitude ?? null,
        s.takenAt,
        s.phash === null ? null : toSigned(s.phash).toString(),
        s.exif,
        now,
      ],
    );
    return row;
  }

  /** Best effort: a file left behind by a failed request is harmless (unreferenced, unguessable). */
  async discard(stored: StoredFile[]): Promise<void> {
    for (const s of stored) await this.storage.remove(s.key).catch(() => undefined);
  }

  url(key: string): string {
    return `${this.config.publicBaseUrl}/uploads/${key}`;
  }

  /**
   * The worker's own uploads behind submitted photo URLs (ours, absolute or as a path), in the given order. Any
   * URL that is not one of this worker's uploads is 400 validation_error on photo_urls.
   */
  async ownedByUrls(em: EntityManager, workerId: string, urls: string[]): Promise<UploadRecord[]> {
    const found = await this.lookupOwned(em, workerId, urls);
    const problems = found.flatMap((r, i) =>
      r ? [] : [{ field: `photo_urls[${i}]`, message: 'is not one of your uploads' }],
    );
    if (problems.length > 0) {
      throw ApiError.validation(problems, 'photo_urls must be URLs of files you uploaded.');
    }
    return found as UploadRecord[];
  }

  /** The worker's uploads these URLs name, in order; null where a URL names none of them. */
  async lookupOwned(em: EntityManager, workerId: string, urls: string[]): Promise<(UploadRecord | null)[]> {
    const keys = urls.map((u) => this.keyOf(u));
    const rows = await sqlRows<UploadRecord>(
      em,
      `SELECT * FROM uploads WHERE worker_id = $1 AND storage_key = ANY($2)`,
      [workerId, keys.filter((k): k is string => k !== null)],
    );
    const byKey = new Map(rows.map((r) => [r.storage_key, r]));
    return keys.map((k) => (k ? (byKey.get(k) ?? null) : null));
  }

  /**
   * Where a client gets a stored file: a short-lived signed URL of the object store, or null when this app serves
   * the bytes itself (local disk). The type is the one detected at upload; PDFs are downloads, never pages.
   */
  signedUrl(r: UploadRecord): Promise<string | null> {
    return this.storage.signedUrl(r.storage_key, presentation(r));
  }

  async findByKey(key: string): Promise<UploadRecord | null> {
    const rows = await sqlRows<UploadRecord>(this.ds, `SELECT * FROM uploads WHERE storage_key = $1`, [key]);
    return rows[0] ?? null;
  }

  view(r: UploadRecord): UploadResponse {
    return {
      upload_id: r.id,
      url: this.url(r.storage_key),
      category: r.category,
      content_type: r.content_type,
      size_bytes: Number(r.size_bytes),
      sha256: r.sha256,
      original_name: r.original_name,
      gps:
        r.latitude === null || r.longitude === null ? null : { latitude: r.latitude, longitude: r.longitude },
      taken_at: r.taken_at ? r.taken_at.toISOString() : null,
      created_at: r.created_at.toISOString(),
    };
  }

  /** `{base}/uploads/{key}` or `/uploads/{key}` to the key; anything else is null. */
  private keyOf(url: string): string | null {
    const base = `${this.config.publicBaseUrl}/uploads/`;
    const key = url.startsWith(base)
      ? url.slice(base.length)
      : url.startsWith('/uploads/')
        ? url.slice(9)
        : null;
    return key !== null && isStorageKey(key) ? key : null;
  }
}

export function presentation(r: UploadRecord): Presentation {
  const filename = r.storage_key.split('/')[2];
  return {
    contentType: r.content_type,
    disposition: r.content_type === 'application/pdf' ? `attachment; filename="${filename}"` : 'inline',
  };
}

/** The client's file name, kept for display only: control characters removed, at most 255 characters. */
function cleanName(name: string | undefined): string | null {
  if (!name) return null;
  const clean = [...name]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, 255);
  return clean.length ? clean : null;
}
