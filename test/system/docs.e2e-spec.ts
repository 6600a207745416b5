import { createTestApp, TestApp } from '../support/app';
import { liveTestEnv } from '../support/live-env';

type Op = {
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { $ref?: string; name?: string; in?: string }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
};

/** The API reference at /docs (Redoc from node_modules, guides, sandbox banner) and the shape of the document. */
describe('the API reference', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('/docs is a Redoc page whose every script comes from this origin, under a strict CSP', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await t.http.get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toMatch(/https?:/);
      const scripts = [...res.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
      expect(scripts).toEqual(['/docs/assets/redoc.standalone.js', '/docs/assets/docs.js']);
      // No inline script (the CSP would block it anyway), and nothing fetched from another origin.
      expect(res.text).not.toMatch(/<script>(?!<\/script>)/);
      expect(res.text).not.toMatch(/(src|href)="https?:/);
      expect(res.text).toContain('data-spec="/openapi.json"');
    }
    const bundle = await t.http.get('/docs/assets/redoc.standalone.js').expect(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(bundle.text.length).toBeGreaterThan(500_000);
    expect(bundle.text).toContain('Redoc');
    const init = await t.http.get('/docs/assets/docs.js').expect(200);
    expect(init.text).toContain('Redoc.init(');
  });

  it('keeps no credential in the browser: no console to type one into, no storage, no Swagger UI', async () => {
    const page = (await t.http.get('/docs').expect(200)).text;
    const init = (await t.http.get('/docs/assets/docs.js').expect(200)).text;
    const bundle = (await t.http.get('/docs/assets/redoc.standalone.js').expect(200)).text;
    for (const text of [page, init, bundle]) {
      expect(text).not.toMatch(/localStorage|sessionStorage|persistAuthorization|document\.cookie/);
    }
    expect(page).not.toMatch(/swagger/i);
  });

  it('links the guides, which are served rendered; unknown names are 404', async () => {
    const page = (await t.http.get('/docs').expect(200)).text;
    const guides = [...page.matchAll(/href="(\/docs\/[a-z-]+\.md)"/g)].map((m) => m[1]);
    expect(guides).toEqual(
      expect.arrayContaining([
        '/docs/integration.md',
        '/docs/webhooks.md',
        '/docs/errors.md',
        '/docs/api-surfaces.md',
      ]),
    );
    for (const guide of guides) {
      const res = await t.http.get(guide).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    }
    const integration = await t.http.get('/docs/integration.md').expect(200);
    expect(integration.text).toContain('<h1>Integrating as an agent</h1>');
    expect(integration.text).toContain('<table>');
    // errors.md stays the page generated from the error catalogue, with one anchor per code.
    expect((await t.http.get('/docs/errors.md').expect(200)).text).toContain('<h3 id="task_full">');
    for (const path of ['/docs/nope.md', '/docs/..%2Fpackage.json', '/docs/schema.sql', '/docs/README.md']) {
      const res = await t.http.get(path).expect(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('shows the sandbox banner in sandbox mode, and not in live mode', async () => {
    expect((await t.http.get('/docs').expect(200)).text).toMatch(/class="sandbox"[^>]*>.*sandbox mode/s);
    const { DATABASE_URL: _unused, ...env } = liveTestEnv();
    const live = await createTestApp(env);
    try {
      const page = await live.http.get('/docs').expect(200);
      expect(page.text).not.toContain('class="sandbox"');
      expect(page.text).toContain('data-spec="/openapi.json"');
    } finally {
      await live.close();
    }
  });

  describe('the document', () => {
    let doc: {
      paths: Record<string, Record<string, Op>>;
      tags: { name: string; description?: string }[];
      'x-tagGroups': { name: string; tags: string[] }[];
      servers: { url: string }[];
      components: { parameters: Record<string, unknown>; headers: Record<string, unknown> };
    };
    const ops = () =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => ({ path, method, op })),
      );
    beforeAll(async () => {
      doc = (await t.http.get('/openapi.json').expect(200)).body;
    });

    it('has servers, a description on every operation, and security on every one ([] when public)', async () => {
      expect(doc.servers.length).toBeGreaterThan(0);
      for (const { path, method, op } of ops()) {
        expect([path, method, (op.description ?? '').length > 20]).toEqual([path, method, true]);
        expect([path, method, Array.isArray(op.security)]).toEqual([path, method, true]);
        // Marked public only where the route really answers without a credential (never 401 for lacking one).
        if (op.security!.length === 0 && method === 'get' && !path.includes('{')) {
          const res = await t.http.get(path);
          expect([path, res.status]).not.toEqual([path, 401]);
        }
        // A route that asks for a credential documents what happens without one.
        if (op.security!.length > 0)
          expect([path, method, !!op.responses['401']]).toEqual([path, method, true]);
      }
    });

    it('declares Idempotency-Key on every agent write and the response headers on every answer', () => {
      for (const { path, method, op } of ops()) {
        const agent = (op.security ?? []).some((s) => 'api_key' in s || 'agent_jwt' in s);
        const write = ['post', 'put', 'patch', 'delete'].includes(method);
        const idem = (op.parameters ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
        expect([path, method, idem]).toEqual([path, method, agent && write]);
        for (const [status, response] of Object.entries(op.responses)) {
          const headers = Object.keys(response.headers ?? {});
          expect([path, status, headers]).toEqual([path, status, expect.arrayContaining(['X-Request-ID'])]);
          if (status === '429') expect(headers).toContain('Retry-After');
          if (op.security!.length > 0) expect(headers).toContain('X-RateLimit-Remaining');
          if (agent && write && status.startsWith('2')) expect(headers).toContain('Idempotent-Replayed');
        }
      }
    });

    it('declares every tag once, tasks first, and groups every tag, with the /api/v1 twins apart', () => {
      const used = new Set(ops().flatMap(({ op }) => op.tags ?? []));
      const declared = doc.tags.map((tag) => tag.name);
      expect(declared[0]).toBe('tasks');
      expect(new Set(declared).size).toBe(declared.length);
      for (const tag of used) expect(declared).toContain(tag);
      for (const tag of doc.tags) expect(tag.description).toBeTruthy();
      const grouped = doc['x-tagGroups'].flatMap((g) => g.tags);
      expect(grouped.sort()).toEqual([...declared].sort());
      const twins = doc['x-tagGroups'].find((g) => g.name.includes('/api/v1'))!;
      expect(twins.tags.length).toBeGreaterThan(0);
      for (const tag of twins.tags) expect(tag).toMatch(/\(\/api\/v1\)$/);
      for (const { path, op } of ops()) {
        const inTwins = (op.tags ?? []).every((tag) => twins.tags.includes(tag));
        expect([path, inTwins]).toEqual([path, path.startsWith('/api/v1/')]);
      }
      expect(doc['x-tagGroups'][0].tags).not.toContain('provider callbacks');
      expect(doc['x-tagGroups'][0].tags).not.toContain('operator');
    });
  });
});
