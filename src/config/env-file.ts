import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Reads `.env` in the working directory into process.env, when the file exists (npm scripts run in the checkout's
 * root, so `npm start`, `npm run migrate` and the other commands read the checkout's `.env`). Node's own parser
 * (`process.loadEnvFile`), which never overwrites a variable the environment already has, even an empty one: the
 * environment wins over the file, and the file over the defaults (.env.example). Every process entry point calls
 * this before loadConfig, so all of them see the same settings; tests never do (they pass their environment).
 * Returns the file read, or null.
 */
export function loadEnvFile(path = resolve('.env')): string | null {
  if (!existsSync(path)) return null;
  process.loadEnvFile(path);
  return path;
}
