import { createECDH, randomBytes } from 'node:crypto';
import { HOST_RESOLVER, type HostResolver } from '../../src/events/url-safety/url-safety';
import { startTestPushService, type TestPushService } from '../../src/sandbox/push/test-push-service';
import { createAgent, createWorker, type TestWorker } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { liveTestEnv } from '../support/live-env';
import { subscribeAtTestPushService } from '../support/web-push-client';

/**
 * POST/DELETE /v1/worker/push-subscriptions and /v1/worker/notification-settings (product-decisions §16): a browser's
 * PushSubscription is checked (an endpoint the service may connect to, keys that can be encrypted to) and stored for
 * its worker; the settings say whether offers come by SMS and give the VAPID key to subscribe with.
 */
describe('push subscriptions and notification settings', () => {
  let t: TestApp;
  let push: TestPushService;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
    push = await startTestPushService();
  });
  afterAll(async () => {
    await push.stop();
    await t.close();
  });

  const subscription = () => subscribeAtTestPushService(push.baseUrl, t.config.webPush.publicKey);
  const register = (w: TestWorker, body: unknown, prefix = '/v1') =>
    t.http
      .post(`${prefix}/worker/push-subscriptions`)
      .set('Authorization', w.bearer)
      .send(body as object);
  const settings = (w: TestWorker) =>
    t.http.get('/v1/worker/notification-settings').set('Authorization', w.bearer).expect(200);
  const stored = async (): Promise<number> => {
    const [{ n }]: { n: number }[] = await t.db.query(`SELECT count(*)::int AS n FROM push_subscriptions`);
    return n;
  };

  it('settings start with offer SMS on, money SMS off, no device, and the VAPID public key to subscribe with', async () => {
    const w = await createWorker(t);
    expect((await settings(w)).body).toEqual({
      offer_sms: true,
      money_sms: false,
      push: { vapid_public_key: t.config.webPush.publicKey, devices: 0 },
    });
    expect(Buffer.from(t.config.webPush.publicKey, 'base64url')).toHaveLength(65);
  });

  it('registers a PushSubscription as the browser writes it, once per endpoint, on both surfaces', async () => {
    const w = await createWorker(t);
    const sub = await subscription();
    const first = await register(w, sub.toJSON()).expect(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      endpoint: sub.endpoint,
      locale: 'zh-CN',
      expires_at: null,
      created_at: expect.any(String),
    });
    const again = await register(
      w,
      { ...sub.toJSON(), locale: 'en', expirationTime: 4102444800000 },
      '/api/v1',
    );
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({
      id: first.body.id,
      locale: 'en',
      expires_at: '2100-01-01T00:00:00.000Z',
    });
    expect((await settings(w)).body.push.devices).toBe(1);
  });

  it('an endpoint registered by another worker moves to them: a shared phone never gets the previous worker’s offers', async () => {
    const [a, b] = [await createWorker(t), await createWorker(t)];
    const sub = await subscription();
    await register(a, sub.toJSON()).expect(201);
    await register(b, sub.toJSON()).expect(201);
    expect((await settings(a)).body.push.devices).toBe(0);
    expect((await settings(b)).body.push.devices).toBe(1);
  });

  it('keeps at most 10 devices a worker: an 11th replaces the longest unchanged', async () => {
    const w = await createWorker(t);
    const subs = [];
    for (let i = 0; i < 11; i++) {
      subs.push(await subscription());
      await register(w, subs[i].toJSON()).expect(201);
      t.clock.advance(1000);
    }
    expect((await settings(w)).body.push.devices).toBe(10);
    const rows: { endpoint: string }[] = await t.db.query(
      `SELECT endpoint FROM push_subscriptions WHERE worker_id = $1`,
      [w.id],
    );
    expect(rows.map((r) => r.endpoint)).not.toContain(subs[0].endpoint);
  });

  const point = () => {
    const e = createECDH('prime256v1');
    e.generateKeys();
    return e.getPublicKey().toString('base64url');
  };
  it.each([
    ['a p256dh of the wrong length', { p256dh: randomBytes(33).toString('base64url') }, 'keys.p256dh'],
    [
      'a p256dh that is no point of the curve',
      { p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url') },
      'keys.p256dh',
    ],
    ['an auth secret of 12 bytes', { auth: randomBytes(12).toString('base64url') }, 'keys.auth'],
    ['an auth that is not base64url', { auth: 'not base64!' }, 'keys.auth'],
  ])('refuses %s with validation_error, storing nothing', async (_what, keys, field) => {
    const w = await createWorker(t);
    const sub = await subscription();
    const before = await stored();
    const body = sub.toJSON();
    const res = await register(w, { ...body, keys: { ...body.keys, ...keys } }).expect(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field })]);
    expect(await stored()).toBe(before);
  });

  it.each([
    ['not a URL', 'push me', 'endpoint'],
    ['another scheme', 'ftp://push.example/x', 'endpoint'],
    ['cloud metadata (link-local), refused even in sandbox', 'http://169.254.169.254/latest', 'endpoint'],
  ])('refuses an endpoint that is %s', async (_what, endpoint, field) => {
    const w = await createWorker(t);
    const res = await register(w, {
      endpoint,
      keys: { p256dh: point(), auth: randomBytes(16).toString('base64url') },
    }).expect(400);
    expect(res.body.error.details).toEqual([expect.objectContaining({ field })]);
  });

  it('refuses a body without keys, with an unknown field, or with a locale it does not speak', async () => {
    const w = await createWorker(t);
    const sub = (await subscription()).toJSON();
    await register(w, { endpoint: sub.endpoint }).expect(400);
    await register(w, { ...sub, userVisibleOnly: true }).expect(400);
    await register(w, { ...sub, locale: 'fr' }).expect(400);
  });

  it('DELETE by endpoint removes only your own subscription; a second time is 404', async () => {
    const [a, b] = [await createWorker(t), await createWorker(t)];
    const sub = await subscription();
    await register(a, sub.toJSON()).expect(201);
    const remove = (w: TestWorker) =>
      t.http
        .delete('/v1/worker/push-subscriptions')
        .query({ endpoint: sub.endpoint })
        .set('Authorization', w.bearer);
    expect((await remove(b).expect(404)).body.error.code).toBe('not_found');
    await remove(a).expect(204);
    await remove(a).expect(404);
    expect((await settings(a)).body.push.devices).toBe(0);
  });

  it('PUT notification-settings turns offer SMS and money SMS off and on; anything but a boolean is refused', async () => {
    const w = await createWorker(t);
    const put = (body: unknown) =>
      t.http
        .put('/v1/worker/notification-settings')
        .set('Authorization', w.bearer)
        .send(body as object);
    expect((await put({ offer_sms: false }).expect(200)).body.offer_sms).toBe(false);
    expect((await settings(w)).body.offer_sms).toBe(false);
    for (const bad of [{ offer_sms: 'false' }, {}, { offer_sms: null }, { offer_sms: true, push: true }]) {
      expect((await put(bad).expect(400)).body.error.code).toBe('validation_error');
    }
    expect((await settings(w)).body.offer_sms).toBe(false);
    expect((await put({ offer_sms: true }).expect(200)).body.offer_sms).toBe(true);
    // Money SMS have their own switch; a setting left out stays as it is.
    expect((await put({ money_sms: true }).expect(200)).body).toMatchObject({
      offer_sms: true,
      money_sms: true,
    });
    expect((await put({ offer_sms: false }).expect(200)).body).toMatchObject({
      offer_sms: false,
      money_sms: true,
    });
    expect((await put({ money_sms: 'yes' }).expect(400)).body.error.code).toBe('validation_error');
  });

  it('is for workers: an agent is refused', async () => {
    const agent = await createAgent(t);
    const res = await t.http.get('/v1/worker/notification-settings').set('Authorization', agent.key);
    expect(res.status).toBe(403);
    await t.http.post('/v1/worker/push-subscriptions').send({}).expect(401);
  });
});

describe('push subscription endpoints in live mode', () => {
  let t: TestApp;
  const resolver: HostResolver = async (host) =>
    host === 'fcm.googleapis.com'
      ? [{ address: '142.250.66.202', family: 4 }]
      : [{ address: '10.0.0.8', family: 4 }];
  beforeAll(async () => {
    const { DATABASE_URL: _unused, ...env } = liveTestEnv({ JOBS_IN_PROCESS: 'false' });
    t = await createTestApp(env, { overrides: [{ provide: HOST_RESOLVER, useValue: resolver }] });
  });
  afterAll(() => t.close());

  const keys = () => {
    const e = createECDH('prime256v1');
    e.generateKeys();
    return { p256dh: e.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
  };

  it.each([
    ['http', 'http://fcm.googleapis.com/fcm/send/abc', 'must use https'],
    ['loopback', 'https://127.0.0.1:8103/push/abc', 'loopback'],
    ['a name resolving to a private address', 'https://push.internal.example/abc', 'private network'],
  ])('refuses an endpoint over %s, as webhook URLs are', async (_what, endpoint, words) => {
    const w = await createWorker(t);
    const res = await t.http
      .post('/v1/worker/push-subscriptions')
      .set('Authorization', w.bearer)
      .send({ endpoint, keys: keys() })
      .expect(400);
    expect(res.body.error.details).toEqual([{ field: 'endpoint', message: expect.stringContaining(words) }]);
  });

  it("accepts a browser vendor's https push service", async () => {
    const w = await createWorker(t);
    await t.http
      .post('/v1/worker/push-subscriptions')
      .set('Authorization', w.bearer)
      .send({ endpoint: 'https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91b', keys: keys() })
      .expect(201);
  });
});
