import { createHash } from 'node:crypto';
import { createOrUpdateAdmin } from '../../src/admin/admin-accounts';
import { createTestApp, TestApp } from '../support/app';
import { createOperator, OPERATOR_PASSWORD, secretOfUri, totpCode } from '../support/admins';
import { bearer } from '../support/agents';
import { expectError } from '../support/errors';

/**
 * Two-factor sign-in for operators (product-decisions §16): enrolment with a QR code's secret and a first code,
 * recovery codes, the two-step sign-in, replay and lock-out, `admin:create --require-totp` and resets. The codes are
 * computed here from the enrolment secret, at the test clock's time (the server's clock).
 */
describe('operator two-factor sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  const login = (email: string, password = OPERATOR_PASSWORD) =>
    t.http.post('/v1/admin/login').send({ email, password });
  const second = (body: Record<string, unknown>) => t.http.post('/v1/admin/login/totp').send(body);
  const code = (secret: string) => totpCode(secret, t.clock.now());
  /** Codes work once per 30-second step: the next sign-in waits for the next step, on the test clock. */
  const nextStep = () => t.clock.advance(30_000);

  async function passwordSession(email: string): Promise<string> {
    const res = await login(email).expect(200);
    expect(res.body.status).toBe('signed_in');
    return res.body.access_token as string;
  }

  /** An operator with two-factor on, enrolled through the API from a password session. */
  async function enrolled(): Promise<{ id: string; email: string; secret: string; recovery: string[] }> {
    const op = await createOperator(t);
    const access = await passwordSession(op.email);
    const setup = await t.http.post('/v1/admin/me/totp').set(bearer(access)).expect(200);
    const confirmed = await t.http
      .post('/v1/admin/me/totp/confirm')
      .set(bearer(access))
      .send({ code: code(setup.body.secret) })
      .expect(200);
    nextStep();
    return { ...op, secret: setup.body.secret, recovery: confirmed.body.recovery_codes };
  }

  async function signIn(email: string, secret: string): Promise<{ access: string; refresh: string }> {
    const challenge = await login(email).expect(200);
    const res = await second({ challenge_token: challenge.body.challenge_token, code: code(secret) }).expect(
      200,
    );
    nextStep();
    return { access: res.body.access_token, refresh: res.body.refresh_token };
  }

  describe('enrolment while signed in', () => {
    it('shows a secret and its QR URI; the first code turns it on, answers ten recovery codes, ends other sessions', async () => {
      const op = await createOperator(t);
      const access = await passwordSession(op.email);
      const other = await passwordSession(op.email);
      const setup = await t.http.post('/v1/admin/me/totp').set(bearer(access)).expect(200);
      expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
      const uri = new URL(setup.body.otpauth_uri);
      expect(uri.protocol).toBe('otpauth:');
      expect(secretOfUri(setup.body.otpauth_uri)).toBe(setup.body.secret);
      expect(decodeURIComponent(uri.pathname)).toBe(`/Legwork (localhost:8000):${op.email}`);

      const wrong = String((Number(code(setup.body.secret)) + 1) % 1_000_000).padStart(6, '0');
      expectError(
        await t.http.post('/v1/admin/me/totp/confirm').set(bearer(access)).send({ code: wrong }),
        401,
        'invalid_totp_code',
      );
      const confirmed = await t.http
        .post('/v1/admin/me/totp/confirm')
        .set(bearer(access))
        .send({ code: code(setup.body.secret) })
        .expect(200);
      expect(confirmed.body.recovery_codes).toHaveLength(10);
      expect(new Set(confirmed.body.recovery_codes).size).toBe(10);

      // This session goes on; the other one (password alone) is over.
      const me = await t.http.get('/v1/admin/me').set(bearer(access)).expect(200);
      expect(me.body).toMatchObject({ totp_enabled: true, totp_required: false, recovery_codes_left: 10 });
      expectError(await t.http.get('/v1/admin/me').set(bearer(other)), 401, 'invalid_token');
      expectError(await t.http.post('/v1/admin/me/totp').set(bearer(access)), 409, 'invalid_state');
    });

    it('keeps the secret sealed and the recovery codes as keyed hashes only', async () => {
      const op = await enrolled();
      const [row] = await t.db.query(`SELECT totp_secret, totp_pending_secret FROM admins WHERE id = $1`, [
        op.id,
      ]);
      expect(row.totp_pending_secret).toBeNull();
      expect(row.totp_secret).toMatch(/^v1\./);
      expect(row.totp_secret).not.toContain(op.secret);
      expect(Buffer.from(row.totp_secret.split('.')[3], 'base64url').toString('latin1')).not.toContain(
        op.secret,
      );
      const hashes: string[] = (
        await t.db.query(`SELECT code_hash FROM admin_recovery_codes WHERE admin_id = $1`, [op.id])
      ).map((r: { code_hash: string }) => r.code_hash);
      expect(hashes).toHaveLength(10);
      const sha = (s: string) => createHash('sha256').update(s).digest('hex');
      for (const c of op.recovery) {
        expect(hashes.some((h) => h.includes(c))).toBe(false);
        expect(hashes).not.toContain(sha(c));
      }
    });
  });

  describe('signing in with a code', () => {
    it('asks for the code after the password; the code gives the session; a used code is refused', async () => {
      const op = await enrolled();
      const challenge = await login(op.email).expect(200);
      expect(challenge.body).toEqual({
        status: 'totp_required',
        challenge_token: expect.any(String),
        expires_in: 300,
      });
      // The challenge is no credential.
      expectError(
        await t.http.get('/v1/admin/me').set(bearer(challenge.body.challenge_token)),
        401,
        'invalid_token',
      );
      const now = code(op.secret);
      const res = await second({ challenge_token: challenge.body.challenge_token, code: now }).expect(200);
      expect(res.body).toMatchObject({ status: 'signed_in', admin_id: op.id, totp_enabled: true });
      await t.http.get('/v1/admin/me').set(bearer(res.body.access_token)).expect(200);

      // The same code again, even with a new challenge and within its 30 seconds: refused.
      const again = await login(op.email).expect(200);
      const replay = await second({ challenge_token: again.body.challenge_token, code: now });
      expectError(replay, 401, 'invalid_totp_code');
      nextStep();
      await second({ challenge_token: again.body.challenge_token, code: code(op.secret) }).expect(200);
    });

    it('accepts a code one step old (clock drift) but not two, and no challenge older than 5 minutes', async () => {
      const op = await enrolled();
      // One more step, so the step before now is not the enrolment's (used, so refused as a replay).
      nextStep();
      const challenge = await login(op.email).expect(200);
      const stale = totpCode(op.secret, new Date(t.clock.now().getTime() - 60_000));
      expectError(
        await second({ challenge_token: challenge.body.challenge_token, code: stale }),
        401,
        'invalid_totp_code',
      );
      const late = totpCode(op.secret, new Date(t.clock.now().getTime() - 30_000));
      // null in the other field means it is absent (product-decisions §16).
      await second({
        challenge_token: challenge.body.challenge_token,
        code: late,
        recovery_code: null,
      }).expect(200);

      nextStep();
      const old = await login(op.email).expect(200);
      t.clock.advanceMinutes(5);
      const expired = await second({ challenge_token: old.body.challenge_token, code: code(op.secret) });
      expectError(expired, 401, 'invalid_token');
      expectError(await second({ challenge_token: 'garbage', code: '123456' }), 401, 'invalid_token');
    });

    it('refuses a malformed second step with 400: no code, both kinds, or not six digits', async () => {
      const op = await enrolled();
      const { challenge_token } = (await login(op.email).expect(200)).body;
      for (const body of [
        { challenge_token },
        { challenge_token, code: '12345' },
        { challenge_token, code: 123456 },
        { challenge_token, code: '123456', recovery_code: 'abcde-fghij' },
        { code: '123456' },
      ]) {
        expectError(await second(body), 400, 'validation_error');
      }
    });

    it('wrong codes count as failed logins: password steps do not clear them, the tenth attempt locks', async () => {
      const op = await enrolled();
      for (let i = 0; i < 5; i++) {
        const { challenge_token } = (await login(op.email).expect(200)).body;
        expectError(await second({ challenge_token, code: '000000' }), 401, 'invalid_totp_code');
      }
      const locked = await login(op.email);
      expectError(locked, 429, 'account_locked');
      const failures = await t.db.query(
        `SELECT after FROM operator_audit_log WHERE admin_id = $1 AND action = 'operator.sign_in_failed'`,
        [op.id],
      );
      expect(failures.map((f: { after: { step: string } }) => f.after.step)).toEqual(Array(5).fill('totp'));
    });

    it('a whole sign-in clears the failures before it', async () => {
      const op = await enrolled();
      const { challenge_token } = (await login(op.email).expect(200)).body;
      expectError(await second({ challenge_token, code: '000000' }), 401, 'invalid_totp_code');
      expectError(await login(op.email, 'not the password'), 401, 'invalid_credentials');
      await signIn(op.email, op.secret);
      const [row] = await t.db.query(`SELECT failed_login_count FROM admins WHERE id = $1`, [op.id]);
      expect(row.failed_login_count).toBe(0);
    });
  });

  describe('recovery codes', () => {
    it('each works once, in any case or spacing; new ones replace the old for a current code', async () => {
      const op = await enrolled();
      const [first, second2] = op.recovery;
      const a = await login(op.email).expect(200);
      const typed = ` ${first.replace('-', '').toUpperCase()} `;
      const used = await second({
        challenge_token: a.body.challenge_token,
        code: null,
        recovery_code: typed,
      }).expect(200);
      expect(used.body).toMatchObject({ status: 'signed_in', recovery_codes_left: 9 });

      const b = await login(op.email).expect(200);
      expectError(
        await second({ challenge_token: b.body.challenge_token, recovery_code: first }),
        401,
        'invalid_totp_code',
      );

      const access = used.body.access_token as string;
      expectError(
        await t.http.post('/v1/admin/me/recovery-codes').set(bearer(access)).send({ code: '000000' }),
        401,
        'invalid_totp_code',
      );
      const fresh = await t.http
        .post('/v1/admin/me/recovery-codes')
        .set(bearer(access))
        .send({ code: code(op.secret) })
        .expect(200);
      expect(fresh.body.recovery_codes).toHaveLength(10);
      expect(fresh.body.recovery_codes).not.toContain(second2);
      expectError(
        await second({ challenge_token: b.body.challenge_token, recovery_code: second2 }),
        401,
        'invalid_totp_code',
      );
      await second({
        challenge_token: b.body.challenge_token,
        recovery_code: fresh.body.recovery_codes[3],
      }).expect(200);
      const me = await t.http.get('/v1/admin/me').set(bearer(access)).expect(200);
      expect(me.body.recovery_codes_left).toBe(9);
    });
  });

  describe('admin:create --require-totp', () => {
    it('no session before enrolment: the password step shows the secret, its first code signs in', async () => {
      const op = await createOperator(t, { requireTotp: true });
      const first = await login(op.email).expect(200);
      expect(first.body).toEqual({
        status: 'totp_enrolment_required',
        challenge_token: expect.any(String),
        expires_in: 300,
        totp_setup: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauth_uri: expect.any(String) },
      });
      const sessions = () =>
        t.db.query(`SELECT 1 FROM refresh_tokens WHERE subject_id = $1`, [op.id]).then((r) => r.length);
      expect(await sessions()).toBe(0);

      // A second password step replaces the pending secret: the first QR code no longer works.
      const setup = await login(op.email).expect(200);
      const replaced = await second({
        challenge_token: setup.body.challenge_token,
        code: code(first.body.totp_setup.secret),
      });
      expectError(replaced, 401, 'invalid_totp_code');
      expectError(
        await second({ challenge_token: setup.body.challenge_token, recovery_code: 'abcde-fghij' }),
        400,
        'validation_error',
      );
      const secret = secretOfUri(setup.body.totp_setup.otpauth_uri);
      const done = await second({ challenge_token: setup.body.challenge_token, code: code(secret) }).expect(
        200,
      );
      expect(done.body).toMatchObject({ status: 'signed_in', totp_enabled: true });
      expect(done.body.recovery_codes).toHaveLength(10);
      expect(await sessions()).toBe(1);
      nextStep();

      const next = await login(op.email).expect(200);
      expect(next.body.status).toBe('totp_required');
      expect(next.body.totp_setup).toBeUndefined();
      await second({ challenge_token: next.body.challenge_token, code: code(secret) }).expect(200);
    });

    it('a session of an operator who must enrol is refused, whoever set the requirement', async () => {
      const op = await createOperator(t);
      const access = await passwordSession(op.email);
      await t.db.query(`UPDATE admins SET totp_required = true WHERE id = $1`, [op.id]);
      const res = await t.http.get('/v1/admin/agents').set(bearer(access));
      expectError(res, 401, 'invalid_token');
      expect(res.body.error.message).toMatch(/two-factor/);
    });

    it('set on an existing operator, it ends their sessions; --no-require-totp lifts it', async () => {
      const op = await createOperator(t);
      const access = await passwordSession(op.email);
      await createOrUpdateAdmin(t.db, { email: op.email, requireTotp: true });
      expectError(await t.http.get('/v1/admin/me').set(bearer(access)), 401, 'invalid_token');
      expect((await login(op.email).expect(200)).body.status).toBe('totp_enrolment_required');
      await createOrUpdateAdmin(t.db, { email: op.email, requireTotp: false });
      expect((await login(op.email).expect(200)).body.status).toBe('signed_in');
    });
  });

  describe('resetting two-factor', () => {
    it('another operator with two-factor resets it: sessions end, the password alone signs in again', async () => {
      const lost = await enrolled();
      const helper = await enrolled();
      const lostSession = await signIn(lost.email, lost.secret);
      const helperSession = await signIn(helper.email, helper.secret);
      const reset = await t.http
        .post(`/v1/admin/operators/${lost.id}/totp/reset`)
        .set(bearer(helperSession.access))
        .expect(200);
      expect(reset.body).toMatchObject({ admin_id: lost.id, totp_enabled: false, totp_required: false });
      expectError(await t.http.get('/v1/admin/me').set(bearer(lostSession.access)), 401, 'invalid_token');
      expectError(
        await t.http.post('/v1/admin/refresh').send({ refresh_token: lostSession.refresh }),
        401,
        'invalid_token',
      );
      expect((await login(lost.email).expect(200)).body).toMatchObject({
        status: 'signed_in',
        totp_enabled: false,
      });
      const [row] = await t.db.query(
        `SELECT totp_secret, (SELECT count(*)::int FROM admin_recovery_codes WHERE admin_id = $1) AS codes
           FROM admins WHERE id = $1`,
        [lost.id],
      );
      expect(row).toEqual({ totp_secret: null, codes: 0 });
      expectError(
        await t.http.post(`/v1/admin/operators/${lost.id}/totp/reset`).set(bearer(helperSession.access)),
        409,
        'invalid_state',
      );
    });

    it('nobody resets their own; an operator without two-factor resets nobody', async () => {
      const a = await enrolled();
      const session = await signIn(a.email, a.secret);
      expectError(
        await t.http.post(`/v1/admin/operators/${a.id}/totp/reset`).set(bearer(session.access)),
        403,
        'forbidden',
      );
      const plain = await createOperator(t);
      const plainAccess = await passwordSession(plain.email);
      expectError(
        await t.http.post(`/v1/admin/operators/${a.id}/totp/reset`).set(bearer(plainAccess)),
        403,
        'two_factor_required',
      );
      expectError(
        await t.http
          .post(`/v1/admin/operators/00000000-0000-4000-8000-000000000000/totp/reset`)
          .set(bearer(session.access)),
        404,
        'not_found',
      );
      const me = await t.http.get('/v1/admin/me').set(bearer(session.access)).expect(200);
      expect(me.body.totp_enabled).toBe(true);
    });

    it('admin:create --reset-totp resets it from the server; with the requirement the operator enrols again', async () => {
      const op = await enrolled();
      await createOrUpdateAdmin(t.db, { email: op.email, resetTotp: true, requireTotp: true });
      const again = await login(op.email).expect(200);
      expect(again.body.status).toBe('totp_enrolment_required');
      expect(again.body.totp_setup.secret).not.toBe(op.secret);
    });

    it('GET /v1/admin/operators lists the team with their two-factor state', async () => {
      const op = await enrolled();
      const required = await createOperator(t, { requireTotp: true });
      const session = await signIn(op.email, op.secret);
      const res = await t.http.get('/v1/admin/operators').set(bearer(session.access)).expect(200);
      const byId = new Map(res.body.items.map((o: { admin_id: string }) => [o.admin_id, o]));
      expect(byId.get(op.id)).toEqual({
        admin_id: op.id,
        email: op.email,
        totp_enabled: true,
        totp_required: false,
        created_at: expect.any(String),
      });
      expect(byId.get(required.id)).toMatchObject({ totp_enabled: false, totp_required: true });
    });
  });
});
