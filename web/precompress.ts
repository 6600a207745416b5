import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Text files, which compress to a third or less. Images and fonts (PNG, WOFF2) are compressed already and are served
 * as they are.
 */
const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|webmanifest|txt|map)$/;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every text file of the build, the
 * public files (service worker, manifest, icon) included, once the build is written. The API serves the one the
 * browser accepts (src/apps/static-files.ts), so no response is compressed per request and the slowest, smallest
 * settings cost nothing at run time: the worker app's first load is sent in about a third of its bytes (issue 27).
 * Nothing in the build is read from dot-folders (Vite's .vite/manifest.json), so those are left alone.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'legwork:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // Asynchronous zlib runs on libuv's thread pool, so the files compress in parallel (brotli at quality 11 is the
    // slow part of the build otherwise).
    async writeBundle() {
      const files = textFiles(outDir);
      const sizes = await Promise.all(files.map(compressBeside));
      const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
      const sum = (i: number) => kb(sizes.reduce((total, s) => total + s[i], 0));
      this.info(
        `${files.length} files of ${relative(process.cwd(), outDir)} precompressed: ${sum(0)}, ` +
          `brotli ${sum(1)}, gzip ${sum(2)}`,
      );
    },
  };
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Writes the file's two compressed copies; answers the three sizes (original, brotli, gzip). */
async function compressBeside(file: string): Promise<[number, number, number]> {
  const bytes = await readFile(file);
  const [br, gz] = await Promise.all([
    brotliAsync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
  return [bytes.length, br.length, gz.length];
}

function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return textFiles(path);
    return COMPRESSIBLE.test(entry.name) ? [path] : [];
  });
}
