import { createTestApp, TestApp } from '../support/app';
import { alignToMinuteStart, bearer, registerAgent, uniqueEmail } from '../support/agents';

describe('agent rate limits', () => {
  describe('per agent', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
    });
    afterAll(() => t.close());

    it('over rate_limit_per_minute the request is 429 rate_limit_exceeded with headers; other agents are unaffected', async () => {
      const limited = await registerAgent(t);
      const other = await registerAgent(t);
      await t.db.query(`UPDATE agents SET rate_limit_per_minute = 5 WHERE id = $1`, [limited.id]);
      alignToMinuteStart(t.clock);

      for (let i = 1; i <= 5; i++) {
        const res = await t.http.get('/v1/agent/profile').set(bearer(limited.apiKey)).expect(200);
        expect(res.headers['x-ratelimit-limit']).toBe('5');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(5 - i));
      }
      const res = await t.http.get('/v1/agent/profile').set(bearer(limited.apiKey)).expect(429);
      const nowSeconds = t.clock.now().getTime() / 1000;
      expect(res.body.error).toEqual({
        code: 'rate_limit_exceeded',
        message: expect.any(String),
        request_id: expect.any(String),
        retry_after: expect.any(Number),
      });
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(nowSeconds);
      expect(reset).toBeLessThanOrEqual(nowSeconds + 60);
      expect(Number(res.headers['retry-after'])).toBe(res.body.error.retry_after);
      expect(res.body.error.retry_after).toBeGreaterThan(0);
      expect(res.body.error.retry_after).toBeLessThanOrEqual(60);

      // JWT traffic counts against the same agent budget.
      await t.http.get('/v1/agent/profile').set(bearer(limited.accessToken)).expect(429);
      // Another agent has its own budget.
      const fine = await t.http.get('/v1/agent/profile').set(bearer(other.apiKey)).expect(200);
      expect(fine.headers['x-ratelimit-limit']).toBe('100');

      // The next minute opens a new window.
      t.clock.advance(60_000);
      await t.http.get('/v1/agent/profile').set(bearer(limited.apiKey)).expect(200);
    });

    it('the daily budget applies too', async () => {
      const agent = await registerAgent(t);
      await t.db.query(`UPDATE agents SET rate_limit_per_day = 3 WHERE id = $1`, [agent.id]);
      alignToMinuteStart(t.clock);
      for (let i = 0; i < 3; i++) await t.http.get('/v1/agent/me').set(bearer(agent.apiKey)).expect(200);
      const res = await t.http.get('/v1/agent/me').set(bearer(agent.apiKey)).expect(429);
      expect(res.body.error.message).toMatch(/per day/);
      expect(res.body.error.retry_after).toBeGreaterThan(60);
    });
  });

  describe('per client IP on the public auth routes', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '5' });
    });
    afterAll(() => t.close());

    it('the 6th login from one IP in a minute is 429 with Retry-After', async () => {
      alignToMinuteStart(t.clock);
      const body = { email: uniqueEmail(), password: 'whatever1' };
      for (let i = 1; i <= 5; i++) {
        const res = await t.http.post('/v1/agent/login').send(body).expect(401);
        expect(res.headers['x-ratelimit-limit']).toBe('5');
      }
      const res = await t.http.post('/v1/agent/login').send(body).expect(429);
      expect(res.body.error.code).toBe('rate_limit_exceeded');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // register and refresh share the per-IP budget.
      await t.http.post('/v1/agent/register').send({ email: uniqueEmail(), password: 'secret1' }).expect(429);
      await t.http.post('/v1/agent/refresh').send({ refresh_token: 'x' }).expect(429);
      t.clock.advance(60_000);
      await t.http.post('/v1/agent/register').send({ email: uniqueEmail(), password: 'secret1' }).expect(201);
    });
  });
});
