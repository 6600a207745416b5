import { createOrUpdateAdmin } from '../../src/admin/admin-accounts';
import { createTestApp, TestApp } from '../support/app';
import { createOperator, OPERATOR_PASSWORD } from '../support/admins';
import { bearer, registerAgent } from '../support/agents';
import { expectError } from '../support/errors';

/**
 * Operator sessions (product-decisions §16): sign-out ends the session at once (refresh token and access tokens),
 * and a session ends 12 hours after sign-in whatever the activity. Time moves on the test clock, never by waiting.
 */
describe('operator sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  async function signIn(email: string): Promise<{ access: string; refresh: string; expires_at: string }> {
    const res = await t.http.post('/v1/admin/login').send({ email, password: OPERATOR_PASSWORD }).expect(200);
    expect(res.body.status).toBe('signed_in');
    return {
      access: res.body.access_token,
      refresh: res.body.refresh_token,
      expires_at: res.body.session_expires_at,
    };
  }
  const refresh = (token: string) => t.http.post('/v1/admin/refresh').send({ refresh_token: token });
  const logout = (token: string) => t.http.post('/v1/admin/logout').send({ refresh_token: token });
  const entries = async (adminId: string, action: string) =>
    (
      await t.db.query(`SELECT * FROM operator_audit_log WHERE admin_id = $1 AND action = $2`, [
        adminId,
        action,
      ])
    ).length as number;

  describe('POST /v1/admin/logout', () => {
    it('ends the session: its refresh token, later ones and its access token are refused at once', async () => {
      const op = await createOperator(t);
      const first = await signIn(op.email);
      const rotated = await refresh(first.refresh).expect(200);
      const other = await signIn(op.email);
      await logout(rotated.body.refresh_token).expect(204);

      expectError(await refresh(rotated.body.refresh_token), 401, 'invalid_token');
      for (const access of [first.access, rotated.body.access_token]) {
        const res = await t.http.get('/v1/admin/agents').set(bearer(access));
        expectError(res, 401, 'invalid_token');
        expect(res.body.error.message).toMatch(/session has ended/);
      }
      // Another session of the same operator is not touched.
      await t.http.get('/v1/admin/agents').set(bearer(other.access)).expect(200);
      await refresh(other.refresh).expect(200);
    });

    it('answers 204 again for a session already ended, and records one sign-out', async () => {
      const op = await createOperator(t);
      const session = await signIn(op.email);
      await logout(session.refresh).expect(204);
      await logout(session.refresh).expect(204);
      expect(await entries(op.id, 'operator.signed_out')).toBe(1);
    });

    it('refuses a token that is not an operator refresh token (401), ending nothing', async () => {
      const op = await createOperator(t);
      const session = await signIn(op.email);
      const agent = await registerAgent(t);
      expectError(await logout(agent.refreshToken), 401, 'invalid_token');
      expectError(await logout(session.access), 401, 'invalid_token');
      expectError(await logout('garbage'), 401, 'invalid_token');
      expectError(await t.http.post('/v1/admin/logout').send({}), 400, 'validation_error');
      await t.http.get('/v1/admin/agents').set(bearer(session.access)).expect(200);
      await t.http.post('/v1/agent/refresh').send({ refresh_token: agent.refreshToken }).expect(200);
    });

    it('an access token whose session has no record is refused', async () => {
      const op = await createOperator(t);
      const session = await signIn(op.email);
      const claims = JSON.parse(Buffer.from(session.access.split('.')[1], 'base64url').toString());
      await t.http.get('/v1/admin/me').set(bearer(session.access)).expect(200);
      await t.db.query(`DELETE FROM refresh_tokens WHERE family_id = $1`, [claims.sid]);
      expectError(await t.http.get('/v1/admin/me').set(bearer(session.access)), 401, 'invalid_token');
    });

    it('a new password from admin:create ends every session of the operator, access tokens included', async () => {
      const op = await createOperator(t);
      const session = await signIn(op.email);
      await createOrUpdateAdmin(t.db, { email: op.email, password: 'a brand new passphrase' });
      expectError(await t.http.get('/v1/admin/agents').set(bearer(session.access)), 401, 'invalid_token');
      expectError(await refresh(session.refresh), 401, 'invalid_token');
    });
  });

  describe('12 hours from sign-in, whatever the activity', () => {
    it('refreshing keeps the sign-in time; past 12 hours the refresh is refused with session_expired', async () => {
      const op = await createOperator(t);
      const session = await signIn(op.email);
      const end = Date.parse(session.expires_at);
      expect(end - t.clock.now().getTime()).toBeGreaterThan(12 * 3600_000 - 5_000);

      let token = session.refresh;
      // Busy all day: a refresh every hour keeps working, each access token lasting its 15 minutes...
      for (let hour = 0; hour < 11; hour++) {
        t.clock.advanceMinutes(60);
        const next = await refresh(token).expect(200);
        expect(next.body.expires_in).toBe(900);
        token = next.body.refresh_token;
      }
      // ...until the last quarter hour, when no token reaches past the session's end.
      t.clock.advance(end - t.clock.now().getTime() - 5 * 60_000);
      const late = await refresh(token).expect(200);
      expect(late.body.expires_in).toBeLessThanOrEqual(300);
      const claims = JSON.parse(Buffer.from(late.body.access_token.split('.')[1], 'base64url').toString());
      expect(claims.exp * 1000).toBeLessThanOrEqual(end);
      await t.http.get('/v1/admin/me').set(bearer(late.body.access_token)).expect(200);

      t.clock.advance(end - t.clock.now().getTime() + 1000);
      const refused = await refresh(late.body.refresh_token);
      expectError(refused, 401, 'session_expired');
      // The session is ended for good, and its last access token expired with it.
      expectError(await refresh(late.body.refresh_token), 401, 'invalid_token');
      expectError(await t.http.get('/v1/admin/me').set(bearer(late.body.access_token)), 401, 'invalid_token');
    });

    it('a refresh token not used for 12 hours is refused the same way, and a new sign-in starts afresh', async () => {
      const op = await createOperator(t);
      const session = await signIn(op.email);
      t.clock.advanceHours(12);
      expectError(await refresh(session.refresh), 401, 'session_expired');
      const fresh = await signIn(op.email);
      await refresh(fresh.refresh).expect(200);
    });

    it('GET /v1/admin/me says when the session ends; an agent session has no such limit', async () => {
      const op = await createOperator(t);
      const session = await signIn(op.email);
      t.clock.advanceHours(2);
      const next = await refresh(session.refresh).expect(200);
      const me = await t.http.get('/v1/admin/me').set(bearer(next.body.access_token)).expect(200);
      expect(me.body).toEqual({
        admin_id: op.id,
        email: op.email,
        totp_enabled: false,
        totp_required: false,
        recovery_codes_left: 0,
        session_expires_at: session.expires_at,
      });
      const agent = await registerAgent(t);
      t.clock.advanceHours(13);
      await t.http.post('/v1/agent/refresh').send({ refresh_token: agent.refreshToken }).expect(200);
    });
  });
});
