import { TestApp } from '../support/app';
import { bearer, createWorkerTestApp, newPhone, registerWorker, sendCode, wrongCode } from './worker-helpers';
import { AuthCache } from '../../src/auth/auth-cache';
import { Tokens } from '../../src/auth/tokens';
import { expectError } from '../support/errors';

describe('worker sessions: login, refresh, reset-password, lock-out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createWorkerTestApp();
  });
  afterAll(() => t.close());

  const login = (phone_number: string, password: string) =>
    t.http.post('/v1/worker/login').send({ phone_number, password });
  const refresh = (refresh_token: string) => t.http.post('/v1/worker/refresh').send({ refresh_token });
  const reset = (phone_number: string, code: string, new_password: string) =>
    t.http.post('/v1/worker/reset-password').query({ phone_number, code, new_password });

  describe('login', () => {
    it('answers a token pair with worker_id', async () => {
      const w = await registerWorker(t);
      const res = await login(w.phone, w.password).expect(200);
      expect(res.body).toEqual({
        worker_id: w.workerId,
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
      });
      await t.http
        .get('/v1/worker/profile')
        .set(...bearer(res.body.access_token))
        .expect(200);
    });

    it('is served on /api/v1 too', async () => {
      const w = await registerWorker(t);
      await t.http
        .post('/api/v1/worker/login')
        .send({ phone_number: w.phone, password: w.password })
        .expect(200);
    });

    it('a wrong password and an unknown number both answer 401 invalid_credentials, alike', async () => {
      const w = await registerWorker(t);
      const wrong = await login(w.phone, 'not-the-password').expect(401);
      const unknown = await login(newPhone(), 'not-the-password').expect(401);
      expect(wrong.body.error.code).toBe('invalid_credentials');
      // Alike but for the request id.
      expect(unknown.body.error).toEqual({
        ...wrong.body.error,
        request_id: unknown.headers['x-request-id'],
      });
    });

    it('validates the body with field names', async () => {
      const res = await t.http.post('/v1/worker/login').send({ phone_number: '123' }).expect(400);
      expect(res.body.error.code).toBe('validation_error');
      const fields = (res.body.error.details as { field: string }[]).map((d) => d.field).sort();
      expect([...new Set(fields)]).toEqual(['password', 'phone_number']);
    });

    it('10 failures in 15 minutes lock the account for 15 minutes (429 account_locked), even for the right password', async () => {
      const w = await registerWorker(t);
      for (let i = 0; i < 10; i++) await login(w.phone, `wrong-${i}`).expect(401);
      const locked = await login(w.phone, w.password).expect(429);
      expect(locked.body.error.code).toBe('account_locked');
      expect(locked.body.error.retry_after).toBeGreaterThan(14 * 60);
      expect(locked.body.error.retry_after).toBeLessThanOrEqual(15 * 60);
      expect(locked.headers['retry-after']).toBe(String(locked.body.error.retry_after));
      t.clock.advanceMinutes(15);
      await login(w.phone, w.password).expect(200);
    });

    it('failures spread over more than 15 minutes do not lock', async () => {
      const w = await registerWorker(t);
      for (let i = 0; i < 9; i++) await login(w.phone, `wrong-${i}`).expect(401);
      t.clock.advanceMinutes(16);
      await login(w.phone, 'wrong-again').expect(401);
      await login(w.phone, w.password).expect(200);
    });

    it('a suspended worker cannot log in, refresh or use an access token (403 account_disabled)', async () => {
      const w = await registerWorker(t);
      await t.db.query(`UPDATE workers SET account_status = 'suspended' WHERE id = $1`, [w.workerId]);
      // Plain SQL, not the API: wait until the credential cache has the trigger's notification.
      await t.app.get(AuthCache).settled();
      expect((await login(w.phone, w.password).expect(403)).body.error.code).toBe('account_disabled');
      expect((await refresh(w.refreshToken).expect(403)).body.error.code).toBe('account_disabled');
      const profile = await t.http
        .get('/v1/worker/profile')
        .set(...bearer(w.accessToken))
        .expect(403);
      expect(profile.body.error.code).toBe('account_disabled');
    });
  });

  describe('refresh', () => {
    it('rotates the pair', async () => {
      const w = await registerWorker(t);
      const res = await refresh(w.refreshToken).expect(200);
      expect(res.body).toEqual({
        worker_id: w.workerId,
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
      });
      expect(res.body.refresh_token).not.toBe(w.refreshToken);
      await t.http
        .get('/v1/worker/profile')
        .set(...bearer(res.body.access_token))
        .expect(200);
      await refresh(res.body.refresh_token).expect(200);
    });

    it('reusing a spent refresh token is 401 invalid_token and ends the whole session', async () => {
      const w = await registerWorker(t);
      const next = await refresh(w.refreshToken).expect(200);
      const reuse = await refresh(w.refreshToken).expect(401);
      expect(reuse.body.error.code).toBe('invalid_token');
      // The thief's (or the owner's) newer token is revoked with the family.
      expect((await refresh(next.body.refresh_token).expect(401)).body.error.code).toBe('invalid_token');
    });

    it('two refreshes with one token at once: one wins, and the reuse ends the session for both', async () => {
      const w = await registerWorker(t);
      const results = await Promise.all([refresh(w.refreshToken), refresh(w.refreshToken)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
      const winner = results.find((r) => r.status === 200)!;
      expect((await refresh(winner.body.refresh_token).expect(401)).body.error.code).toBe('invalid_token');
    });

    it('a family stays dead: a token issued before the revocation is refused too', async () => {
      const w = await registerWorker(t);
      const next = await refresh(w.refreshToken).expect(200);
      // Simulate the race: the family is revoked through the old token only, while the new row is untouched.
      await t.db.query(
        `UPDATE refresh_tokens SET revoked_at = now() WHERE token_hash = encode(sha256($1), 'hex')`,
        [w.refreshToken],
      );
      expect((await refresh(next.body.refresh_token).expect(401)).body.error.code).toBe('invalid_token');
    });

    it('refuses an access token, a garbage token and an expired refresh token', async () => {
      const w = await registerWorker(t);
      expect((await refresh(w.accessToken).expect(401)).body.error.code).toBe('invalid_token');
      expect((await refresh('not.a.jwt').expect(401)).body.error.code).toBe('invalid_token');
      t.clock.advanceHours(7 * 24 + 1);
      expect((await refresh(w.refreshToken).expect(401)).body.error.code).toBe('invalid_token');
    });

    it('validates the body', async () => {
      const res = await t.http.post('/v1/worker/refresh').send({}).expect(400);
      const fields = new Set((res.body.error.details as { field: string }[]).map((d) => d.field));
      expect(fields).toEqual(new Set(['refresh_token']));
    });
  });

  describe('logout', () => {
    const logout = (refresh_token: unknown, prefix = '/v1') =>
      t.http.post(`${prefix}/worker/logout`).send({ refresh_token });

    it('ends the session of the refresh token: a later refresh is 401 invalid_token; logging out again is 204', async () => {
      const w = await registerWorker(t);
      const next = await refresh(w.refreshToken).expect(200);
      const res = await logout(next.body.refresh_token).expect(204);
      expect(res.text).toBe('');
      expectError(await refresh(next.body.refresh_token), 401, 'invalid_token');
      await logout(next.body.refresh_token).expect(204);
      // The access token already issued lives out its 15 minutes; the session cannot be extended.
      await t.http
        .get('/v1/worker/profile')
        .set(...bearer(next.body.access_token))
        .expect(200);
    });

    it('ends only that session: another login of the same worker keeps refreshing', async () => {
      const w = await registerWorker(t);
      const other = await login(w.phone, w.password).expect(200);
      await logout(w.refreshToken, '/api/v1').expect(204);
      expectError(await refresh(w.refreshToken), 401, 'invalid_token');
      await refresh(other.body.refresh_token).expect(200);
    });

    it('refuses an access token, an agent refresh token and garbage (401), a missing token (400)', async () => {
      const w = await registerWorker(t);
      expectError(await logout(w.accessToken), 401, 'invalid_token');
      expectError(await logout('not.a.jwt'), 401, 'invalid_token');
      const agentPair = await t.app.get(Tokens).issuePair('agent', w.workerId);
      expectError(await logout(agentPair.refresh_token), 401, 'invalid_token');
      const missing = await logout(undefined);
      expectError(missing, 400, 'validation_error');
      expect(missing.body.error.details[0].field).toBe('refresh_token');
      // None of the refusals touched the session.
      await refresh(w.refreshToken).expect(200);
    });
  });

  describe('reset-password', () => {
    it('sets the new password, ends every old session and lifts a lock-out', async () => {
      const w = await registerWorker(t);
      const other = await login(w.phone, w.password).expect(200);
      for (let i = 0; i < 10; i++) await login(w.phone, `wrong-${i}`).expect(401);
      await login(w.phone, w.password).expect(429);

      const code = await sendCode(t, w.phone, 'reset_password');
      const res = await reset(w.phone, code, 'brand-new-password').expect(200);
      expect(res.body).toEqual({ reset: true });

      for (const token of [w.refreshToken, other.body.refresh_token]) {
        expect((await refresh(token).expect(401)).body.error.code).toBe('invalid_token');
      }
      await login(w.phone, w.password).expect(401);
      await login(w.phone, 'brand-new-password').expect(200);
    });

    it('is served on /api/v1 too', async () => {
      const w = await registerWorker(t);
      const code = await sendCode(t, w.phone, 'reset_password');
      await t.http
        .post('/api/v1/worker/reset-password')
        .query({ phone_number: w.phone, code, new_password: 'brand-new-password' })
        .expect(200);
    });

    it('a reset code is single use', async () => {
      const w = await registerWorker(t);
      const code = await sendCode(t, w.phone, 'reset_password');
      await reset(w.phone, code, 'brand-new-password').expect(200);
      const again = await reset(w.phone, code, 'another-password').expect(400);
      expect(again.body.error.code).toBe('invalid_sms_code');
      await login(w.phone, 'brand-new-password').expect(200);
    });

    it('two resets with one code at once: exactly one password is set', async () => {
      const w = await registerWorker(t);
      const code = await sendCode(t, w.phone, 'reset_password');
      const results = await Promise.all(
        ['password-one-1', 'password-two-2'].map((p) => reset(w.phone, code, p)),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      const winner = results[0].status === 200 ? 'password-one-1' : 'password-two-2';
      const loser = winner === 'password-one-1' ? 'password-two-2' : 'password-one-1';
      await login(w.phone, loser).expect(401);
      await login(w.phone, winner).expect(200);
    });

    it('a wrong, expired or other-purpose code is 400 invalid_sms_code and changes nothing', async () => {
      const w = await registerWorker(t);
      const code = await sendCode(t, w.phone, 'reset_password');
      expect(
        (await reset(w.phone, wrongCode(code), 'brand-new-password').expect(400)).body.error,
      ).toMatchObject({
        code: 'invalid_sms_code',
        attempts_remaining: 4,
      });
      const loginCode = await sendCode(t, w.phone, 'login');
      await reset(w.phone, loginCode, 'brand-new-password').expect(400);
      t.clock.advanceMinutes(5);
      await reset(w.phone, code, 'brand-new-password').expect(400);
      await login(w.phone, w.password).expect(200);
      await refresh(w.refreshToken).expect(200);
    });

    it('an unknown number: the send looks the same (no code shown) and any code is refused', async () => {
      const phone = newPhone();
      const sent = await t.http
        .post('/v1/worker/send-sms')
        .query({ phone_number: phone, purpose: 'reset_password' })
        .expect(200);
      expect(sent.body.sandbox_code).toBeUndefined();
      const res = await reset(phone, '123456', 'brand-new-password').expect(400);
      expect(res.body.error.code).toBe('invalid_sms_code');
    });

    it.each([
      [{ new_password: 'short' }, 'new_password'],
      [{ new_password: 'x'.repeat(129) }, 'new_password'],
      [{ code: 'abcdef' }, 'code'],
      [{ phone_number: '23800138000' }, 'phone_number'],
    ])('rejects %j with validation_error naming %s', async (patch, field) => {
      const res = await t.http
        .post('/v1/worker/reset-password')
        .query({ phone_number: newPhone(), code: '123456', new_password: 'long-enough', ...patch })
        .expect(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details).toEqual([expect.objectContaining({ field })]);
    });

    it('requires every parameter', async () => {
      const res = await t.http.post('/v1/worker/reset-password').expect(400);
      const fields = new Set((res.body.error.details as { field: string }[]).map((d) => d.field));
      expect(fields).toEqual(new Set(['phone_number', 'code', 'new_password']));
    });
  });
});
