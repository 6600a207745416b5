// `npm start` builds only when dist/ is not current (`prestart` used to rebuild every time: about 16 s on the
// reference machine). `nest build` is followed by `write`, which records a SHA-256 of every build input in
// dist/.build-stamp; `start` recomputes it and runs `npm run build` when the stamp is missing or differs. A content
// hash rather than mtimes: a checkout or a copy changes mtimes without changing what the build would produce.
//
//   node scripts/build-stamp.mjs write   (after `nest build`)
//   node scripts/build-stamp.mjs start   (prestart: build if stale)
//   node scripts/build-stamp.mjs check   (exit 0 when current, 1 when stale)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'dist', '.build-stamp');
/**
 * What the build reads (tsconfig.build.json's include, its configuration, the installed dependencies), the
 * workspaces the service runs (the /mcp endpoint loads @legwork/mcp and @legwork/sdk from their dist/), and the web
 * apps (web/, which import the SDK's generated types).
 */
const DIRS = ['src', 'migrations', 'scripts', 'packages/sdk/src', 'packages/mcp/src', 'web'];
const FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];

function walk(dir, out) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // A workspace's own node_modules (web/ may have one) is covered by package-lock.json.
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') walk(path, out);
    }
    // Unit specs are excluded from the build (tsconfig.build.json; the web apps' *.test.ts are never bundled), so
    // editing one does not make dist/ stale.
    else if (entry.isFile() && !/\.(spec|test)\.ts$/.test(entry.name)) out.push(path);
  }
}

export function sourceHash() {
  const files = [];
  for (const d of DIRS) walk(join(root, d), files);
  for (const f of FILES) if (existsSync(join(root, f))) files.push(join(root, f));
  const hash = createHash('sha256');
  for (const f of files.map((p) => relative(root, p)).sort()) {
    hash
      .update(f)
      .update('\0')
      .update(readFileSync(join(root, f)))
      .update('\0');
  }
  return hash.digest('hex');
}

function current() {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === sourceHash();
}

const command = process.argv[2];
if (command === 'write') {
  writeFileSync(STAMP, sourceHash() + '\n');
} else if (command === 'check') {
  process.exitCode = current() ? 0 : 1;
} else if (command === 'start') {
  const started = performance.now();
  if (current()) {
    console.log(
      `dist/ is current (checked in ${Math.round(performance.now() - started)} ms): not rebuilding`,
    );
  } else {
    console.log('dist/ is missing or older than the sources: npm run build');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exitCode = r.status ?? 1;
  }
} else {
  console.error('usage: node scripts/build-stamp.mjs write|check|start');
  process.exitCode = 2;
}
