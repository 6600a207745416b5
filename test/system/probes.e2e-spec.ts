import { randomBytes } from 'node:crypto';
import { freePort } from '../support/process';
import { Drain } from '../../src/health/drain';
import { createTestApp, TestApp } from '../support/app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** GET /livez and GET /readyz (product-decisions §15): what Kubernetes probes and load balancers read. */
describe('liveness and readiness probes', () => {
  describe('one instance without Redis', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('GET /livez is 200 and checks nothing', async () => {
      const res = await t.http.get('/livez').expect(200);
      expect(res.body).toEqual({ status: 'ok' });
    });

    it('GET /readyz is 200 with the database up and Redis not configured', async () => {
      const res = await t.http.get('/readyz').expect(200);
      expect(res.body).toEqual({ status: 'ready', database: 'up', redis: 'not_configured' });
    });

    it('draining: /readyz turns 503 at once, /livez and /health stay 200, responses close the connection', async () => {
      const before = await t.http.get('/v1/ws/stats').set('Connection', 'keep-alive').expect(200);
      expect(before.headers.connection).toBe('keep-alive');
      t.app.get(Drain).begin();
      const ready = await t.http.get('/readyz').set('Connection', 'keep-alive').expect(503);
      expect(ready.body.error).toMatchObject({
        code: 'service_unavailable',
        message: 'This instance is shutting down.',
        draining: true,
        database: 'up',
        redis: 'not_configured',
        retry_after: 5,
      });
      expect(ready.headers.connection).toBe('close');
      await t.http.get('/livez').expect(200);
      await t.http.get('/health').expect(200);
      // Requests still arriving are served in full during the drain window.
      const during = await t.http.get('/v1/ws/stats').set('Connection', 'keep-alive').expect(200);
      expect(during.headers.connection).toBe('close');
    });
  });

  it('GET /readyz checks Redis when REDIS_URL is set', async () => {
    const t = await createTestApp({
      REDIS_URL,
      REDIS_KEY_PREFIX: `probes-${randomBytes(3).toString('hex')}`,
    });
    try {
      const res = await t.http.get('/readyz').expect(200);
      expect(res.body).toEqual({ status: 'ready', database: 'up', redis: 'up' });
    } finally {
      await t.close();
    }
  });

  it('GET /readyz is 503 when the configured Redis is unreachable, while /livez stays 200', async () => {
    const t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      const res = await t.http.get('/readyz').expect(503);
      expect(res.body.error).toMatchObject({
        code: 'service_unavailable',
        message: 'A dependency of this instance is unreachable.',
        draining: false,
        database: 'up',
        redis: 'down',
      });
      await t.http.get('/livez').expect(200);
    } finally {
      await t.close();
    }
  });
});
