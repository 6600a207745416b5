// Prints what the worker app's first load costs in JavaScript as sent (brotli, and gzip for browsers without it),
// and fails the build above the budget (200 KB gzipped, issue 16). Counted from the build itself: the scripts the
// page names (its entry and every modulepreload, read from dist/web/app/index.html) plus the lazy chunks, with their
// static imports (from .vite/manifest.json), of the first screen a person sees: the sign-in screen when signed out,
// the frame and the nearby list when signed in. The sizes are those of the .br and .gz files beside each chunk
// (web/precompress.ts), the bytes the API sends.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET = 200 * 1024;
const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'web', 'app');
const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8'));
const page = readFileSync(join(dir, 'index.html'), 'utf8');
const pageScripts = [...page.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);

function chunkFiles(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`first-load: ${key} is not in the build manifest`);
  if (seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunkFiles(imported, seen);
  return seen;
}

const sent = (file, suffix) => statSync(join(dir, file + suffix)).size;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

const views = {
  'signed out (sign-in screen)': ['screens/SignIn.tsx'],
  'signed in (nearby tasks)': ['components/Frame.tsx', 'screens/Nearby.tsx'],
};
let worst = 0;
for (const [name, keys] of Object.entries(views)) {
  const files = new Set(pageScripts);
  for (const key of keys) for (const f of chunkFiles(key)) files.add(f);
  const js = [...files].filter((f) => f.endsWith('.js'));
  const br = js.reduce((sum, f) => sum + sent(f, '.br'), 0);
  const gz = js.reduce((sum, f) => sum + sent(f, '.gz'), 0);
  worst = Math.max(worst, gz);
  console.log(
    `worker app first load, ${name}: ${kb(br)} of JavaScript with brotli, ${kb(gz)} gzipped, in ${js.length} files`,
  );
}
if (worst > BUDGET) {
  console.error(
    `first-load: ${kb(worst)} gzipped is over the ${kb(BUDGET)} budget: split a route or drop a dependency`,
  );
  process.exitCode = 1;
}
