import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { webBuildDir } from '../../src/apps/web-apps.module';
import { createTestApp, TestApp } from '../support/app';
import { expectError } from '../support/errors';
import { listen } from '../support/held-upload';

/**
 * The API process serves the built web apps (npm run build) at /app and /console: each app's index.html for its
 * client-side routes, hashed bundles cached for a year, the rest revalidated, and the origin's CSP on every page.
 * Missing bundles and the API's own routes are never answered with a page. Text files go out as the build
 * precompressed them (brotli, gzip) when the client accepts it; the encoded bytes are read raw, not through a client
 * that decompresses them.
 */
describe('web apps served by the API', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    if (!webBuildDir()) {
      throw new Error(
        'The web apps are not built: run `npm run build` first (it builds web/ into dist/web).',
      );
    }
    t = await createTestApp();
    // Listening on a port, so raw requests (rawRequest) reach the same server as supertest.
    base = await listen(t);
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

  describe('precompressed text files', () => {
    /** The worker app's entry bundle as the page names it, and its bytes on disk. */
    async function entryBundle(): Promise<{ url: string; original: Buffer }> {
      const page = await t.http.get('/app/').expect(200);
      const path = /src="(\/app\/assets\/[^"]+\.js)"/.exec(page.text)![1];
      return { url: `${base}${path}`, original: readFileSync(join(webBuildDir()!, path.slice(1))) };
    }

    it.each([
      ['gzip, deflate, br, zstd', 'br'], // Chrome's: brotli although gzip comes first
      ['br', 'br'],
      ['*', 'br'],
      ['gzip', 'gzip'],
      ['gzip, br;q=0.5', 'gzip'],
      ['br;q=0, gzip, deflate', 'gzip'],
      ['identity', 'identity'],
      ['zstd, compress', 'identity'],
      ['', 'identity'],
      [null, 'identity'], // no Accept-Encoding at all
      ['br;q=0, gzip;q=0, identity;q=0, *;q=0', 'identity'], // accepts nothing: still the plain bytes, never a 406
    ])(
      'Accept-Encoding %p gets %s, its own length and ETag, and decodes to the original',
      async (accept, coding) => {
        const { url, original } = await entryBundle();
        const res = await rawRequest(url, accept === null ? {} : { 'accept-encoding': accept });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers['content-type']).toMatch(/^text\/javascript/);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.headers['content-security-policy']).toContain("script-src 'self'");
        expect(Number(res.headers['content-length'])).toBe(res.body.length);
        expect(DECODE[coding](res.body).equals(original)).toBe(true);
        if (coding !== 'identity') expect(res.body.length).toBeLessThan(original.length / 2);
      },
    );

    it('gives each coding its own ETag, revalidated per coding', async () => {
      const { url } = await entryBundle();
      const etags: Record<string, string> = {};
      for (const coding of ['br', 'gzip', 'identity']) {
        etags[coding] = (await rawRequest(url, { 'accept-encoding': coding })).headers.etag!;
        expect(etags[coding]).toMatch(/^"[\w-]+"$/); // strong: byte ranges may rely on it
      }
      expect(new Set(Object.values(etags)).size).toBe(3);
      const fresh = await rawRequest(url, { 'accept-encoding': 'br', 'if-none-match': etags.br });
      expect(fresh.status).toBe(304);
      expect(fresh.body.length).toBe(0);
      // The brotli validator does not match the gzip bytes: the full gzip answer.
      const other = await rawRequest(url, { 'accept-encoding': 'gzip', 'if-none-match': etags.br });
      expect(other.status).toBe(200);
      expect(other.headers['content-encoding']).toBe('gzip');
    });

    it('answers HEAD with the headers of GET and ranges of the encoded bytes', async () => {
      const { url } = await entryBundle();
      const get = await rawRequest(url, { 'accept-encoding': 'br' });
      const head = await rawRequest(url, { 'accept-encoding': 'br' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const name of [
        'content-encoding',
        'content-length',
        'content-type',
        'etag',
        'vary',
        'cache-control',
      ]) {
        expect(head.headers[name]).toBe(get.headers[name]);
      }
      const range = await rawRequest(url, { 'accept-encoding': 'br', range: 'bytes=100-199' });
      expect(range.status).toBe(206);
      expect(range.headers['content-encoding']).toBe('br');
      expect(range.headers['content-range']).toBe(`bytes 100-199/${get.body.length}`);
      expect(range.body.equals(get.body.subarray(100, 200))).toBe(true);
      // If-Range with this coding's validator keeps the range; another coding's answers the whole file.
      const kept = await rawRequest(url, {
        'accept-encoding': 'br',
        range: 'bytes=0-9',
        'if-range': get.headers.etag!,
      });
      expect(kept.status).toBe(206);
      const gz = await rawRequest(url, {
        'accept-encoding': 'gzip',
        range: 'bytes=0-9',
        'if-range': get.headers.etag!,
      });
      expect(gz.status).toBe(200);
      expect(gunzipSync(gz.body).length).toBeGreaterThan(0);
    });

    it('refuses a range outside the file and a condition that does not hold, in the envelope, never a 500', async () => {
      const { url } = await entryBundle();
      const br = await rawRequest(url, { 'accept-encoding': 'br' });
      const outside = await rawRequest(url, { 'accept-encoding': 'br', range: `bytes=${br.body.length}-` });
      expect(outside.status).toBe(416);
      expect(outside.headers['content-range']).toBe(`bytes */${br.body.length}`);
      const refusals = [
        [outside, 'range_not_satisfiable'],
        [
          await rawRequest(url, { 'accept-encoding': 'gzip', 'if-match': '"another"' }),
          'precondition_failed',
        ],
        [
          await rawRequest(url, { 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' }),
          'precondition_failed',
        ],
      ] as const;
      for (const [res, code] of refusals) {
        // The envelope in plain JSON: none of the file's headers (its coding above all) stays on the answer.
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.headers.etag).toBeUndefined();
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(res.body.toString()).error.code).toBe(code);
      }
      expect(refusals[1][0].status).toBe(412);
    });

    it.each(['/app/', '/app/tasks/123', '/console/tasks'])(
      'compresses the page %s, revalidated',
      async (path) => {
        const res = await rawRequest(`${base}${path}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe('br');
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.headers['content-security-policy']).toContain("connect-src 'self'");
        const app = path.split('/')[1];
        expect(
          brotliDecompressSync(res.body).equals(readFileSync(join(webBuildDir()!, app, 'index.html'))),
        ).toBe(true);
      },
    );

    it('sends images as they are, and never a compressed copy under its own name', async () => {
      const png = await rawRequest(`${base}/app/icon-192.png`, { 'accept-encoding': 'br, gzip' });
      expect(png.status).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.headers['content-encoding']).toBeUndefined();
      expect(png.headers.vary ?? '').not.toMatch(/accept-encoding/i);
      const { url } = await entryBundle();
      expectError(await t.http.get(`${new URL(url).pathname}.br`), 404, 'not_found');
    });

    it('has a brotli and a gzip copy of every text file of both builds, each decoding to the original', () => {
      const texts = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.name.startsWith('.')
            ? []
            : e.isDirectory()
              ? texts(join(dir, e.name))
              : /\.(js|css|html|svg|webmanifest)$/.test(e.name)
                ? [join(dir, e.name)]
                : [],
        );
      const files = texts(webBuildDir()!);
      expect(files.length).toBeGreaterThan(10);
      for (const file of files) {
        const original = readFileSync(file);
        expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(original)).toBe(true);
        expect(gunzipSync(readFileSync(`${file}.gz`)).equals(original)).toBe(true);
      }
    });
  });
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent, still encoded. */
  body: Buffer;
}

/** node:http with exactly the headers given: no Accept-Encoding of its own and no decompression (supertest has both). */
function rawRequest(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

const DECODE: Record<string, (b: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  identity: (b) => b,
};
