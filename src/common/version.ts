import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package version, read once (from src/common/ under ts-jest, from dist/src/common/ when compiled). */
function readVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      return (JSON.parse(readFileSync(join(__dirname, rel), 'utf8')) as { version: string }).version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

export const VERSION = readVersion();
