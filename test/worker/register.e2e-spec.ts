import { TestApp } from '../support/app';
import { bearer, createWorkerTestApp, newPhone, registerWorker, sendCode, wrongCode } from './worker-helpers';

describe('POST /v1/worker/register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createWorkerTestApp();
  });
  afterAll(() => t.close());

  const register = (body: Record<string, unknown>) => t.http.post('/v1/worker/register').send(body);
  const workerCount = async (phone: string): Promise<number> => {
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM workers WHERE phone_number = $1`,
      [phone],
    );
    return n;
  };

  it('registers with the sandbox code: 201 token pair and worker_id; the access token opens the profile', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, 'register');
    const res = await register({
      phone_number: phone,
      password: 'a-long-password',
      sms_code: code,
      display_name: 'Li Wei',
      skills: ['photography', 'delivery'],
    }).expect(201);
    expect(res.body).toEqual({
      worker_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 900,
    });
    const profile = await t.http
      .get('/v1/worker/profile')
      .set(...bearer(res.body.access_token))
      .expect(200);
    expect(profile.body).toMatchObject({
      worker_id: res.body.worker_id,
      phone_number: phone,
      display_name: 'Li Wei',
      skills: ['photography', 'delivery'],
      account_status: 'active',
    });
    // The code was consumed by the registration.
    const [row]: { consumed: boolean }[] = await t.db.query(
      `SELECT consumed_at IS NOT NULL AS consumed FROM sms_codes WHERE phone_number = $1`,
      [phone],
    );
    expect(row.consumed).toBe(true);
  });

  it('is served on /api/v1 too, with optional fields left out', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    const res = await t.http
      .post('/api/v1/worker/register')
      .send({ phone_number: phone, password: '12345678', sms_code: code })
      .expect(201);
    const profile = await t.http
      .get('/api/v1/worker/profile')
      .set(...bearer(res.body.access_token))
      .expect(200);
    expect(profile.body).toMatchObject({ display_name: null, skills: [] });
  });

  it('names every missing field', async () => {
    const res = await register({}).expect(400);
    expect(res.body.error.code).toBe('validation_error');
    const fields = new Set((res.body.error.details as { field: string }[]).map((d) => d.field));
    expect(fields).toEqual(new Set(['phone_number', 'password', 'sms_code']));
  });

  it.each([
    ['a bad phone', { phone_number: '1380013800' }, 'phone_number'],
    ['a non-mobile phone', { phone_number: '10800138000' }, 'phone_number'],
    ['a numeric phone', { phone_number: 13800138000 }, 'phone_number'],
    ['a 7-character password', { password: '1234567' }, 'password'],
    ['a 129-character password', { password: 'x'.repeat(129) }, 'password'],
    ['a 5-digit code', { sms_code: '12345' }, 'sms_code'],
    ['an empty display_name', { display_name: '' }, 'display_name'],
    ['a blank display_name', { display_name: '   ' }, 'display_name'],
    ['a 51-character display_name', { display_name: 'n'.repeat(51) }, 'display_name'],
    ['an unknown skill', { skills: ['photography', 'juggling'] }, 'skills'],
    ['skills that is not an array', { skills: 'photography' }, 'skills'],
    ['duplicate skills', { skills: ['delivery', 'delivery'] }, 'skills'],
    ['more than 20 skills', { skills: Array.from({ length: 21 }, () => 'other') }, 'skills'],
    ['an unknown field', { referral: 'x' }, 'referral'],
  ])('rejects %s with validation_error naming the field', async (_name, patch, field) => {
    const phone = newPhone();
    const res = await register({
      phone_number: phone,
      password: 'a-long-password',
      sms_code: '123456',
      ...patch,
    }).expect(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]),
    );
    expect((res.body.error.details as { field: string }[]).every((d) => d.field === field)).toBe(true);
  });

  it('a wrong code is 400 invalid_sms_code and creates no worker', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    const res = await register({
      phone_number: phone,
      password: '12345678',
      sms_code: wrongCode(code),
    }).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_sms_code', attempts_remaining: 4 });
    expect(await workerCount(phone)).toBe(0);
    // The failed try was recorded even though the registration rolled back.
    const [row]: { attempts: number }[] = await t.db.query(
      `SELECT attempts FROM sms_codes WHERE phone_number = $1`,
      [phone],
    );
    expect(row.attempts).toBe(1);
  });

  it('without any code sent it is 400 invalid_sms_code', async () => {
    const res = await register({ phone_number: newPhone(), password: '12345678', sms_code: '123456' }).expect(
      400,
    );
    expect(res.body.error.code).toBe('invalid_sms_code');
  });

  it('an expired code is 400 invalid_sms_code', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    t.clock.advanceMinutes(5);
    const res = await register({ phone_number: phone, password: '12345678', sms_code: code }).expect(400);
    expect(res.body.error.code).toBe('invalid_sms_code');
    expect(await workerCount(phone)).toBe(0);
  });

  it('a burnt code (5 wrong tries) cannot register', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    for (let i = 0; i < 5; i++) {
      await register({ phone_number: phone, password: '12345678', sms_code: wrongCode(code) }).expect(400);
    }
    const res = await register({ phone_number: phone, password: '12345678', sms_code: code }).expect(400);
    expect(res.body.error.code).toBe('invalid_sms_code');
  });

  it('a code sent for another purpose cannot register', async () => {
    // Login codes are only shown for registered numbers: get one, then remove the account.
    const w = await registerWorker(t);
    const login = await sendCode(t, w.phone, 'login');
    await t.db.query(`DELETE FROM workers WHERE id = $1`, [w.workerId]);
    const res = await register({ phone_number: w.phone, password: '12345678', sms_code: login }).expect(400);
    expect(res.body.error.code).toBe('invalid_sms_code');
    expect(await workerCount(w.phone)).toBe(0);
  });

  it('a registered number is 409 phone_taken', async () => {
    const w = await registerWorker(t);
    const res = await register({ phone_number: w.phone, password: '12345678', sms_code: '123456' }).expect(
      409,
    );
    expect(res.body.error.code).toBe('phone_taken');
    expect(await workerCount(w.phone)).toBe(1);
  });

  it('a code is single use', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    await register({ phone_number: phone, password: '12345678', sms_code: code }).expect(201);
    await t.db.query(`DELETE FROM workers WHERE phone_number = $1`, [phone]);
    // Even with the account gone, the consumed code cannot create another.
    const res = await register({ phone_number: phone, password: '12345678', sms_code: code }).expect(400);
    expect(res.body.error.code).toBe('invalid_sms_code');
  });

  it('two registrations with one code at once: exactly one succeeds', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    const results = await Promise.all(
      ['first-password', 'second-password'].map((password) =>
        register({ phone_number: phone, password, sms_code: code }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(201);
    expect([400, 409]).toContain(statuses[1]);
    const loser = results.find((r) => r.status !== 201)!;
    expect(['invalid_sms_code', 'phone_taken']).toContain(loser.body.error.code);
    expect(await workerCount(phone)).toBe(1);
  });

  it('six registrations with one code at once: exactly one worker, one token family', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        register({ phone_number: phone, password: `password-${i}`, sms_code: code }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.every((r) => [201, 400, 409].includes(r.status))).toBe(true);
    expect(await workerCount(phone)).toBe(1);
    const winner = results.find((r) => r.status === 201)!;
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM refresh_tokens WHERE subject_id = $1`,
      [winner.body.worker_id],
    );
    expect(n).toBe(1);
  });
});
