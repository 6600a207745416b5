import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { webBuildDir } from '../../src/apps/web-apps.module';
import { createTestApp, TestApp } from '../support/app';
import { expectError } from '../support/errors';

/**
 * The API process serves the built web apps (npm run build) at /app and /console: each app's index.html for its
 * client-side routes, hashed bundles cached for a year, the rest revalidated, and the origin's CSP on every page.
 * Missing bundles and the API's own routes are never answered with a page.
 */
describe('web apps served by the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!webBuildDir()) {
      throw new Error(
        'The web apps are not built: run `npm run build` first (it builds web/ into dist/web).',
      );
    }
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it.each(['app', 'console'])(
    'serves /%s and falls back to its index.html for client routes',
    async (name) => {
      for (const path of [`/${name}/`, `/${name}/some/client/route`]) {
        const res = await t.http.get(path).expect(200);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.text).toContain(`/${name}/assets/`);
        expect(res.headers['cache-control']).toBe('no-cache');
        const csp = res.headers['content-security-policy'];
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("connect-src 'self'");
        // The built page has no inline script for the CSP to refuse.
        expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      }
      await t.http.get(`/${name}`).expect(301);
    },
  );

  it('caches hashed bundles for a year and 404s a missing one with the error envelope', async () => {
    const page = await t.http.get('/app/').expect(200);
    const bundle = /src="(\/app\/assets\/[^"]+\.js)"/.exec(page.text)![1];
    const res = await t.http.get(bundle).expect(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectError(await t.http.get('/app/assets/missing-0000.js'), 404, 'not_found');
  });

  it('serves the PWA manifest and the service worker at the app scope, revalidated', async () => {
    const manifest = await t.http.get('/app/manifest.webmanifest').expect(200);
    expect(JSON.parse(manifest.text)).toMatchObject({
      start_url: '/app/',
      scope: '/app/',
      lang: 'zh-CN',
    });
    const sw = await t.http.get('/app/sw.js').expect(200);
    expect(sw.headers['content-type']).toMatch(/javascript/);
    expect(sw.headers['cache-control']).toBe('no-cache');
  });

  it('leaves the API alone', async () => {
    expectError(await t.http.get('/v1/no-such-route'), 404, 'not_found');
    expectError(await t.http.get('/v1/worker/profile'), 401, 'authentication_required');
    expect(existsSync(join(webBuildDir()!, 'app', 'index.html'))).toBe(true);
  });
});
