import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Files under the data directory that several processes starting at once may all want to create (two instances in
 * one checkout share it). Each is written whole to a private temporary file first, so no reader ever sees half of
 * one.
 */

/**
 * Creates `file` with `content` unless it exists (0600): the temporary file is hard-linked into place, which fails
 * when another process got there first, and then that process's file stands. Returns whether this call created it.
 */
export function createOnce(file: string, content: string): boolean {
  const tmp = temporary(file, content);
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    unlinkSync(tmp);
  }
}

/** Replaces `file` with `content` in one step (rename): readers see the old file or the new one. */
export function replaceWhole(file: string, content: string): void {
  renameSync(temporary(file, content), file);
}

function temporary(file: string, content: string): string {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  return tmp;
}
