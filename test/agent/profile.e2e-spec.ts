import { createTestApp, TestApp } from '../support/app';
import { fundAgent } from '../support/actors';
import { bearer, registerAgent } from '../support/agents';

describe('agent profile', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  it('GET profile returns every field, with an API key or a JWT, on both prefixes', async () => {
    const agent = await registerAgent(t, { organization_name: 'Acme', company_name: 'Acme Ltd' });
    const expected = {
      agent_id: agent.id,
      email: agent.email,
      organization_name: 'Acme',
      company_name: 'Acme Ltd',
      balance_cents: 0,
      balance_rmb: 0,
      owed_cents: 0,
      api_key_prefix: agent.apiKey.slice(0, 12),
      tier: 'standard',
      rate_limit_per_minute: 100,
      rate_limit_per_day: 10000,
      max_concurrent_tasks: 100,
      account_status: 'active',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      last_used_at: null,
    };
    for (const path of ['/v1/agent/profile', '/v1/agent/me', '/api/v1/agent/profile', '/api/v1/agent/me']) {
      for (const credential of [agent.apiKey, agent.accessToken]) {
        const res = await t.http.get(path).set(bearer(credential)).expect(200);
        // The spend caps are the calling key's; the console session (JWT) has none.
        const spendCaps =
          credential === agent.apiKey
            ? { daily_cents: null, monthly_cents: null, approval_ceiling_cents: 0 }
            : null;
        // last_used_at is written in batches: null until the first flush, then a timestamp.
        expect(res.body).toEqual({
          ...expected,
          last_used_at: res.body.last_used_at,
          spend_caps: spendCaps,
          spend: [],
        });
        expect(res.body.last_used_at === null || typeof res.body.last_used_at === 'string').toBe(true);
      }
    }
  });

  it('absent optional names are null, never missing', async () => {
    const agent = await registerAgent(t);
    const res = await t.http.get('/v1/agent/me').set(bearer(agent.apiKey)).expect(200);
    expect(res.body).toHaveProperty('organization_name', null);
    expect(res.body).toHaveProperty('company_name', null);
    expect(Object.keys(res.body)).toHaveLength(17);
  });

  it('shows the ledger balance: balance_rmb is balance_cents / 100, and login reports it too', async () => {
    const agent = await registerAgent(t);
    await fundAgent(t, agent.id, 12_345);
    const res = await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
    expect(res.body.balance_cents).toBe(12_345);
    expect(res.body.balance_rmb).toBe(123.45);
    const login = await t.http
      .post('/v1/agent/login')
      .send({ email: agent.email, password: agent.password })
      .expect(200);
    expect(login.body.balance_cents).toBe(12_345);
  });

  it('carries X-RateLimit-* headers', async () => {
    const agent = await registerAgent(t);
    const res = await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
    expect(res.headers['x-ratelimit-limit']).toBe('100');
    expect(Number(res.headers['x-ratelimit-remaining'])).toBeLessThan(100);
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 - 120);
  });

  it('the OpenAPI document lists every agent-account operation on both prefixes', async () => {
    const doc = await t.http.get('/openapi.json').expect(200);
    const ops = new Set<string>();
    for (const [path, item] of Object.entries(doc.body.paths as Record<string, object>)) {
      for (const method of Object.keys(item)) ops.add(`${method.toUpperCase()} ${path}`);
    }
    for (const prefix of ['/v1/agent', '/api/v1/agent']) {
      for (const op of [
        `POST ${prefix}/register`,
        `POST ${prefix}/login`,
        `POST ${prefix}/refresh`,
        `GET ${prefix}/profile`,
        `GET ${prefix}/me`,
        `GET ${prefix}/api-keys`,
        `POST ${prefix}/api-keys`,
        `PATCH ${prefix}/api-keys/{key_id}`,
        `DELETE ${prefix}/api-keys/{key_id}`,
      ]) {
        expect(ops).toContain(op);
      }
    }
    for (const op of [
      'POST /v1/admin/login',
      'POST /v1/admin/refresh',
      'GET /v1/admin/agents',
      'PATCH /v1/admin/agents/{id}',
    ]) {
      expect(ops).toContain(op);
    }
  });
});
