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
import { Tokens } from '../../src/auth/tokens';
import type { TestApp } from './app';
import type { Point } from './photos';

/**
 * The browser suites (product-decisions §14): Debian's `chromium` (where `which chromium` points; .ci/run installs
 * it with apt-get) driven by playwright-core, against the real app listening on a port and serving the built apps.
 * Both prerequisites fail the suite at once with what to do, rather than skipping it.
 */
export function chromiumPath(): string {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'chromium is not installed: `apt-get install -y chromium` (.ci/run does this when it is missing)',
    );
  }
}

export function requireWebBuild(): void {
  if (!webBuildDir()) {
    throw new Error(
      'The web apps are not built (dist/web is missing): run `npm run build` before the browser suite.',
    );
  }
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    // Root in CI containers: Chromium's sandbox needs user namespaces the container may not grant.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** A phone: 390×844 (an iPhone 12-15's CSS size), touch, a mobile user agent, location granted at `where`. */
export async function phoneContext(
  browser: Browser,
  base: string,
  where: Point,
  over: BrowserContextOptions = {},
) {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36',
    geolocation: { latitude: where.latitude, longitude: where.longitude, accuracy: 8 },
    permissions: ['geolocation'],
    ...over,
  });
  return context;
}

/**
 * Everything a page reports as an error: console.error calls, uncaught exceptions, CSP violations (Chromium logs
 * them as console errors) and failed loads. `expected` lists the console lines a test provokes on purpose (an HTTP
 * error answer the app shows in words is also logged by Chromium as "Failed to load resource").
 */
export function collectPageErrors(page: Page): {
  errors: string[];
  expect(line: RegExp): void;
  unexpected(): string[];
} {
  const errors: string[] = [];
  const expected: RegExp[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => {
    // A page navigating away aborts its own pending requests (socket.io polling, a prefetch): not a failure.
    if (req.failure()?.errorText !== 'net::ERR_ABORTED')
      errors.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`);
  });
  return {
    errors,
    expect: (line) => expected.push(line),
    unexpected: () => errors.filter((e) => !expected.some((re) => re.test(e))),
  };
}

/** Screenshots for docs/screenshots/ (shown in the README), written only when UPDATE_SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const dir = join(__dirname, '..', '..', 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

export type { Browser, BrowserContext, Page };

/**
 * Takes a photo in the worker app as a person does: taps the camera button ("拍照", or "重新拍照" once there is
 * one) and answers the file chooser it opens (the camera, on a phone) with the file. Returns the file input the
 * chooser belongs to, for a test that checks what it asks the phone for.
 */
export async function takePhoto(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: /^(拍照|重新拍照)$/ }).click(),
  ]);
  await chooser.setFiles(file);
  return { multiple: chooser.isMultiple(), input: chooser.element() };
}

/** A desktop browser window (the agent console's size, and its screenshots'). */
export async function desktopContext(browser: Browser, base: string, over: BrowserContextOptions = {}) {
  return browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 }, ...over });
}

/** A page a browser test opened, with what it reported as errors. */
export interface OpenedPage {
  page: Page;
  errors: ReturnType<typeof collectPageErrors>;
}

/**
 * A new page of `context` that gives up waiting after 15 s and collects its errors. It joins `pages`, the list
 * withDiagnostics shows when the test fails.
 */
export async function openPage(pages: OpenedPage[], context: BrowserContext): Promise<OpenedPage> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const opened = { page, errors: collectPageErrors(page) };
  pages.push(opened);
  return opened;
}

/** Where each app keeps its refresh token. */
const REFRESH_KEYS = { worker: 'legwork.app.refresh', agent: 'legwork.console.refresh' } as const;

/**
 * `openPage`, signed in as a worker (in the app) or an agent (in the console) without the sign-in screens, which have
 * their own tests: the refresh token is stored as a sign-in leaves it, once per tab, so a test that signs out stays
 * signed out.
 */
export async function openSignedIn(
  pages: OpenedPage[],
  t: TestApp,
  context: BrowserContext,
  who: keyof typeof REFRESH_KEYS,
  id: string,
): Promise<OpenedPage> {
  const pair = await t.app.get(Tokens).issuePair(who, id);
  const key = JSON.stringify(REFRESH_KEYS[who]);
  await context.addInitScript({
    content: `if (!localStorage.getItem(${key}) && !sessionStorage.getItem('seeded')) {
      localStorage.setItem(${key}, ${JSON.stringify(pair.refresh_token)});
      sessionStorage.setItem('seeded', '1');
    }`,
  });
  return openPage(pages, context);
}

/**
 * Runs a browser test's body; when it fails, each page's screenshot is written to the temp directory and the error
 * names them with what each page logged, so a failure on CI says what the screen showed.
 */
export async function withDiagnostics(pages: OpenedPage[], body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    const notes: string[] = [];
    for (const [i, { page, errors }] of pages.entries()) {
      const path = join(tmpdir(), `legwork-browser-failure-${process.pid}-${i}.png`);
      await page.screenshot({ path, fullPage: true }).catch(() => undefined);
      notes.push(`page ${i} (${page.url()}): screenshot ${path}; errors: ${JSON.stringify(errors.errors)}`);
    }
    if (err instanceof Error) err.message = `${err.message}\n${notes.join('\n')}`;
    throw err;
  }
}
