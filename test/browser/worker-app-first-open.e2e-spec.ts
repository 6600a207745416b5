import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { webBuildDir } from '../../src/apps/web-apps.module';
import { Tokens } from '../../src/auth/tokens';
import { createWorker } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import {
  collectPageErrors,
  launchChromium,
  phoneContext,
  requireWebBuild,
  withDiagnostics,
  type Browser,
  type BrowserContext,
  type Page,
} from '../support/browser';
import { listen } from '../support/held-upload';
import { spot } from '../support/photos';
import { waitFor } from '../support/waiters';

/**
 * The worker app's first open on a phone (issue 27), in Chromium against the built app: signed out it fetches the
 * page's bundles and the sign-in screen, compressed, and nothing of the signed-in app; a loading line shows until
 * the scripts arrive; signed in, the frame and the screen are fetched while the session is restored; after one
 * visit it opens offline from the service worker's cache; a screen that cannot be fetched says so with a retry.
 */
describe('worker app first open', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const opened: { context: BrowserContext; page: Page; errors: ReturnType<typeof collectPageErrors> }[] = [];

  /** The build's files: the chunk of a module and its static imports (Vite's manifest), the page's own scripts. */
  const appDir = () => join(webBuildDir()!, 'app');
  const manifest = () =>
    JSON.parse(readFileSync(join(appDir(), '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      { file: string; imports?: string[] }
    >;
  const chunkFiles = (key: string): string[] => {
    const chunk = manifest()[key];
    return [chunk.file, ...(chunk.imports ?? []).flatMap(chunkFiles)];
  };
  const pageScripts = () =>
    [...readFileSync(join(appDir(), 'index.html'), 'utf8').matchAll(/"\/app\/(assets\/[^"]+\.js)"/g)].map(
      (m) => m[1],
    );

  beforeAll(async () => {
    requireWebBuild();
    t = await createTestApp();
    base = await listen(t);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A new phone (its own cache, storage and service workers), with the scripts it fetches listed by file. */
  async function phone(opts: { serviceWorkers: 'allow' | 'block' }) {
    const context = await phoneContext(browser, base, spot(), { serviceWorkers: opts.serviceWorkers });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = collectPageErrors(page);
    const scripts: { file: string; encoding: string | undefined }[] = [];
    page.on('response', (res) => {
      const file = /\/app\/(assets\/[^?]+\.js)$/.exec(res.url())?.[1];
      if (file) scripts.push({ file, encoding: res.headers()['content-encoding'] });
    });
    opened.push({ context, page, errors });
    return { context, page, errors, scripts };
  }

  /**
   * Signs the phone in as a sign-in leaves it: a refresh token in the app's storage, put there before the app's
   * first script runs, and only while there is none (the app rotates it on every start).
   */
  async function signIn(page: Page): Promise<void> {
    const worker = await createWorker(t);
    const { refresh_token } = await t.app.get(Tokens).issuePair('worker', worker.id);
    const key = "'legwork.app.refresh'";
    await page.addInitScript(
      `if (!localStorage.getItem(${key})) localStorage.setItem(${key}, ${JSON.stringify(refresh_token)})`,
    );
  }

  it('signed out, fetches the page and the sign-in screen in brotli, and nothing of the signed-in app', async () => {
    const { page, errors, scripts } = await phone({ serviceWorkers: 'block' });
    await withDiagnostics([{ page, errors }], async () => {
      await page.goto('/app/');
      await page.waitForURL(/\/app\/login$/);
      await page.getByRole('tab', { name: '登录' }).waitFor();
      const fetched = new Set(scripts.map((s) => s.file));
      expect(fetched).toEqual(new Set([...pageScripts(), ...chunkFiles('screens/SignIn.tsx')]));
      for (const key of ['components/Frame.tsx', 'screens/Nearby.tsx', 'screens/Profile.tsx']) {
        expect(fetched.has(manifest()[key].file)).toBe(false);
      }
      expect(scripts.map((s) => s.encoding)).toEqual(scripts.map(() => 'br'));
    });
  });

  it('shows a loading line, never a blank page, until the scripts arrive', async () => {
    const { page, errors } = await phone({ serviceWorkers: 'block' });
    await withDiagnostics([{ page, errors }], async () => {
      let release!: () => void;
      const released = new Promise<void>((ok) => (release = ok));
      await page.route('**/app/assets/*.js', async (route) => {
        await released;
        await route.continue();
      });
      await page.goto('/app/', { waitUntil: 'commit' });
      const loading = page.getByRole('status');
      await loading.waitFor();
      expect(await loading.textContent()).toMatch(/加载中…\s+Loading…/);
      expect(page.url()).toBe(`${base}/app/`);
      release();
      await page.getByRole('tab', { name: '登录' }).waitFor();
    });
  });

  it('signed in, fetches the frame and the screen while the session is restored, not after', async () => {
    const { page, errors, scripts } = await phone({ serviceWorkers: 'block' });
    await withDiagnostics([{ page, errors }], async () => {
      await signIn(page);
      let restore!: () => void;
      const restored = new Promise<void>((ok) => (restore = ok));
      await page.route('**/v1/worker/refresh', async (route) => {
        await restored;
        await route.continue();
      });
      await page.goto('/app/tasks');
      // The refresh is held: the screen's chunks arrive before the session exists.
      const wanted = [...chunkFiles('components/Frame.tsx'), ...chunkFiles('screens/Nearby.tsx')];
      await waitFor(
        () => wanted.every((file) => scripts.some((s) => s.file === file)),
        'the frame and the nearby screen fetched beside the held refresh',
      );
      restore();
      await page.getByRole('heading', { name: '附近任务' }).waitFor();
      await page.getByRole('navigation').getByRole('link', { name: '我的', exact: true }).waitFor();
    });
  });

  it('opens offline after one visit, from what the service worker kept at install', async () => {
    const { context, page, errors } = await phone({ serviceWorkers: 'allow' });
    await withDiagnostics([{ page, errors }], async () => {
      await page.goto('/app/');
      await page.getByRole('tab', { name: '登录' }).waitFor();
      // Installed and in control: the page's bundles were fetched before, so only the install kept them.
      await waitFor(
        () => page.evaluate<boolean>('navigator.serviceWorker.controller !== null'),
        'the service worker in control of the page',
      );
      // Only the service worker's cache: the browser's own HTTP cache could serve the bundles too, and may not
      // keep them.
      await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
      await context.setOffline(true);
      // The browser fetches the tab's icon itself, outside the service worker: offline, that one fails.
      errors.expect(
        /\/app\/icon\.svg.*ERR_INTERNET_DISCONNECTED|ERR_INTERNET_DISCONNECTED.*\/app\/icon\.svg/,
      );
      await page.reload();
      await page.getByRole('tab', { name: '登录' }).waitFor();
      await page.getByLabel('手机号').waitFor();
      await context.setOffline(false);
    });
  });

  it('says a screen could not be fetched, with a retry that opens it, instead of a blank page', async () => {
    const { page, errors } = await phone({ serviceWorkers: 'block' });
    await withDiagnostics([{ page, errors }], async () => {
      await signIn(page);
      const frame = manifest()['components/Frame.tsx'].file;
      await page.route(`**/app/${frame}`, (route) => route.abort('internetdisconnected'));
      // The failed request, as the browser reports it and logs it, and React's report of the error it caught.
      errors.expect(new RegExp(frame.replace(/[.-]/g, '\\$&')));
      errors.expect(/Failed to fetch dynamically imported module/);
      await page.goto('/app/tasks');
      const alert = page.getByRole('alert');
      await alert.getByText('无法连接服务器。').waitFor();
      // The code is for support, under "详情" (details).
      expect(await alert.getByText('network_error', { exact: false }).isVisible()).toBe(false);
      await alert.getByRole('button', { name: '详情', expanded: false }).click();
      await alert.getByText('network_error', { exact: false }).waitFor();
      await page.unroute(`**/app/${frame}`);
      await alert.getByRole('button', { name: '重试' }).click();
      await page.getByRole('heading', { name: '附近任务' }).waitFor();
    });
  });

  it('had no page errors, console errors or CSP violations beyond those provoked', () => {
    for (const { errors } of opened) expect(errors.unexpected()).toEqual([]);
  });
});
