import { createECDH } from 'node:crypto';
import { generateRequestDetails } from 'web-push';
import { generateVapidPrivateKey, vapidPublicKeyOf } from '../../config/notification-config';
import { subscribeAtTestPushService, type TestPushSubscription } from '../../../test/support/web-push-client';
import { startTestPushService, type TestPushService } from './test-push-service';

/** The test push service accepts Web Push as a real push service does, and refuses what one would refuse. */
describe('test push service', () => {
  let service: TestPushService;
  const keyPair = () => {
    const privateKey = generateVapidPrivateKey();
    return { privateKey, publicKey: vapidPublicKeyOf(privateKey)! };
  };
  const vapid = { subject: 'mailto:ops@legwork.example', ...keyPair() };

  beforeAll(async () => {
    service = await startTestPushService({ port: 0 });
  });
  afterAll(() => service.stop());

  async function push(sub: TestPushSubscription, payload: string, over: Partial<typeof vapid> = {}) {
    const request = generateRequestDetails(sub.toJSON(), payload, {
      vapidDetails: { ...vapid, ...over },
      TTL: 90,
      urgency: 'high',
      contentEncoding: 'aes128gcm',
    });
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    return fetch(request.endpoint, { method: 'POST', headers, body: request.body });
  }

  it('keeps an encrypted push that only the subscription keys open, with its TTL, urgency and VAPID claims', async () => {
    const sub = await subscribeAtTestPushService(service.baseUrl, vapid.publicKey);
    const res = await push(sub, JSON.stringify({ hello: '你好' }));
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(/\/messages\//);
    const [message] = await sub.messages();
    expect(message).toMatchObject({
      ttl: 90,
      urgency: 'high',
      content_encoding: 'aes128gcm',
      vapid: { sub: vapid.subject, aud: service.baseUrl, public_key: vapid.publicKey },
    });
    expect(Buffer.from(message.body_base64, 'base64').toString('utf8')).not.toContain('hello');
    expect(JSON.parse(sub.decrypt(message))).toEqual({ hello: '你好' });
  });

  it('refuses a token signed by a key other than the one the subscription was made for (403)', async () => {
    const sub = await subscribeAtTestPushService(service.baseUrl, vapid.publicKey);
    const res = await push(sub, 'x', keyPair());
    expect(res.status).toBe(403);
    expect(await sub.messages()).toEqual([]);
  });

  it('refuses a token whose signature does not match its key k (401)', async () => {
    const sub = await subscribeAtTestPushService(service.baseUrl);
    const request = generateRequestDetails(sub.toJSON(), 'x', { vapidDetails: vapid, TTL: 60 });
    const forged = String(request.headers.Authorization).replace(/k=[A-Za-z0-9_-]+/, () => {
      const k = createECDH('prime256v1');
      k.generateKeys();
      return `k=${k.getPublicKey().toString('base64url')}`;
    });
    const res = await fetch(request.endpoint, {
      method: 'POST',
      headers: { ...stringHeaders(request.headers), Authorization: forged },
      body: request.body,
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/signature/);
  });

  it('refuses a push without TTL (400) or without VAPID (401)', async () => {
    const sub = await subscribeAtTestPushService(service.baseUrl);
    const request = generateRequestDetails(sub.toJSON(), 'x', { vapidDetails: vapid, TTL: 60 });
    const { TTL: _ttl, ...noTtl } = stringHeaders(request.headers);
    expect(
      (await fetch(request.endpoint, { method: 'POST', headers: noTtl, body: request.body })).status,
    ).toBe(400);
    const { Authorization: _auth, ...noVapid } = stringHeaders(request.headers);
    expect(
      (await fetch(request.endpoint, { method: 'POST', headers: noVapid, body: request.body })).status,
    ).toBe(401);
  });

  it('answers 404 for an unknown subscription and 410 once it is withdrawn', async () => {
    const sub = await subscribeAtTestPushService(service.baseUrl);
    await sub.withdraw();
    expect((await push(sub, 'x')).status).toBe(410);
    const unknown = { ...sub, toJSON: () => ({ ...sub.toJSON(), endpoint: `${service.baseUrl}/push/nope` }) };
    expect((await push(unknown, 'x')).status).toBe(404);
  });
});

function stringHeaders(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
}
