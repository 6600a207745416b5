import { createAgent } from '../support/actors';
import { type TestApp } from '../support/app';
import { createWorkerTestApp, newPhone, registerWorker, sendCode } from '../worker/worker-helpers';

/**
 * GET /v1/sandbox/sms (product-decisions §16): sandbox mode sends no SMS, it keeps them; a worker reads those sent to
 * their own number and nobody else's, so the outbox shows no one more than the send answer's sandbox_code already
 * did. (Live mode: not mounted, test/simulation/live-mode.e2e-spec.ts.)
 */
describe('sandbox SMS outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createWorkerTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  const outbox = (token: string, query: Record<string, string> = {}, prefix = '/v1') =>
    t.http.get(`${prefix}/sandbox/sms`).query(query).set('Authorization', `Bearer ${token}`);

  it("lists a worker's own messages, newest first, on both surfaces", async () => {
    const w = await registerWorker(t);
    t.clock.advance(61_000);
    const login = await sendCode(t, w.phone, 'login');
    const res = await outbox(w.accessToken).expect(200);
    expect(res.body.messages).toEqual([
      {
        id: expect.any(String),
        to: w.phone,
        template: 'verification_code',
        params: { code: login, purpose: 'login', ttl_minutes: 5 },
        text: expect.stringContaining(login),
        sent_at: expect.any(String),
      },
      expect.objectContaining({
        template: 'verification_code',
        params: expect.objectContaining({ purpose: 'register' }),
      }),
    ]);
    const api = await outbox(w.accessToken, { limit: '1' }, '/api/v1').expect(200);
    expect(api.body.messages).toEqual([res.body.messages[0]]);
  });

  it("never shows another number's messages, nor codes of numbers without an account", async () => {
    const [a, b] = [await registerWorker(t), await registerWorker(t)];
    const stranger = newPhone();
    await sendCode(t, stranger);
    for (const w of [a, b]) {
      const { messages } = (await outbox(w.accessToken).expect(200)).body as { messages: { to: string }[] };
      expect(messages.map((m) => m.to)).toEqual([w.phone]);
    }
  });

  it('is for workers: no token is 401, an agent is 403, a bad limit is 400', async () => {
    await t.http.get('/v1/sandbox/sms').expect(401);
    const agent = await createAgent(t);
    await t.http.get('/v1/sandbox/sms').set('Authorization', agent.key).expect(403);
    const w = await registerWorker(t);
    for (const limit of ['0', '101', 'ten']) {
      expect((await outbox(w.accessToken, { limit }).expect(400)).body.error.code).toBe('validation_error');
    }
  });
});
