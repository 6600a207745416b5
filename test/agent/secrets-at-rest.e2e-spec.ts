import { createHash } from 'node:crypto';
import { createOrUpdateAdmin } from '../../src/admin/admin-accounts';
import { createTestApp, TestApp } from '../support/app';
import { AGENT_PASSWORD, bearer, registerAgent, uniqueEmail } from '../support/agents';

const TABLES = ['agents', 'api_keys', 'refresh_tokens', 'admins'];

describe('no credential is stored in clear', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  /** Every value of every text-like column (text, varchar, arrays, json) of the credential tables. */
  async function storedText(): Promise<string[]> {
    const columns: { table_name: string; column_name: string }[] = await t.db.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = ANY($1)
          AND data_type IN ('text', 'character varying', 'character', 'ARRAY', 'json', 'jsonb', 'bytea')`,
      [TABLES],
    );
    expect(columns.length).toBeGreaterThanOrEqual(10);
    const values: string[] = [];
    for (const { table_name, column_name } of columns) {
      const rows: { v: string | null }[] = await t.db.query(
        `SELECT "${column_name}"::text AS v FROM "${table_name}"`,
      );
      for (const { v } of rows) if (v !== null) values.push(v);
    }
    return values;
  }

  it('passwords, API keys, API secrets and refresh tokens appear only as hashes', async () => {
    const agent = await registerAgent(t);
    const login = await t.http
      .post('/v1/agent/login')
      .send({ email: agent.email, password: AGENT_PASSWORD })
      .expect(200);
    const refreshed = await t.http
      .post('/v1/agent/refresh')
      .send({ refresh_token: login.body.refresh_token })
      .expect(200);
    const rotated = await t.http.post('/v1/agent/api-keys').set(bearer(agent.accessToken)).expect(201);
    const adminPassword = 'operator password 1';
    const adminEmail = uniqueEmail('admin');
    await createOrUpdateAdmin(t.db, { email: adminEmail, password: adminPassword });
    const admin = await t.http
      .post('/v1/admin/login')
      .send({ email: adminEmail, password: adminPassword })
      .expect(200);

    const secrets = [
      AGENT_PASSWORD,
      agent.apiKey,
      agent.apiSecret,
      agent.refreshToken,
      login.body.refresh_token,
      refreshed.body.refresh_token,
      rotated.body.api_key,
      rotated.body.api_secret,
      adminPassword,
      admin.body.refresh_token,
    ];
    const stored = await storedText();
    // The search itself works: the agent's email and key prefix are stored in clear.
    expect(stored).toContain(agent.email);
    expect(stored).toContain(rotated.body.prefix);
    for (const secret of secrets) {
      const leaks = stored.filter((v) => v.includes(secret));
      expect({ secret: secret.slice(0, 12), leaks }).toEqual({ secret: secret.slice(0, 12), leaks: [] });
    }

    const sha256 = (v: string): string => createHash('sha256').update(v).digest('hex');
    const [key] = await t.db.query(`SELECT key_hash, secret_hash FROM api_keys WHERE agent_id = $1`, [
      agent.id,
    ]);
    expect(key).toEqual({
      key_hash: sha256(rotated.body.api_key),
      secret_hash: sha256(rotated.body.api_secret),
    });
    const [account] = await t.db.query(`SELECT password_hash FROM agents WHERE id = $1`, [agent.id]);
    expect(account.password_hash).toMatch(/^\$argon2id\$/);
    const [op] = await t.db.query(`SELECT password_hash FROM admins WHERE lower(email) = $1`, [adminEmail]);
    expect(op.password_hash).toMatch(/^\$argon2id\$/);
    const tokens = await t.db.query(`SELECT token_hash FROM refresh_tokens WHERE subject_id = $1`, [
      agent.id,
    ]);
    expect(tokens.map((r: { token_hash: string }) => r.token_hash)).toEqual(
      expect.arrayContaining([sha256(agent.refreshToken), sha256(refreshed.body.refresh_token)]),
    );
  });
});
