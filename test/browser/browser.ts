import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { webBuildDir } from '../../src/apps/web-apps.module';

/**
 * The browser suites' harness (product-decisions §14): Debian's chromium (`which chromium`, installed by .ci/run)
 * driven by playwright-core. Every page records its console errors, failed requests and uncaught exceptions (a
 * Content Security Policy refusal is a console error), and `expectNoErrors` fails the test when there are any.
 */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? execFileSync('which', ['chromium']).toString().trim();
  if (!path) throw new Error('chromium is not installed (apt-get install chromium)');
  return path;
}

export function requireWebBuild(): void {
  if (!webBuildDir())
    throw new Error('The web apps are not built: run `npm run build` first (it builds web/ into dist/web).');
}

export async function launchBrowser(): Promise<Browser> {
  // --no-sandbox: CI runs as root, where chromium's own sandbox cannot start.
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors and failed requests seen so far. */
  errors: string[];
}

/** A new context and page whose errors are recorded. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page: ${err.message}`));
  return { page, context, errors };
}

/**
 * Removes the one console error an intended API refusal logs (chromium logs every 4xx answer as "Failed to load
 * resource"), failing when it is not there, so the final no-errors check still catches any other.
 */
export function expectLogged(watched: WatchedPage, status: number): void {
  const i = watched.errors.findIndex((e) => e.includes(`status of ${status}`));
  if (i < 0)
    throw new Error(
      `expected the page to log a ${status} answer; it logged ${JSON.stringify(watched.errors)}`,
    );
  watched.errors.splice(i, 1);
}

/** Desktop size for the console (and its screenshots). */
export const DESKTOP = { viewport: { width: 1366, height: 900 } };

/**
 * Screenshots for docs/screenshots/ are written only when UPDATE_SCREENSHOTS=1, so an ordinary test run never
 * changes committed files.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const dir = join(__dirname, '..', '..', 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}

/**
 * Runs a browser test body; when it fails, each page's screenshot goes to the temp directory and the error names
 * them with the errors the pages logged, so a failure on CI says what the screen showed.
 */
export async function withDiagnostics(pages: WatchedPage[], body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    const notes: string[] = [];
    for (const [i, watched] of pages.entries()) {
      const path = join(tmpdir(), `legwork-browser-failure-${process.pid}-${i}.png`);
      await watched.page.screenshot({ path, fullPage: true }).catch(() => undefined);
      notes.push(
        `page ${i} (${watched.page.url()}): screenshot ${path}; errors: ${JSON.stringify(watched.errors)}`,
      );
    }
    if (err instanceof Error) err.message = `${err.message}\n${notes.join('\n')}`;
    throw err;
  }
}
