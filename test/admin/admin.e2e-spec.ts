import { randomUUID } from 'node:crypto';
import { createOrUpdateAdmin } from '../../src/admin/admin-accounts';
import { Tokens } from '../../src/auth/tokens';
import { createTestApp, TestApp } from '../support/app';
import { AGENT_PASSWORD, bearer, insertWorker, registerAgent, uniqueEmail } from '../support/agents';

const ADMIN_PASSWORD = 'operator passphrase';

describe('operator API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  async function operator(): Promise<{ email: string; access: string; refresh: string }> {
    const email = uniqueEmail('admin');
    await createOrUpdateAdmin(t.db, { email, password: ADMIN_PASSWORD });
    const res = await t.http.post('/v1/admin/login').send({ email, password: ADMIN_PASSWORD }).expect(200);
    return { email, access: res.body.access_token, refresh: res.body.refresh_token };
  }

  describe('login and refresh', () => {
    it('login without two-factor returns a 12-hour session: a token pair with the admin audience', async () => {
      const email = uniqueEmail('admin');
      const { id } = await createOrUpdateAdmin(t.db, { email, password: ADMIN_PASSWORD });
      const res = await t.http.post('/v1/admin/login').send({ email, password: ADMIN_PASSWORD }).expect(200);
      expect(res.body).toEqual({
        status: 'signed_in',
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
        admin_id: id,
        email,
        session_expires_at: expect.any(String),
        totp_enabled: false,
      });
      const claims = JSON.parse(Buffer.from(res.body.access_token.split('.')[1], 'base64url').toString());
      expect(claims).toMatchObject({ aud: 'legwork:admin', sub: id, sid: expect.any(String) });
      expect(Date.parse(res.body.session_expires_at)).toBe((claims.iat + 12 * 3600) * 1000);
      await t.http.get('/v1/admin/agents').set(bearer(res.body.access_token)).expect(200);
    });

    it('wrong password or unknown operator: 401 invalid_credentials; an agent cannot log in here', async () => {
      const { email } = await operator();
      const wrong = await t.http.post('/v1/admin/login').send({ email, password: 'nope' }).expect(401);
      expect(wrong.body.error.code).toBe('invalid_credentials');
      await t.http.post('/v1/admin/login').send({ email: uniqueEmail(), password: 'nope' }).expect(401);
      const agent = await registerAgent(t);
      await t.http.post('/v1/admin/login').send({ email: agent.email, password: AGENT_PASSWORD }).expect(401);
      const invalid = await t.http.post('/v1/admin/login').send({ email: 'x' }).expect(400);
      expect(invalid.body.error.details.map((d: { field: string }) => d.field)).toEqual(
        expect.arrayContaining(['email', 'password']),
      );
    });

    it('10 failures lock the operator account (429 account_locked)', async () => {
      const { email } = await operator();
      for (let i = 0; i < 10; i++) {
        await t.http.post('/v1/admin/login').send({ email, password: 'wrong' }).expect(401);
      }
      const res = await t.http.post('/v1/admin/login').send({ email, password: ADMIN_PASSWORD }).expect(429);
      expect(res.body.error.code).toBe('account_locked');
      expect(res.headers['retry-after']).toBeDefined();
    });

    it('refresh rotates; reuse is 401 and ends the session', async () => {
      const op = await operator();
      const next = await t.http.post('/v1/admin/refresh').send({ refresh_token: op.refresh }).expect(200);
      await t.http.get('/v1/admin/agents').set(bearer(next.body.access_token)).expect(200);
      await t.http.post('/v1/admin/refresh').send({ refresh_token: op.refresh }).expect(401);
      await t.http.post('/v1/admin/refresh').send({ refresh_token: next.body.refresh_token }).expect(401);
    });

    it('an agent refresh token is refused at the admin refresh', async () => {
      const agent = await registerAgent(t);
      await t.http.post('/v1/admin/refresh').send({ refresh_token: agent.refreshToken }).expect(401);
    });
  });

  describe('who may call what', () => {
    it('an admin token on agent routes is 403 forbidden', async () => {
      const op = await operator();
      const res = await t.http.get('/v1/agent/profile').set(bearer(op.access)).expect(403);
      expect(res.body.error.code).toBe('forbidden');
      await t.http.get('/v1/agent/api-keys').set(bearer(op.access)).expect(403);
    });

    it('agent credentials and worker tokens on admin routes are 403 forbidden; none is 401', async () => {
      const agent = await registerAgent(t);
      for (const credential of [agent.apiKey, agent.accessToken]) {
        const res = await t.http.get('/v1/admin/agents').set(bearer(credential)).expect(403);
        expect(res.body.error.code).toBe('forbidden');
        await t.http
          .patch(`/v1/admin/agents/${agent.id}`)
          .set(bearer(credential))
          .send({ tier: 'enterprise' })
          .expect(403);
      }
      const workerId = await insertWorker(t);
      const worker = await t.app.get(Tokens).issuePair('worker', workerId);
      await t.http.get('/v1/admin/agents').set(bearer(worker.access_token)).expect(403);
      const none = await t.http.get('/v1/admin/agents').expect(401);
      expect(none.body.error.code).toBe('authentication_required');
      const [row] = await t.db.query(`SELECT tier FROM agents WHERE id = $1`, [agent.id]);
      expect(row.tier).toBe('standard');
    });
  });

  describe('GET /v1/admin/agents', () => {
    it('pages through agents, newest first', async () => {
      const op = await operator();
      const a = await registerAgent(t, { organization_name: 'First' });
      t.clock.advance(1000);
      const b = await registerAgent(t, { organization_name: 'Second' });
      const page = await t.http.get('/v1/admin/agents?limit=2').set(bearer(op.access)).expect(200);
      expect(page.body).toMatchObject({ skip: 0, limit: 2, total: expect.any(Number), has_more: true });
      expect(page.body.items.map((i: { agent_id: string }) => i.agent_id)).toEqual([b.id, a.id]);
      expect(page.body.items[0]).toEqual({
        agent_id: b.id,
        email: b.email,
        organization_name: 'Second',
        company_name: null,
        tier: 'standard',
        fee_bps: null,
        account_status: 'active',
        rate_limit_per_minute: 100,
        rate_limit_per_day: 10000,
        max_concurrent_tasks: 100,
        api_key_prefix: b.apiKey.slice(0, 12),
        created_at: expect.any(String),
        last_used_at: null,
      });
      const next = await t.http.get('/v1/admin/agents?skip=1&limit=1').set(bearer(op.access)).expect(200);
      expect(next.body.items[0].agent_id).toBe(a.id);
      const all = await t.http.get('/v1/admin/agents').set(bearer(op.access)).expect(200);
      expect(all.body.limit).toBe(20);
      expect(all.body.total).toBe(Number((await t.db.query(`SELECT count(*) AS n FROM agents`))[0].n));
    });

    it.each(['limit=0', 'limit=101', 'skip=-1', 'limit=abc', 'skip=1.5', 'sort=email'])(
      '?%s is 400 validation_error',
      async (query) => {
        const op = await operator();
        const res = await t.http.get(`/v1/admin/agents?${query}`).set(bearer(op.access)).expect(400);
        expect(res.body.error.details[0].field).toBe(query.split('=')[0]);
      },
    );
  });

  describe('PATCH /v1/admin/agents/{id}', () => {
    it('tier sets the rate limits, shown in the profile and applied at once', async () => {
      const op = await operator();
      const agent = await registerAgent(t);
      const res = await t.http
        .patch(`/v1/admin/agents/${agent.id}`)
        .set(bearer(op.access))
        .send({ tier: 'verified' })
        .expect(200);
      expect(res.body).toMatchObject({
        tier: 'verified',
        rate_limit_per_minute: 1000,
        rate_limit_per_day: 100000,
      });
      const profile = await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
      expect(profile.body).toMatchObject({ tier: 'verified', rate_limit_per_minute: 1000 });
      expect(profile.headers['x-ratelimit-limit']).toBe('1000');
      const keys = await t.http.get('/v1/agent/api-keys').set(bearer(agent.accessToken)).expect(200);
      expect(keys.body[0].rate_limit_per_minute).toBe(1000);

      await t.http
        .patch(`/v1/admin/agents/${agent.id}`)
        .set(bearer(op.access))
        .send({ tier: 'enterprise' })
        .expect(200);
      const back = await t.http
        .patch(`/v1/admin/agents/${agent.id}`)
        .set(bearer(op.access))
        .send({ tier: 'standard' })
        .expect(200);
      expect(back.body).toMatchObject({
        tier: 'standard',
        rate_limit_per_minute: 100,
        rate_limit_per_day: 10000,
      });
    });

    it('fee_bps sets and clears the fee override; omitted fields stay', async () => {
      const op = await operator();
      const agent = await registerAgent(t);
      const set = await t.http
        .patch(`/v1/admin/agents/${agent.id}`)
        .set(bearer(op.access))
        .send({ fee_bps: 800, tier: 'enterprise' })
        .expect(200);
      expect(set.body).toMatchObject({ fee_bps: 800, tier: 'enterprise' });
      const same = await t.http
        .patch(`/v1/admin/agents/${agent.id}`)
        .set(bearer(op.access))
        .send({})
        .expect(200);
      expect(same.body).toMatchObject({ fee_bps: 800, tier: 'enterprise', account_status: 'active' });
      const cleared = await t.http
        .patch(`/v1/admin/agents/${agent.id}`)
        .set(bearer(op.access))
        .send({ fee_bps: null })
        .expect(200);
      expect(cleared.body).toMatchObject({ fee_bps: null, tier: 'enterprise' });
    });

    it('suspending: API key and JWT get 403 account_disabled, sessions end, login refused; reactivating restores', async () => {
      const op = await operator();
      const agent = await registerAgent(t);
      await t.http
        .patch(`/v1/admin/agents/${agent.id}`)
        .set(bearer(op.access))
        .send({ account_status: 'suspended' })
        .expect(200);
      for (const credential of [agent.apiKey, agent.accessToken]) {
        const res = await t.http.get('/v1/agent/profile').set(bearer(credential)).expect(403);
        expect(res.body.error.code).toBe('account_disabled');
      }
      await t.http.post('/v1/agent/refresh').send({ refresh_token: agent.refreshToken }).expect(401);
      const login = await t.http
        .post('/v1/agent/login')
        .send({ email: agent.email, password: AGENT_PASSWORD })
        .expect(403);
      expect(login.body.error.code).toBe('account_disabled');
      // Without the right password the answer stays invalid_credentials: status is not disclosed.
      await t.http.post('/v1/agent/login').send({ email: agent.email, password: 'wrong one' }).expect(401);

      await t.http
        .patch(`/v1/admin/agents/${agent.id}`)
        .set(bearer(op.access))
        .send({ account_status: 'active' })
        .expect(200);
      await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
      await t.http.post('/v1/agent/login').send({ email: agent.email, password: AGENT_PASSWORD }).expect(200);
    });

    it('a suspended agent whose refresh token was not revoked still cannot refresh', async () => {
      const agent = await registerAgent(t);
      await t.db.query(`UPDATE agents SET account_status = 'closed' WHERE id = $1`, [agent.id]);
      const res = await t.http
        .post('/v1/agent/refresh')
        .send({ refresh_token: agent.refreshToken })
        .expect(403);
      expect(res.body.error.code).toBe('account_disabled');
    });

    it.each([
      [{ tier: 'gold' }, 'tier'],
      [{ fee_bps: 5001 }, 'fee_bps'],
      [{ fee_bps: -1 }, 'fee_bps'],
      [{ fee_bps: 12.5 }, 'fee_bps'],
      [{ fee_bps: '800' }, 'fee_bps'],
      [{ account_status: 'deleted' }, 'account_status'],
      [{ balance_cents: 100 }, 'balance_cents'],
    ])('%j is 400 validation_error on %s', async (body, field) => {
      const op = await operator();
      const agent = await registerAgent(t);
      const res = await t.http
        .patch(`/v1/admin/agents/${agent.id}`)
        .set(bearer(op.access))
        .send(body)
        .expect(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('an unknown agent is 404 not_found; a malformed id is 400', async () => {
      const op = await operator();
      const missing = await t.http
        .patch(`/v1/admin/agents/${randomUUID()}`)
        .set(bearer(op.access))
        .send({ tier: 'verified' })
        .expect(404);
      expect(missing.body.error.code).toBe('not_found');
      const bad = await t.http.patch('/v1/admin/agents/nope').set(bearer(op.access)).send({}).expect(400);
      expect(bad.body.error.details).toEqual([{ field: 'id', message: 'must be a UUID' }]);
    });
  });
});
