import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { imageChecker, type ImageChecker } from './image-check';
import { sniffMediaType, type MediaType } from './media-type';

/** Enough of the start of a file to tell its type (an MP4/MOV ftyp box may be up to 4 KiB). */
const HEAD_BYTES = 4096;

/** A received file, staged on disk and inspected on the way: nothing of it is judged or stored yet. */
export interface StagedFile {
  /** The staged copy; removed once the request is over. */
  path: string;
  size: number;
  sha256: string;
  /** The accepted type the first bytes are, or null. */
  type: MediaType | null;
  /** For a JPEG or PNG: what is structurally wrong with it, or null. */
  problem: string | null;
  /** The name the client sent (informational). */
  originalname?: string;
}

/**
 * Streams one file to a new file under `dir`, inspecting it on the way: size, SHA-256, type (from its first
 * bytes) and, for images, the structural walk of image-check.ts. Memory stays at one chunk plus the first 4 KiB
 * whatever the file's size. `onBytes` sees every chunk before it is written and may throw to stop the upload (a
 * quota); the staged file is then removed and the error rethrown.
 */
export async function stageFile(
  source: Readable,
  dir: string,
  onBytes: (n: number) => void,
): Promise<StagedFile> {
  const path = join(dir, `${randomBytes(12).toString('hex')}.part`);
  const inspector = new Inspector(onBytes);
  try {
    await pipeline(source, inspector, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  return { path, ...inspector.result() };
}

class Inspector extends Transform {
  private size = 0;
  private readonly hash = createHash('sha256');
  private head: Buffer[] | null = [];
  private headLength = 0;
  private type: MediaType | null = null;
  private checker: ImageChecker | null = null;

  constructor(private readonly onBytes: (n: number) => void) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      this.onBytes(chunk.length);
    } catch (err) {
      return done(err as Error);
    }
    this.size += chunk.length;
    this.hash.update(chunk);
    if (this.head) {
      this.head.push(chunk);
      this.headLength += chunk.length;
      if (this.headLength >= HEAD_BYTES) this.decide();
    } else {
      this.checker?.write(chunk);
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.head) this.decide();
    done();
  }

  result(): Omit<StagedFile, 'path'> {
    return {
      size: this.size,
      sha256: this.hash.digest('hex'),
      type: this.type,
      problem: this.checker ? this.checker.end() : null,
    };
  }

  /** Types the file from its first bytes, then hands them to the image checker. */
  private decide(): void {
    const head = Buffer.concat(this.head!);
    this.head = null;
    this.type = sniffMediaType(head.subarray(0, HEAD_BYTES));
    this.checker = this.type ? imageChecker(this.type) : null;
    this.checker?.write(head);
  }
}
