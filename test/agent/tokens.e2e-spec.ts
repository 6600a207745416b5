import { sign, type SignOptions } from 'jsonwebtoken';
import { Tokens } from '../../src/auth/tokens';
import { createTestApp, TEST_ENV, TestApp } from '../support/app';
import { AGENT_PASSWORD, bearer, insertWorker, registerAgent } from '../support/agents';

const b64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('agent credentials: tokens, refresh and the auth guard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  describe('POST refresh', () => {
    it('exchanges a refresh token for a new working pair, on both prefixes', async () => {
      const agent = await registerAgent(t);
      const res = await t.http
        .post('/v1/agent/refresh')
        .send({ refresh_token: agent.refreshToken })
        .expect(200);
      expect(res.body).toEqual({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
      });
      expect(res.body.refresh_token).not.toBe(agent.refreshToken);
      const profile = await t.http.get('/v1/agent/profile').set(bearer(res.body.access_token)).expect(200);
      expect(profile.body.agent_id).toBe(agent.id);
      await t.http.post('/api/v1/agent/refresh').send({ refresh_token: res.body.refresh_token }).expect(200);
    });

    it('reusing a rotated refresh token is 401 and ends the whole session (the newer token dies too)', async () => {
      const agent = await registerAgent(t);
      const first = await t.http
        .post('/v1/agent/refresh')
        .send({ refresh_token: agent.refreshToken })
        .expect(200);
      const reuse = await t.http
        .post('/v1/agent/refresh')
        .send({ refresh_token: agent.refreshToken })
        .expect(401);
      expect(reuse.body.error.code).toBe('invalid_token');
      const newer = await t.http
        .post('/v1/agent/refresh')
        .send({ refresh_token: first.body.refresh_token })
        .expect(401);
      expect(newer.body.error.code).toBe('invalid_token');
    });

    it('a session from another login is not affected by a reuse in this one', async () => {
      const agent = await registerAgent(t);
      const login = await t.http
        .post('/v1/agent/login')
        .send({ email: agent.email, password: AGENT_PASSWORD })
        .expect(200);
      await t.http.post('/v1/agent/refresh').send({ refresh_token: agent.refreshToken }).expect(200);
      await t.http.post('/v1/agent/refresh').send({ refresh_token: agent.refreshToken }).expect(401);
      await t.http.post('/v1/agent/refresh').send({ refresh_token: login.body.refresh_token }).expect(200);
    });

    it('refuses an access token, a garbage string and a missing field', async () => {
      const agent = await registerAgent(t);
      const access = await t.http
        .post('/v1/agent/refresh')
        .send({ refresh_token: agent.accessToken })
        .expect(401);
      expect(access.body.error.code).toBe('invalid_token');
      await t.http.post('/v1/agent/refresh').send({ refresh_token: 'garbage' }).expect(401);
      const missing = await t.http.post('/v1/agent/refresh').send({}).expect(400);
      expect(missing.body.error.details[0].field).toBe('refresh_token');
    });

    it('a worker refresh token is not an agent refresh token', async () => {
      const workerId = await insertWorker(t);
      const pair = await t.app.get(Tokens).issuePair('worker', workerId);
      const res = await t.http
        .post('/v1/agent/refresh')
        .send({ refresh_token: pair.refresh_token })
        .expect(401);
      expect(res.body.error.code).toBe('invalid_token');
    });
  });

  describe('POST logout', () => {
    it('ends the session of the refresh token on both prefixes; a later refresh is 401; repeating is 204', async () => {
      const agent = await registerAgent(t);
      const next = await t.http
        .post('/v1/agent/refresh')
        .send({ refresh_token: agent.refreshToken })
        .expect(200);
      await t.http.post('/v1/agent/logout').send({ refresh_token: next.body.refresh_token }).expect(204);
      const after = await t.http.post('/v1/agent/refresh').send({ refresh_token: next.body.refresh_token });
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('invalid_token');
      await t.http.post('/api/v1/agent/logout').send({ refresh_token: next.body.refresh_token }).expect(204);
      // API keys are not sessions: the key keeps working after the console logs out.
      await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
    });

    it('refuses a worker refresh token, an access token and garbage (401) and a missing field (400)', async () => {
      const agent = await registerAgent(t);
      const workerId = await insertWorker(t);
      const pair = await t.app.get(Tokens).issuePair('worker', workerId);
      for (const token of [pair.refresh_token, agent.accessToken, 'garbage']) {
        const res = await t.http.post('/v1/agent/logout').send({ refresh_token: token }).expect(401);
        expect(res.body.error.code).toBe('invalid_token');
      }
      const missing = await t.http.post('/v1/agent/logout').send({}).expect(400);
      expect(missing.body.error.details[0].field).toBe('refresh_token');
      // The worker's session survives an attempt to end it through the agent route.
      await t.http.post('/v1/worker/refresh').send({ refresh_token: pair.refresh_token }).expect(200);
    });
  });

  describe('the guard on agent routes', () => {
    it('no Authorization header is 401 authentication_required', async () => {
      const res = await t.http.get('/v1/agent/profile').expect(401);
      expect(res.body.error.code).toBe('authentication_required');
      const basic = await t.http.get('/v1/agent/profile').set('Authorization', 'Basic abc').expect(401);
      expect(basic.body.error.code).toBe('authentication_required');
    });

    it('an unknown API key is 401 invalid_api_key', async () => {
      const res = await t.http
        .get('/v1/agent/profile')
        .set(bearer(`lw_test_${'x'.repeat(43)}`))
        .expect(401);
      expect(res.body.error.code).toBe('invalid_api_key');
    });

    it('an access token past its 15 minutes is 401 invalid_token', async () => {
      const agent = await registerAgent(t);
      await t.http.get('/v1/agent/profile').set(bearer(agent.accessToken)).expect(200);
      t.clock.advance(15 * 60_000 + 1_000);
      const res = await t.http.get('/v1/agent/profile').set(bearer(agent.accessToken)).expect(401);
      expect(res.body.error.code).toBe('invalid_token');
      // The API key does not expire.
      await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
    });

    it('a token with a changed signature is 401', async () => {
      const agent = await registerAgent(t);
      const [header, payload, signature] = agent.accessToken.split('.');
      // Change a middle character: the last one may only carry padding bits.
      const i = 10;
      const flipped = signature[i] === 'A' ? 'B' : 'A';
      const tampered = `${header}.${payload}.${signature.slice(0, i)}${flipped}${signature.slice(i + 1)}`;
      const res = await t.http.get('/v1/agent/profile').set(bearer(tampered)).expect(401);
      expect(res.body.error.code).toBe('invalid_token');
    });

    it('a token with a changed payload (another subject) is 401', async () => {
      const a = await registerAgent(t);
      const b = await registerAgent(t);
      const [header, payload, signature] = a.accessToken.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = `${header}.${b64url({ ...claims, sub: b.id })}.${signature}`;
      await t.http.get('/v1/agent/profile').set(bearer(forged)).expect(401);
    });

    it('an unsigned token (alg none) is 401', async () => {
      const agent = await registerAgent(t);
      const now = Math.floor(t.clock.now().getTime() / 1000);
      const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({
        sub: agent.id,
        aud: 'legwork:agent',
        iss: 'legwork',
        iat: now,
        exp: now + 600,
      })}.`;
      const res = await t.http.get('/v1/agent/profile').set(bearer(token)).expect(401);
      expect(res.body.error.code).toBe('invalid_token');
    });

    it('the algorithm, issuer and audience are pinned: signed with the access secret otherwise, it is 401', async () => {
      const agent = await registerAgent(t);
      const now = Math.floor(t.clock.now().getTime() / 1000);
      const good: SignOptions = { algorithm: 'HS256', issuer: 'legwork', audience: 'legwork:agent' };
      const token = (over: SignOptions) =>
        sign({ sub: agent.id, iat: now, exp: now + 600 }, TEST_ENV.JWT_ACCESS_SECRET, { ...good, ...over });
      // The control: the same token with the pinned values is accepted.
      await t.http
        .get('/v1/agent/profile')
        .set(bearer(token({})))
        .expect(200);
      for (const over of [
        { algorithm: 'HS512' },
        { issuer: 'someone-else' },
        { audience: 'legwork:agent:refresh' },
        { audience: 'legwork:console' },
      ] satisfies SignOptions[]) {
        const res = await t.http
          .get('/v1/agent/profile')
          .set(bearer(token(over)))
          .expect(401);
        expect(res.body.error).toMatchObject({
          code: 'invalid_token',
          message: 'The access token is invalid or expired.',
        });
      }
    });

    it('a credential sent twice (the header and access_token in the query) is 401, whatever it is', async () => {
      const agent = await registerAgent(t);
      for (const credential of [agent.accessToken, agent.apiKey]) {
        const res = await t.http
          .get(`/v1/agent/profile?access_token=${encodeURIComponent(credential)}`)
          .set(bearer(credential))
          .expect(401);
        expect(res.body.error.code).toBe('invalid_token');
      }
    });

    it('a worker token on an agent route is 403 forbidden', async () => {
      const workerId = await insertWorker(t);
      const pair = await t.app.get(Tokens).issuePair('worker', workerId);
      const res = await t.http.get('/v1/agent/profile').set(bearer(pair.access_token)).expect(403);
      expect(res.body.error.code).toBe('forbidden');
      await t.http.get('/v1/agent/api-keys').set(bearer(pair.access_token)).expect(403);
    });

    it('an API key on a JWT-only route is 403 forbidden', async () => {
      const agent = await registerAgent(t);
      const res = await t.http.get('/v1/agent/api-keys').set(bearer(agent.apiKey)).expect(403);
      expect(res.body.error.code).toBe('forbidden');
      await t.http.post('/v1/agent/api-keys').set(bearer(agent.apiKey)).send({}).expect(403);
    });
  });
});
