import { ApiError } from '../../src/common/errors/api-error';
import { SMS_GATEWAY, type SmsGateway } from '../../src/sms/sms-gateway';
import { createTestApp, TestApp } from '../support/app';
import { createWorkerTestApp, newPhone, registerWorker, sendCode, wrongCode } from './worker-helpers';

const MINUTE = 60_000;

describe('worker SMS codes: send-sms and verify-sms', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createWorkerTestApp();
  });
  afterAll(() => t.close());

  const send = (phone: string, purpose?: string) =>
    t.http
      .post('/v1/worker/send-sms')
      .query(purpose ? { phone_number: phone, purpose } : { phone_number: phone });
  const verify = (phone: string, code: string, purpose = 'register') =>
    t.http.post('/v1/worker/verify-sms').query({ phone_number: phone, code, purpose });
  const openCodes = async (phone: string): Promise<{ purpose: string; attempts: number }[]> =>
    t.db.query(
      `SELECT purpose, attempts FROM sms_codes
        WHERE phone_number = $1 AND consumed_at IS NULL AND superseded_at IS NULL`,
      [phone],
    );

  it('sends a register code by default and returns it as sandbox_code in sandbox mode', async () => {
    const phone = newPhone();
    const res = await send(phone).expect(200);
    expect(res.body).toEqual({
      sent: true,
      expires_in_seconds: 300,
      resend_after_seconds: 60,
      sandbox_code: expect.stringMatching(/^\d{6}$/),
    });
    expect(await openCodes(phone)).toEqual([{ purpose: 'register', attempts: 0 }]);
    await verify(phone, res.body.sandbox_code).expect(200, { valid: true });
  });

  it('is served on /api/v1 too', async () => {
    const res = await t.http
      .post('/api/v1/worker/send-sms')
      .query({ phone_number: newPhone(), purpose: 'register' })
      .expect(200);
    expect(res.body.sandbox_code).toMatch(/^\d{6}$/);
  });

  it('keeps the sandbox message in the SMS outbox instead of sending it', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    const rows: { template: string; params: Record<string, unknown>; text: string }[] = await t.db.query(
      `SELECT template, params, text FROM sandbox_sms WHERE phone_number = $1`,
      [phone],
    );
    expect(rows).toEqual([
      {
        template: 'verification_code',
        params: { code, purpose: 'register', ttl_minutes: 5 },
        text: expect.stringContaining(code),
      },
    ]);
  });

  it.each([
    [{ phone_number: '12345' }, 'phone_number'],
    [{ phone_number: '12800138000' }, 'phone_number'],
    [{ phone_number: '138001380001' }, 'phone_number'],
    [{}, 'phone_number'],
    [{ phone_number: '13800138000', purpose: 'spam' }, 'purpose'],
    [{ phone_number: '13800138000', extra: '1' }, 'extra'],
  ])('rejects %j with validation_error naming %s', async (query, field) => {
    const res = await t.http.post('/v1/worker/send-sms').query(query).expect(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]),
    );
  });

  it('validates verify-sms parameters (code must be 6 digits)', async () => {
    const res = await verify(newPhone(), '12ab').expect(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'code' })]);
  });

  it('refuses a register code for a registered number with 409 phone_taken', async () => {
    const w = await registerWorker(t);
    const res = await send(w.phone, 'register').expect(409);
    expect(res.body.error.code).toBe('phone_taken');
  });

  it('sends login and reset_password codes to registered numbers', async () => {
    const w = await registerWorker(t);
    const login = await sendCode(t, w.phone, 'login');
    await verify(w.phone, login, 'login').expect(200);
    const reset = await sendCode(t, w.phone, 'reset_password');
    await verify(w.phone, reset, 'reset_password').expect(200);
  });

  it('answers an unknown number the same for login and reset_password, but sends nothing', async () => {
    const phone = newPhone();
    for (const purpose of ['login', 'reset_password']) {
      const res = await send(phone, purpose).expect(200);
      expect(res.body).toEqual({ sent: true, expires_in_seconds: 300, resend_after_seconds: 60 });
    }
    // The row still exists so limits behave exactly as for a real number.
    expect(await openCodes(phone)).toHaveLength(2);
    await send(phone, 'login').expect(429);
  });

  it('verify-sms does not consume the code', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    await verify(phone, code).expect(200);
    await verify(phone, code).expect(200);
    await t.http
      .post('/v1/worker/register')
      .send({ phone_number: phone, password: 'correct horse', sms_code: code })
      .expect(201);
  });

  it('a code only works for its purpose', async () => {
    const w = await registerWorker(t);
    const code = await sendCode(t, w.phone, 'login');
    const res = await verify(w.phone, code, 'reset_password').expect(400);
    expect(res.body.error.code).toBe('invalid_sms_code');
  });

  it('a wrong code is 400 invalid_sms_code and counts a try', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    const res = await verify(phone, wrongCode(code)).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_sms_code', attempts_remaining: 4 });
    expect(await openCodes(phone)).toEqual([{ purpose: 'register', attempts: 1 }]);
    await verify(phone, code).expect(200);
  });

  it('five wrong tries burn the code: the right one then fails too', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    for (let i = 4; i >= 0; i--) {
      const res = await verify(phone, wrongCode(code)).expect(400);
      expect(res.body.error.attempts_remaining).toBe(i);
    }
    const res = await verify(phone, code).expect(400);
    expect(res.body.error.code).toBe('invalid_sms_code');
    expect(res.body.error.attempts_remaining).toBeUndefined();
  });

  it('parallel wrong guesses never exceed five counted tries', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    const guesses = Array.from({ length: 12 }, (_, i) =>
      String((Number(code) + 1 + i) % 1e6).padStart(6, '0'),
    );
    const results = await Promise.all(guesses.map((g) => verify(phone, g)));
    expect(results.every((r) => r.status === 400)).toBe(true);
    const [row]: { attempts: number }[] = await t.db.query(
      `SELECT attempts FROM sms_codes WHERE phone_number = $1`,
      [phone],
    );
    expect(row.attempts).toBe(5);
    await verify(phone, code).expect(400);
  });

  it('a code expires after 5 minutes', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    t.clock.advance(5 * MINUTE - 2000);
    await verify(phone, code).expect(200);
    t.clock.advance(2000);
    const res = await verify(phone, code).expect(400);
    expect(res.body.error.code).toBe('invalid_sms_code');
  });

  it('a second send within a minute is 429 rate_limit_exceeded with retry_after', async () => {
    const phone = newPhone();
    await sendCode(t, phone);
    t.clock.advance(20_000);
    const res = await send(phone, 'register').expect(429);
    expect(res.body.error.code).toBe('rate_limit_exceeded');
    expect(res.body.error.retry_after).toBeGreaterThanOrEqual(39);
    expect(res.body.error.retry_after).toBeLessThanOrEqual(41);
    expect(res.headers['retry-after']).toBe(String(res.body.error.retry_after));
    // Another purpose is counted separately.
    await send(phone, 'login').expect(200);
  });

  it('a new code supersedes the previous one', async () => {
    const phone = newPhone();
    const first = await sendCode(t, phone);
    t.clock.advance(MINUTE);
    const second = await sendCode(t, phone);
    if (first !== second) await verify(phone, first).expect(400);
    await verify(phone, second).expect(200);
    const rows: { superseded: boolean }[] = await t.db.query(
      `SELECT superseded_at IS NOT NULL AS superseded FROM sms_codes WHERE phone_number = $1 ORDER BY created_at`,
      [phone],
    );
    expect(rows).toEqual([{ superseded: true }, { superseded: false }]);
  });

  it('the 11th send in a day is 429; the oldest send leaving the 24-hour window frees a slot', async () => {
    const phone = newPhone();
    for (let i = 0; i < 10; i++) {
      await send(phone, 'register').expect(200);
      t.clock.advance(61_000);
    }
    const res = await send(phone, 'register').expect(429);
    expect(res.body.error.code).toBe('rate_limit_exceeded');
    const expected = 24 * 3600 - 10 * 61;
    expect(res.body.error.retry_after).toBeGreaterThanOrEqual(expected - 2);
    expect(res.body.error.retry_after).toBeLessThanOrEqual(expected + 2);
    await send(phone, 'login').expect(429); // the daily limit is per number, whatever the purpose
    t.clock.advance(res.body.error.retry_after * 1000);
    await send(phone, 'register').expect(200);
  });

  it('parallel sends to one number respect both limits', async () => {
    const phone = newPhone();
    const sameMinute = await Promise.all(Array.from({ length: 6 }, () => send(phone, 'register')));
    expect(sameMinute.map((r) => r.status).sort()).toEqual([200, 429, 429, 429, 429, 429]);
    for (let i = 0; i < 7; i++) {
      t.clock.advance(61_000);
      await send(phone, 'register').expect(200);
    }
    // 8 sent; three purposes at once may only add 2.
    t.clock.advance(61_000);
    const lastSlots = await Promise.all(['register', 'login', 'reset_password'].map((p) => send(phone, p)));
    expect(lastSlots.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM sms_codes WHERE phone_number = $1`,
      [phone],
    );
    expect(n).toBe(10);
  });

  it('a gateway failure passes through and releases the code, so an immediate retry is allowed', async () => {
    const gateway = t.app.get<SmsGateway>(SMS_GATEWAY);
    const spy = jest
      .spyOn(gateway, 'send')
      .mockRejectedValueOnce(new ApiError('service_unavailable', 'down', { retry_after: 300 }))
      .mockRejectedValueOnce(new Error('socket hang up'));
    try {
      const phone = newPhone();
      const down = await send(phone, 'register').expect(503);
      expect(down.body.error).toMatchObject({ code: 'service_unavailable', retry_after: 300 });
      const broken = await send(phone, 'register').expect(502);
      expect(broken.body.error.code).toBe('provider_error');
      expect(await openCodes(phone)).toEqual([]);
      await sendCode(t, phone);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('worker SMS endpoints: per-IP limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('public worker auth routes share a per-IP budget (AUTH_RATE_LIMIT_PER_MINUTE)', async () => {
    // The budget is a fixed one-minute window on the application clock. The clock is held 1 ms before a minute
    // turns over, so all four requests fall in the same window however slowly the machine answers, and the last
    // millisecond of a window is where a boundary would otherwise split them. Held first, then moved: measured on
    // a running clock, the distance to the boundary goes stale before the hold and can land past it.
    t.clock.hold();
    t.clock.advance(60_000 - (t.clock.now().getTime() % 60_000) - 1);
    try {
      const windowEnd = Math.ceil(t.clock.now().getTime() / 60_000) * 60;
      const answers = [
        await t.http.post('/v1/worker/send-sms').query({ phone_number: newPhone() }).expect(200),
        await t.http
          .post('/v1/worker/verify-sms')
          .query({ phone_number: newPhone(), code: '000000' })
          .expect(400),
        await t.http.post('/v1/worker/login').send({ phone_number: newPhone(), password: 'x' }).expect(401),
      ];
      const res = await t.http.post('/v1/worker/register').send({}).expect(429);
      expect(res.body.error.code).toBe('rate_limit_exceeded');
      // Every answer reports the same window, ending at that minute; the refusal says to come back when it ends.
      for (const [i, a] of [...answers, res].entries()) {
        expect(a.headers['x-ratelimit-limit']).toBe('3');
        expect(a.headers['x-ratelimit-reset']).toBe(String(windowEnd));
        expect(a.headers['x-ratelimit-remaining']).toBe(String(Math.max(0, 2 - i)));
      }
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body.error.retry_after).toBe(1);
      // Once the window has turned over, the budget is fresh.
      t.clock.advance(1);
      const next = await t.http.post('/v1/worker/register').send({}).expect(400);
      expect(next.headers['x-ratelimit-reset']).toBe(String(windowEnd + 60));
      expect(next.headers['x-ratelimit-remaining']).toBe('2');
    } finally {
      t.clock.release();
    }
  });
});
