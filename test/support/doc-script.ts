import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Executable documentation: the ```bash blocks of a page (README.md, docs/sandbox.md), joined in order into the one
 * shell session a reader types, and run by bash with `-euo pipefail` so a step that fails stops the run. The tests
 * that run them start a real server and check afterwards what the steps did.
 */
export const REPO_ROOT = join(__dirname, '../..');

/**
 * The page's bash blocks joined, or those of one section (`section`: its heading line, up to the next heading of
 * the same level); `minimum` guards against a page (or the pattern) losing its steps silently.
 */
export function docScript(page: string, minimum: number, section?: string): string {
  let text = readFileSync(join(REPO_ROOT, page), 'utf8');
  if (section !== undefined) {
    const start = text.indexOf(`\n${section}\n`);
    if (start < 0) throw new Error(`${page}: no section "${section}"`);
    const level = section.slice(0, section.indexOf(' ') + 1);
    const end = text.indexOf(`\n${level}`, start + section.length + 1);
    text = text.slice(start, end < 0 ? undefined : end);
  }
  const blocks = [...text.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  if (blocks.length < minimum)
    throw new Error(`${page}: expected its ${minimum} or more bash steps, found ${blocks.length}`);
  return blocks.join('\n');
}

/** Fails with a sentence naming the page and the tool when a command its steps use is missing. */
export function requireTools(page: string, tools: string[]): void {
  for (const tool of tools) {
    try {
      execFileSync('which', [tool]);
    } catch {
      throw new Error(`${page} needs ${tool} on the PATH to run its steps`);
    }
  }
}

/** Runs the script in the checkout's root (where the pages' relative paths point); stdout and stderr together. */
export function runBash(
  script: string,
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}
