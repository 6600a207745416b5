import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { createWorkerTestApp, newPhone, registerWorker } from './worker-helpers';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const HOUR = 3_600_000;

/**
 * The global hourly SMS budgets (product-decisions §16): registration codes, login/reset codes and offer SMS each
 * draw from their own, beside the per-IP and per-number limits. The finding: 6 source addresses sent 180 codes in
 * half a second. The clock is held a minute into an hour, so every request of a test falls in one budget window.
 */
describe('SMS budgets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createWorkerTestApp({
      TRUST_PROXY: 'true',
      AUTH_RATE_LIMIT_PER_MINUTE: '60',
      SMS_BUDGET_REGISTER_PER_HOUR: '50',
      SMS_BUDGET_LOGIN_PER_HOUR: '2',
    });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.hold();
    t.clock.advance(HOUR - (t.clock.now().getTime() % HOUR) + 60_000);
  });
  afterEach(() => t.clock.release());

  const secondsToHourEnd = () => Math.ceil((HOUR - (t.clock.now().getTime() % HOUR)) / 1000);
  const send = (phone: string, purpose: string, ip = '203.0.113.7') =>
    t.http.post('/v1/worker/send-sms').set('X-Forwarded-For', ip).query({ phone_number: phone, purpose });
  const outboxCount = async (phones: string[]) => {
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM sandbox_sms WHERE phone_number = ANY($1)`,
      [phones],
    );
    return n;
  };

  it('180 register codes from 6 addresses at once: 50 go, 130 are 429 with retry_after to the end of the hour', async () => {
    const phones = Array.from({ length: 180 }, () => newPhone());
    const answers = await Promise.all(phones.map((p, i) => send(p, 'register', `198.51.100.${(i % 6) + 1}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(130);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.error).toMatchObject({
      code: 'rate_limit_exceeded',
      retry_after: secondsToHourEnd(),
    });
    expect(refused.headers['retry-after']).toBe(String(secondsToHourEnd()));
    // Only the codes within the budget exist or were "sent"; a refused number has no code to guess.
    expect(await outboxCount(phones)).toBe(50);
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM sms_codes WHERE phone_number = ANY($1)`,
      [phones],
    );
    expect(n).toBe(50);
  });

  it('login and reset codes have their own budget, counted alike for numbers with and without an account', async () => {
    const worker = await registerWorker(t);
    const unknown = newPhone();
    await send(worker.phone, 'login').expect(200);
    await send(unknown, 'reset_password').expect(200);
    const spent = [await send(worker.phone, 'reset_password'), await send(newPhone(), 'login')];
    // Both refused alike: the answer does not tell which number has an account.
    for (const res of spent) {
      expect(res.status).toBe(429);
      expect(res.body.error).toEqual({
        code: 'rate_limit_exceeded',
        message: expect.any(String),
        retry_after: secondsToHourEnd(),
        request_id: expect.any(String),
      });
    }
    // Sent: the registration code and the one login code; the unknown number's code was never delivered.
    expect(await outboxCount([worker.phone, unknown])).toBe(2);
    // The next hour has a new budget.
    t.clock.advance(secondsToHourEnd() * 1000);
    await send(worker.phone, 'reset_password').expect(200);
  });
});

describe('SMS budgets across instances', () => {
  it('two instances sharing Redis draw from one budget', async () => {
    const env = {
      REDIS_URL,
      REDIS_KEY_PREFIX: `lwtest-${randomUUID()}`,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      SMS_BUDGET_REGISTER_PER_HOUR: '3',
      JOBS_IN_PROCESS: 'false',
    };
    const a = await createTestApp(env);
    const b = await createTestApp(env, { databaseName: a.databaseName });
    try {
      for (const t of [a, b]) {
        t.clock.hold();
        t.clock.advance(HOUR - (Date.now() % HOUR) + 60_000);
      }
      const send = (t: TestApp) => t.http.post('/v1/worker/send-sms').query({ phone_number: newPhone() });
      await send(a).expect(200);
      await send(b).expect(200);
      await send(a).expect(200);
      const res = await send(b).expect(429);
      expect(res.body.error.code).toBe('rate_limit_exceeded');
    } finally {
      await b.close();
      await a.close();
    }
  });
});
