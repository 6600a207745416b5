import { createTestApp, type TestApp } from '../support/app';
import { liveTestEnv } from '../support/live-env';

/**
 * Security headers on the API, the docs page and the error reference: nosniff, no framing (frame-ancestors
 * 'none'), a Content Security Policy on every response (the origin's from helmet; the docs pages set a stricter one)
 * that the docs page works under (only same-origin scripts, no inline script or event handler; inline styles
 * allowed), and HSTS in live mode only (a sandbox on http://localhost must not pin https for its host).
 */
type Csp = Map<string, string[]>;

function parseCsp(header: string | undefined): Csp {
  const csp: Csp = new Map();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) csp.set(name, values);
  }
  return csp;
}

/** The sources a directive allows, falling back to default-src as browsers do. */
const sources = (csp: Csp, directive: string) => csp.get(directive) ?? csp.get('default-src') ?? [];

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  const routes = [
    '/health',
    '/v1/agent/profile',
    '/v1/no/such/route',
    '/docs',
    '/docs/errors.md',
    '/openapi.json',
  ];

  it.each(routes)('%s: nosniff, no framing, a CSP; no HSTS in sandbox mode', async (path) => {
    const res = await t.http.get(path);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = parseCsp(res.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('/docs loads under its CSP: same-origin scripts and styles only, no inline script or handler', async () => {
    const page = await t.http.get('/docs/').expect(200);
    const csp = parseCsp(page.headers['content-security-policy']);
    expect(sources(csp, 'script-src')).toEqual(["'self'"]);
    // Inline handlers fall under script-src-attr, else script-src: neither may allow them.
    expect(csp.get('script-src-attr') ?? sources(csp, 'script-src')).not.toContain("'unsafe-inline'");
    expect(sources(csp, 'object-src')).toEqual(["'none'"]);
    const html = page.text;

    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      const src = /\bsrc=["']([^"']+)["']/.exec(attrs)?.[1];
      expect({ src, inline: body.trim() }).toEqual({ src: expect.any(String), inline: '' });
      const url = new URL(src!, 'http://legwork.test/docs/');
      expect(url.origin).toBe('http://legwork.test');
      const js = await t.http.get(url.pathname).expect(200);
      expect(js.headers['content-type']).toMatch(/javascript/);
    }
    for (const [, href] of html.matchAll(/<link\b[^>]*href=["']([^"']+)["']/gi)) {
      const url = new URL(href, 'http://legwork.test/docs/');
      expect(url.origin).toBe('http://legwork.test');
      await t.http.get(url.pathname).expect(200);
    }
    // Inline event handlers would need script-src-attr; inline <style> and style attributes need 'unsafe-inline'.
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    if (/<style\b|\sstyle=/i.test(html)) expect(sources(csp, 'style-src')).toContain("'unsafe-inline'");
    // The page draws icons as data: images and reads /openapi.json from this origin.
    expect(sources(csp, 'img-src')).toEqual(expect.arrayContaining(["'self'", 'data:']));
    expect(sources(csp, 'connect-src')).toContain("'self'");
    // No source outside this origin anywhere in the policy.
    for (const [directive, values] of csp) {
      for (const v of values)
        expect({ directive, v }).toEqual({ directive, v: expect.not.stringMatching(/^https?:/) });
    }
  });

  it('live mode adds HSTS (a year, subdomains) everywhere and upgrade-insecure-requests to the API', async () => {
    const { DATABASE_URL: _unused, ...env } = liveTestEnv({ JOBS_IN_PROCESS: 'false' });
    const live = await createTestApp(env);
    try {
      for (const path of ['/health', '/v1/agent/profile', '/docs']) {
        const res = await live.http.get(path);
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        const csp = parseCsp(res.headers['content-security-policy']);
        expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
        // The docs pages replace the origin's policy with their stricter own (same-origin only, nothing to upgrade).
        if (path !== '/docs') expect(csp.has('upgrade-insecure-requests')).toBe(true);
      }
    } finally {
      await live.close();
    }
  });
});
