import type { Readable } from 'node:stream';

export interface StoredFile {
  stream: Readable;
  size: number;
}

/**
 * Where uploaded bytes live. Keys are `{category}/{YYYY-MM-DD}/{name}.{ext}` built by UploadService from fixed
 * categories and random names, and checked by isStorageKey before any implementation sees them, so a key can
 * never climb out of the store. The local disk store is the default; an S3-compatible store implements the same
 * three operations (PutObject with a conditional create, GetObject, DeleteObject).
 */
export abstract class FileStorage {
  /** Writes a new object; fails if the key exists (keys are random, so that means a bug, not a retry). */
  abstract put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  abstract open(key: string): Promise<StoredFile | null>;
  /** Removes the object; a missing one is not an error. */
  abstract remove(key: string): Promise<void>;
}

export const UPLOAD_CATEGORIES = ['task-proofs', 'task-photos'] as const;
export type UploadCategory = (typeof UPLOAD_CATEGORIES)[number];

export const FILE_NAME = /^[A-Za-z0-9_-]{24}\.(jpg|png|pdf|mp4|mov)$/;
export const DATE_PART = /^\d{4}-\d{2}-\d{2}$/;

export function isStorageKey(key: string): boolean {
  const parts = key.split('/');
  return (
    parts.length === 3 &&
    (UPLOAD_CATEGORIES as readonly string[]).includes(parts[0]) &&
    DATE_PART.test(parts[1]) &&
    FILE_NAME.test(parts[2])
  );
}
