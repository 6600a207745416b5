import { randomUUID } from 'node:crypto';
import { UsageTracker } from '../../src/auth/usage-tracker';
import { createTestApp, TestApp } from '../support/app';
import { bearer, registerAgent, type RegisteredAgent } from '../support/agents';

describe('agent API keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  interface KeyBody {
    id: string;
    prefix: string;
    created_at: string;
    usage_count: number;
    last_used_at: string | null;
    is_active: boolean;
  }

  async function keyOf(agent: RegisteredAgent): Promise<KeyBody> {
    const res = await t.http.get('/v1/agent/api-keys').set(bearer(agent.accessToken)).expect(200);
    expect(res.body).toHaveLength(1);
    return res.body[0];
  }

  it('GET lists the single key with its prefix only', async () => {
    const agent = await registerAgent(t);
    const res = await t.http.get('/api/v1/agent/api-keys').set(bearer(agent.accessToken)).expect(200);
    expect(res.body).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        prefix: agent.apiKey.slice(0, 12),
        name: 'Primary API Key',
        created_at: expect.any(String),
        last_used_at: null,
        rate_limit_per_minute: 100,
        is_active: true,
        usage_count: 0,
        permissions: [
          'task:create',
          'task:read',
          'task:cancel',
          'payment:read',
          'payment:write',
          'webhook:manage',
        ],
        spend_caps: { daily_cents: null, monthly_cents: null },
        approval_ceiling_cents: 0,
        spend: [],
      },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(agent.apiKey);
  });

  it('counts use of the key: usage_count and last_used_at (JWT calls count for the agent, not the key)', async () => {
    const agent = await registerAgent(t);
    for (let i = 0; i < 3; i++) await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
    await t.app.get(UsageTracker).flush();
    const key = await keyOf(agent);
    expect(key.usage_count).toBe(3);
    expect(key.last_used_at).not.toBeNull();
    const profile = await t.http.get('/v1/agent/profile').set(bearer(agent.accessToken)).expect(200);
    expect(profile.body.last_used_at).not.toBeNull();
    await t.app.get(UsageTracker).flush();
    expect((await keyOf(agent)).usage_count).toBe(3);
  });

  describe('POST rotates the key', () => {
    it('returns the new key and secret once, keeps the id, resets usage; the old key stops working', async () => {
      const agent = await registerAgent(t);
      await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
      await t.app.get(UsageTracker).flush();
      const before = await keyOf(agent);
      expect(before.usage_count).toBe(1);
      // A use of the old key still pending in the tracker must not be counted on the new key.
      await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
      t.clock.advance(1000);

      const res = await t.http
        .post('/v1/agent/api-keys')
        .set(bearer(agent.accessToken))
        .send({ name: 'Backend', permissions: ['task:read', 'task:create', 'task:read'] })
        .expect(201);
      expect(res.body).toEqual({
        id: before.id,
        prefix: res.body.api_key.slice(0, 12),
        name: 'Backend',
        created_at: expect.any(String),
        last_used_at: null,
        rate_limit_per_minute: 100,
        is_active: true,
        usage_count: 0,
        permissions: ['task:create', 'task:read'],
        spend_caps: { daily_cents: null, monthly_cents: null },
        approval_ceiling_cents: 0,
        spend: [],
        api_key: expect.stringMatching(/^lw_test_[0-9A-Za-z]{43}$/),
        api_secret: expect.stringMatching(/^lws_[0-9A-Za-z]{43}$/),
      });
      expect(res.body.api_key).not.toBe(agent.apiKey);
      expect(res.body.api_secret).not.toBe(agent.apiSecret);
      expect(new Date(res.body.created_at).getTime()).toBeGreaterThan(new Date(before.created_at).getTime());

      const old = await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(401);
      expect(old.body.error.code).toBe('invalid_api_key');
      // The new key works (it reads tasks); its prefix shows on the profile (which needs payment:read: the JWT).
      await t.http.get('/v1/tasks').set(bearer(res.body.api_key)).expect(200);
      const profile = await t.http.get('/v1/agent/profile').set(bearer(agent.accessToken)).expect(200);
      expect(profile.body.api_key_prefix).toBe(res.body.prefix);

      await t.app.get(UsageTracker).flush();
      const after = await keyOf(agent);
      expect(after.usage_count).toBe(1);
      expect(after.prefix).toBe(res.body.prefix);
    });

    it('defaults: name "Primary API Key" and every permission; re-enables a disabled key', async () => {
      const agent = await registerAgent(t);
      const { id } = await keyOf(agent);
      await t.http.delete(`/v1/agent/api-keys/${id}`).set(bearer(agent.accessToken)).expect(204);
      const res = await t.http.post('/api/v1/agent/api-keys').set(bearer(agent.accessToken)).expect(201);
      expect(res.body).toMatchObject({
        id,
        name: 'Primary API Key',
        is_active: true,
        permissions: [
          'task:create',
          'task:read',
          'task:cancel',
          'payment:read',
          'payment:write',
          'webhook:manage',
        ],
      });
      await t.http.get('/v1/agent/profile').set(bearer(res.body.api_key)).expect(200);
    });

    it.each([
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ permissions: ['task:delete'] }, 'permissions'],
      [{ permissions: 'task:read' }, 'permissions'],
      [{ scopes: [] }, 'scopes'],
    ])('%j is 400 validation_error on %s', async (body, field) => {
      const agent = await registerAgent(t);
      const res = await t.http
        .post('/v1/agent/api-keys')
        .set(bearer(agent.accessToken))
        .send(body)
        .expect(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      // Nothing was rotated.
      await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
    });

    it('a key restricted to task:read authenticates and carries only that permission', async () => {
      // insufficient_permissions (403 with required_permission) needs a route that requires a permission; the
      // first ones are the task routes, whose tests extend this. The rule itself is unit-tested in
      // src/auth/auth.guard.spec.ts.
      const agent = await registerAgent(t);
      const res = await t.http
        .post('/v1/agent/api-keys')
        .set(bearer(agent.accessToken))
        .send({ permissions: ['task:read'] })
        .expect(201);
      expect(res.body.permissions).toEqual(['task:read']);
      await t.http.get('/v1/tasks').set(bearer(res.body.api_key)).expect(200);
      const profile = await t.http.get('/v1/agent/profile').set(bearer(res.body.api_key)).expect(403);
      expect(profile.body.error).toMatchObject({
        code: 'insufficient_permissions',
        required_permission: 'payment:read',
      });
      const rows = await t.db.query(`SELECT permissions FROM api_keys WHERE id = $1`, [res.body.id]);
      expect(rows[0].permissions).toEqual(['task:read']);
    });
    it('a task:read-only key gets 403 insufficient_permissions on task creation, and reads tasks fine', async () => {
      const agent = await registerAgent(t);
      const rotated = await t.http
        .post('/v1/agent/api-keys')
        .set(bearer(agent.accessToken))
        .send({ permissions: ['task:read'] })
        .expect(201);
      const key = bearer(rotated.body.api_key);
      const create = await t.http.post('/v1/tasks/create').set(key).send({}).expect(403);
      expect(create.body.error).toMatchObject({
        code: 'insufficient_permissions',
        required_permission: 'task:create',
      });
      const cancel = await t.http.delete(`/api/v1/tasks/${randomUUID()}`).set(key).expect(403);
      expect(cancel.body.error.required_permission).toBe('task:cancel');
      await t.http.get('/v1/tasks').set(key).expect(200);
    });
  });

  describe('PATCH and DELETE', () => {
    it('PATCH is_active false disables the key (401 invalid_api_key), true enables it again', async () => {
      const agent = await registerAgent(t);
      const { id } = await keyOf(agent);
      const off = await t.http
        .patch(`/v1/agent/api-keys/${id}`)
        .set(bearer(agent.accessToken))
        .send({ is_active: false })
        .expect(200);
      expect(off.body).toMatchObject({ id, is_active: false });
      const refused = await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(401);
      expect(refused.body.error.code).toBe('invalid_api_key');
      await t.http
        .patch(`/api/v1/agent/api-keys/${id}`)
        .set(bearer(agent.accessToken))
        .send({ is_active: true })
        .expect(200);
      await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
    });

    it('PATCH renames and changes permissions; omitted fields stay', async () => {
      const agent = await registerAgent(t);
      const { id } = await keyOf(agent);
      const res = await t.http
        .patch(`/v1/agent/api-keys/${id}`)
        .set(bearer(agent.accessToken))
        .send({ name: ' CI robot ', permissions: ['task:cancel', 'task:read'] })
        .expect(200);
      expect(res.body).toMatchObject({
        id,
        name: 'CI robot',
        is_active: true,
        permissions: ['task:read', 'task:cancel'],
      });
      const empty = await t.http.patch(`/v1/agent/api-keys/${id}`).set(bearer(agent.accessToken)).send({});
      expect(empty.status).toBe(200);
      expect(empty.body).toMatchObject({ name: 'CI robot', permissions: ['task:read', 'task:cancel'] });
    });

    it.each([
      [{ is_active: 'false' }, 'is_active'],
      [{ permissions: ['root'] }, 'permissions'],
      [{ prefix: 'lw_test_aaaa' }, 'prefix'],
    ])('PATCH %j is 400 validation_error on %s', async (body, field) => {
      const agent = await registerAgent(t);
      const { id } = await keyOf(agent);
      const res = await t.http
        .patch(`/v1/agent/api-keys/${id}`)
        .set(bearer(agent.accessToken))
        .send(body)
        .expect(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('DELETE disables the key: 204, then 401 invalid_api_key', async () => {
      const agent = await registerAgent(t);
      const { id } = await keyOf(agent);
      const res = await t.http.delete(`/v1/agent/api-keys/${id}`).set(bearer(agent.accessToken)).expect(204);
      expect(res.text).toBe('');
      const refused = await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(401);
      expect(refused.body.error.code).toBe('invalid_api_key');
      expect((await keyOf(agent)).is_active).toBe(false);
      // The agent's JWT session still works.
      await t.http.get('/v1/agent/profile').set(bearer(agent.accessToken)).expect(200);
    });

    it("another agent's key id, or an unknown one, is 404 not_found and changes nothing", async () => {
      const owner = await registerAgent(t);
      const other = await registerAgent(t);
      const { id } = await keyOf(owner);
      const patch = await t.http
        .patch(`/v1/agent/api-keys/${id}`)
        .set(bearer(other.accessToken))
        .send({ is_active: false })
        .expect(404);
      expect(patch.body.error.code).toBe('not_found');
      await t.http.delete(`/v1/agent/api-keys/${id}`).set(bearer(other.accessToken)).expect(404);
      await t.http
        .delete('/v1/agent/api-keys/7b0e7d6a-3c1f-4a57-9a53-0d4c1d5e2f10')
        .set(bearer(owner.accessToken))
        .expect(404);
      await t.http.get('/v1/agent/profile').set(bearer(owner.apiKey)).expect(200);
    });

    it('a malformed key id is 400 validation_error naming key_id', async () => {
      const agent = await registerAgent(t);
      const res = await t.http
        .patch('/v1/agent/api-keys/not-a-uuid')
        .set(bearer(agent.accessToken))
        .send({ is_active: false })
        .expect(400);
      expect(res.body.error.details).toEqual([{ field: 'key_id', message: 'must be a UUID' }]);
      await t.http.delete('/v1/agent/api-keys/123').set(bearer(agent.accessToken)).expect(400);
    });

    it('PATCH and DELETE with the API key itself are 403 forbidden (JWT only)', async () => {
      const agent = await registerAgent(t);
      const { id } = await keyOf(agent);
      await t.http.patch(`/v1/agent/api-keys/${id}`).set(bearer(agent.apiKey)).send({}).expect(403);
      await t.http.delete(`/v1/agent/api-keys/${id}`).set(bearer(agent.apiKey)).expect(403);
      await t.http.get('/v1/agent/profile').set(bearer(agent.apiKey)).expect(200);
    });
  });
});
