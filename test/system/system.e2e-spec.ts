import { ERROR_CODE_LIST } from '../../src/common/errors/error-catalog';
import { createTestApp, TestApp } from '../support/app';

describe('system endpoints and the error envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /health reports the database up and the version', async () => {
    const res = await t.http.get('/health').expect(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'up', mode: 'sandbox' });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('GET / names the service and links the docs', async () => {
    const res = await t.http.get('/').expect(200);
    expect(res.body).toMatchObject({
      name: 'Legwork',
      docs: '/docs',
      openapi: '/openapi.json',
      health: '/health',
    });
  });

  it('serves the OpenAPI document (the /docs page has its own tests in docs.e2e-spec.ts)', async () => {
    const doc = await t.http.get('/openapi.json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.paths['/health']).toBeDefined();
    const yaml = await t.http.get('/openapi.yaml').expect(200);
    expect(yaml.text).toMatch(/^openapi: 3\./m);
  });

  it('unknown routes are 404 not_found in the envelope, with the request id', async () => {
    const res = await t.http.get('/v1/no-such-thing').set('X-Request-ID', 'client-req-404').expect(404);
    expect(res.body).toEqual({
      error: { code: 'not_found', message: expect.any(String), request_id: 'client-req-404' },
    });
    expect(res.headers['x-request-id']).toBe('client-req-404');
  });

  it('serves the error reference where the OpenAPI error descriptions link, one anchor per code', async () => {
    const doc = await t.http.get('/openapi.json').expect(200);
    const links = JSON.stringify(doc.body).match(/\.\.\/docs\/errors\.md#[a-z_]+/g) ?? [];
    expect(links.length).toBeGreaterThan(100);
    // Resolved against /docs (the interactive docs), ../docs/errors.md is /docs/errors.md.
    const page = await t.http.get(new URL(links[0]!, 'http://x/docs').pathname).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    for (const code of ERROR_CODE_LIST) expect(page.text).toContain(`<h3 id="${code}">`);
    for (const link of new Set(links)) expect(ERROR_CODE_LIST).toContain(link.split('#')[1]);
  });

  it('malformed JSON is 400 invalid_json with details', async () => {
    const res = await t.http
      .post('/v1/agent/login')
      .set('content-type', 'application/json')
      .send('{"email": ')
      .expect(400);
    expect(res.body.error.code).toBe('invalid_json');
    expect(typeof res.body.error.details).toBe('string');
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
  });

  it('echoes a sane X-Request-ID and replaces an unsafe one', async () => {
    const ok = await t.http.get('/health').set('X-Request-ID', 'client-req-42');
    expect(ok.headers['x-request-id']).toBe('client-req-42');
    const bad = await t.http.get('/health').set('X-Request-ID', 'bad id with spaces <script>');
    expect(bad.headers['x-request-id']).not.toContain(' ');
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
