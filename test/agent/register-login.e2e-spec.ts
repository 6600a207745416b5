import { createTestApp, TestApp } from '../support/app';
import { AGENT_PASSWORD, bearer, registerAgent, uniqueEmail } from '../support/agents';

describe('agent registration and login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  describe('POST register', () => {
    it('creates the account and returns tokens, the API key and secret once', async () => {
      const email = uniqueEmail();
      const res = await t.http
        .post('/v1/agent/register')
        .send({ email, password: 'secret1', organization_name: 'Acme', company_name: 'Acme Ltd' })
        .expect(201);
      expect(res.body).toEqual({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
        agent_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email,
        organization_name: 'Acme',
        api_key: expect.stringMatching(/^lw_test_[0-9A-Za-z]{43}$/),
        api_secret: expect.stringMatching(/^lws_[0-9A-Za-z]{43}$/),
        api_key_prefix: expect.any(String),
        balance_cents: 0,
      });
      expect(res.body.api_key_prefix).toBe(res.body.api_key.slice(0, 12));
      // Both credentials work at once.
      const viaKey = await t.http.get('/v1/agent/profile').set(bearer(res.body.api_key)).expect(200);
      expect(viaKey.body.agent_id).toBe(res.body.agent_id);
      await t.http.get('/v1/agent/profile').set(bearer(res.body.access_token)).expect(200);
      const row = await t.db.query(`SELECT company_name FROM agents WHERE id = $1`, [res.body.agent_id]);
      expect(row[0].company_name).toBe('Acme Ltd');
    });

    it('is also served on /api/v1/agent/register; optional names may be null', async () => {
      const res = await t.http
        .post('/api/v1/agent/register')
        .send({ email: uniqueEmail(), password: 'secret1', organization_name: null })
        .expect(201);
      expect(res.body.organization_name).toBeNull();
    });

    it('creates one API key with every permission', async () => {
      const agent = await registerAgent(t);
      const keys = await t.http.get('/v1/agent/api-keys').set(bearer(agent.accessToken)).expect(200);
      expect(keys.body).toHaveLength(1);
      expect(keys.body[0]).toMatchObject({
        name: 'Primary API Key',
        is_active: true,
        usage_count: 0,
        permissions: [
          'task:create',
          'task:read',
          'task:cancel',
          'payment:read',
          'payment:write',
          'webhook:manage',
        ],
      });
    });

    it('an email registered in any letter case is 409 email_taken', async () => {
      const email = uniqueEmail('Case');
      await t.http.post('/v1/agent/register').send({ email, password: 'secret1' }).expect(201);
      const res = await t.http
        .post('/v1/agent/register')
        .send({ email: `  ${email.toUpperCase()} `, password: 'secret1' })
        .expect(409);
      expect(res.body.error).toEqual({
        code: 'email_taken',
        message: expect.any(String),
        request_id: expect.any(String),
      });
    });

    it('two concurrent registrations of one email: exactly one succeeds', async () => {
      const email = uniqueEmail();
      const results = await Promise.all(
        [0, 1, 2].map(() => t.http.post('/v1/agent/register').send({ email, password: 'secret1' })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      const count = await t.db.query(`SELECT count(*)::int AS n FROM agents WHERE lower(email) = $1`, [
        email,
      ]);
      expect(count[0].n).toBe(1);
    });

    it.each([
      [{ password: 'secret1' }, ['email']],
      [{ email: 'not-an-email', password: 'secret1' }, ['email']],
      [{ email: 'a@example.com', password: '12345' }, ['password']],
      [{ email: 'a@example.com', password: 'x'.repeat(129) }, ['password']],
      [{ email: 'a@example.com' }, ['password']],
      [{ email: 'a@example.com', password: 123456 }, ['password']],
      [{ email: 'a@example.com', password: 'secret1', organization_name: 5 }, ['organization_name']],
      [{ email: 'a@example.com', password: 'secret1', company_name: 'x'.repeat(201) }, ['company_name']],
      [{ email: 'a@example.com', password: 'secret1', role: 'admin' }, ['role']],
      [{}, ['email', 'password']],
    ])('%j is 400 validation_error naming %j', async (body, fields) => {
      const res = await t.http.post('/v1/agent/register').send(body).expect(400);
      expect(res.body.error.code).toBe('validation_error');
      const named = new Set(res.body.error.details.map((d: { field: string }) => d.field));
      expect([...named].sort()).toEqual([...fields].sort());
    });
  });

  describe('POST login', () => {
    it('returns tokens without the API key or secret', async () => {
      const agent = await registerAgent(t, { organization_name: 'Org' });
      const res = await t.http
        .post('/v1/agent/login')
        .send({ email: agent.email.toUpperCase(), password: AGENT_PASSWORD })
        .expect(200);
      expect(res.body).toEqual({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
        agent_id: agent.id,
        email: agent.email,
        organization_name: 'Org',
        api_key: null,
        api_secret: null,
        api_key_prefix: agent.apiKey.slice(0, 12),
        balance_cents: 0,
      });
      await t.http.get('/api/v1/agent/me').set(bearer(res.body.access_token)).expect(200);
    });

    it('a wrong password and an unknown email get the same 401 invalid_credentials', async () => {
      const agent = await registerAgent(t);
      const wrong = await t.http
        .post('/v1/agent/login')
        .send({ email: agent.email, password: 'not the password' })
        .expect(401);
      const unknown = await t.http
        .post('/v1/agent/login')
        .send({ email: uniqueEmail(), password: 'not the password' })
        .expect(401);
      // Alike but for the request id.
      expect(unknown.body.error).toEqual({
        ...wrong.body.error,
        request_id: unknown.headers['x-request-id'],
      });
      expect(wrong.body.error.code).toBe('invalid_credentials');
    });

    it('validates the body', async () => {
      const res = await t.http.post('/v1/agent/login').send({ email: 'nope', password: '' }).expect(400);
      const fields = res.body.error.details.map((d: { field: string }) => d.field);
      expect(fields).toEqual(expect.arrayContaining(['email', 'password']));
    });

    it('10 failures in 15 minutes lock the account: 429 account_locked with Retry-After, even with the right password', async () => {
      const agent = await registerAgent(t);
      for (let i = 0; i < 10; i++) {
        const res = await t.http.post('/v1/agent/login').send({ email: agent.email, password: `wrong-${i}` });
        expect(res.status).toBe(401);
      }
      const locked = await t.http
        .post('/v1/agent/login')
        .send({ email: agent.email, password: AGENT_PASSWORD })
        .expect(429);
      expect(locked.body.error).toEqual({
        code: 'account_locked',
        message: expect.any(String),
        request_id: expect.any(String),
        retry_after: expect.any(Number),
      });
      expect(locked.body.error.retry_after).toBeGreaterThan(14 * 60);
      expect(locked.body.error.retry_after).toBeLessThanOrEqual(15 * 60);
      expect(locked.headers['retry-after']).toBe(String(locked.body.error.retry_after));
      // The lock ends after 15 minutes and a good password then clears the count.
      t.clock.advanceMinutes(15);
      await t.http.post('/v1/agent/login').send({ email: agent.email, password: AGENT_PASSWORD }).expect(200);
      await t.http.post('/v1/agent/login').send({ email: agent.email, password: 'wrong' }).expect(401);
      await t.http.post('/v1/agent/login').send({ email: agent.email, password: AGENT_PASSWORD }).expect(200);
    });

    it('failures spread over more than 15 minutes do not lock', async () => {
      const agent = await registerAgent(t);
      for (let i = 0; i < 9; i++) {
        await t.http.post('/v1/agent/login').send({ email: agent.email, password: 'wrong' }).expect(401);
      }
      t.clock.advanceMinutes(16);
      for (let i = 0; i < 9; i++) {
        await t.http.post('/v1/agent/login').send({ email: agent.email, password: 'wrong' }).expect(401);
      }
      await t.http.post('/v1/agent/login').send({ email: agent.email, password: AGENT_PASSWORD }).expect(200);
    });

    it('parallel guesses cannot exceed 10 password checks per window', async () => {
      const agent = await registerAgent(t);
      const results = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          t.http.post('/v1/agent/login').send({ email: agent.email, password: `guess-${i}` }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
      await t.http.post('/v1/agent/login').send({ email: agent.email, password: AGENT_PASSWORD }).expect(429);
    });
  });
});
