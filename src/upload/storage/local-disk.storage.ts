import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStorage, isStorageKey, StoredFile } from './file-storage';

/**
 * Files under UPLOAD_DIR at their key's path. A write goes to a temporary name in the same directory and is renamed
 * into place, so a reader never sees half a file; the final name is claimed with an exclusive create first. The
 * app serves these files itself (no signed URLs), so they are only on the instance that received them: one
 * machine only (docs/scaling.md).
 */
export class LocalDiskStorage extends FileStorage {
  constructor(private readonly root: string) {
    super();
  }

  async put(key: string, body: Readable | Buffer, size: number): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o750 });
    await writeFile(path, Buffer.alloc(0), { flag: 'wx', mode: 0o640 });
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, createWriteStream(tmp, { flags: 'wx', mode: 0o640 }));
      const written = (await stat(tmp)).size;
      if (written !== size) throw new Error(`expected ${size} bytes for ${key}, wrote ${written}`);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      await rm(path, { force: true });
      throw err;
    }
  }

  async open(key: string): Promise<StoredFile | null> {
    const path = this.path(key);
    try {
      const s = await stat(path);
      if (!s.isFile()) return null;
      return { stream: createReadStream(path), size: s.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async signedUrl(): Promise<null> {
    return null;
  }

  private path(key: string): string {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return join(this.root, ...key.split('/'));
  }
}
