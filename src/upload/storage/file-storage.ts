import type { Readable } from 'node:stream';

export interface StoredFile {
  stream: Readable;
  size: number;
}

/** How a file is presented when a client fetches it: the type detected at upload, inline or as a download. */
export interface Presentation {
  contentType: string;
  disposition: string;
}

/**
 * Where uploaded bytes live. Keys are `{category}/{YYYY-MM-DD}/{name}.{ext}` built by UploadService from fixed
 * categories and random names, and checked by isStorageKey before any implementation sees them, so a key can
 * never climb out of the store. The local disk store is the default (one machine); S3Storage keeps the files in
 * an S3-compatible bucket every instance shares.
 *
 * The task module reads stored photos back through `open` (photo verification of photo_urls submissions), so
 * `open` streams the bytes on either driver.
 */
export abstract class FileStorage {
  /**
   * Writes a new object of `size` bytes, streamed from `body` (never collected in memory here). The key is new
   * (144 random bits); the local store also refuses to overwrite one.
   */
  abstract put(key: string, body: Readable | Buffer, size: number, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  abstract open(key: string): Promise<StoredFile | null>;
  /** Removes the object; a missing one is not an error. */
  abstract remove(key: string): Promise<void>;
  /**
   * A short-lived URL from which a client fetches the object directly, presented as given; null when the store
   * has none and this app serves the bytes itself (local disk).
   */
  abstract signedUrl(key: string, presentation: Presentation): Promise<string | null>;
  /** Releases connections at shutdown. */
  async close(): Promise<void> {}
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
