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

  it('serves the OpenAPI document and the interactive docs', async () => {
    const doc = await t.http.get('/openapi.json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.paths['/health']).toBeDefined();
    const html = await t.http.get('/docs/').expect(200);
    expect(html.text).toContain('swagger');
  });

  it('unknown routes are 404 not_found in the envelope', async () => {
    const res = await t.http.get('/v1/no-such-thing').expect(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('malformed JSON is 400 invalid_json with details', async () => {
    const res = await t.http
      .post('/v1/agent/login')
      .set('content-type', 'application/json')
      .send('{"email": ')
      .expect(400);
    expect(res.body.error.code).toBe('invalid_json');
    expect(typeof res.body.error.details).toBe('string');
  });

  it('echoes a sane X-Request-ID and replaces an unsafe one', async () => {
    const ok = await t.http.get('/health').set('X-Request-ID', 'client-req-42');
    expect(ok.headers['x-request-id']).toBe('client-req-42');
    const bad = await t.http.get('/health').set('X-Request-ID', 'bad id with spaces <script>');
    expect(bad.headers['x-request-id']).not.toContain(' ');
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
