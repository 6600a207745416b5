// Prints what the worker app's first load costs in JavaScript, gzipped, and fails the build above the budget
// (200 KB, issue 16). Read from the build's own manifest (dist/web/app/.vite/manifest.json): the entry chunk and
// its static imports, plus the lazy route chunks (and their static imports) of the first screen a person sees: the
// sign-in screen when signed out, the frame and the nearby list when signed in.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET = 200 * 1024;
const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'web', 'app');
const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8'));

function chunkFiles(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`first-load: ${key} is not in the build manifest`);
  if (seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunkFiles(imported, seen);
  return seen;
}

const gz = (file) => gzipSync(readFileSync(join(dir, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

const views = {
  'signed out (sign-in screen)': ['index.html', 'screens/SignIn.tsx'],
  'signed in (nearby tasks)': ['index.html', 'components/Frame.tsx', 'screens/Nearby.tsx'],
};
let worst = 0;
for (const [name, keys] of Object.entries(views)) {
  const files = new Set();
  for (const key of keys) for (const f of chunkFiles(key)) files.add(f);
  const js = [...files].filter((f) => f.endsWith('.js'));
  const total = js.reduce((sum, f) => sum + gz(f), 0);
  worst = Math.max(worst, total);
  console.log(`worker app first load, ${name}: ${kb(total)} of JavaScript gzipped in ${js.length} files`);
}
if (worst > BUDGET) {
  console.error(
    `first-load: ${kb(worst)} is over the ${kb(BUDGET)} budget: split a route or drop a dependency`,
  );
  process.exitCode = 1;
}
