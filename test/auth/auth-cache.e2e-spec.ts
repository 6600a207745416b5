import { AuthCache } from '../../src/auth/auth-cache';
import { createTestApp, TestApp } from '../support/app';
import { bearer, registerAgent } from '../support/agents';
import { createWorkerTestApp, registerWorker } from '../worker/worker-helpers';

/**
 * Credentials are answered from AuthCache instead of a lookup per request. What must hold: a change to a key or an
 * account is seen by the next request on the instance that made it, and by every other instance once the trigger's
 * notification arrives, whoever made the change (the API or plain SQL).
 */
describe('credential cache', () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    t = await createWorkerTestApp();
    // A second API instance on the same database, as in a deployment of several.
    other = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' }, { databaseName: t.databaseName });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const profile = (app: TestApp, token: string) => app.http.get('/v1/agent/profile').set(bearer(token));

  it('a used key is answered from memory: a change made with the triggers bypassed goes unseen until a notification', async () => {
    const agent = await registerAgent(t);
    await profile(t, agent.apiKey).expect(200);
    // session_replication_role = replica skips triggers: the key is disabled without a notification.
    await t.db.transaction(async (em) => {
      await em.query(`SET LOCAL session_replication_role = replica`);
      await em.query(`UPDATE api_keys SET is_active = false WHERE agent_id = $1`, [agent.id]);
    });
    await t.app.get(AuthCache).settled();
    await profile(t, agent.apiKey).expect(200);
    // Any notifying change drops what the instance holds; the key is then looked up again, and refused.
    await t.db.query(`UPDATE agents SET rate_limit_per_day = rate_limit_per_day + 1 WHERE id = $1`, [
      agent.id,
    ]);
    await t.app.get(AuthCache).settled();
    const res = await profile(t, agent.apiKey).expect(401);
    expect(res.body.error.code).toBe('invalid_api_key');
  });

  it('rotating a key refuses the old value at once on this instance, and on another once notified', async () => {
    const agent = await registerAgent(t);
    await profile(t, agent.apiKey).expect(200);
    await profile(other, agent.apiKey).expect(200);
    const rotated = await t.http
      .post('/v1/agent/api-keys')
      .set(bearer(agent.accessToken))
      .send({})
      .expect(201);
    expect((await profile(t, agent.apiKey).expect(401)).body.error.code).toBe('invalid_api_key');
    await profile(t, rotated.body.api_key).expect(200);
    await other.app.get(AuthCache).settled();
    expect((await profile(other, agent.apiKey).expect(401)).body.error.code).toBe('invalid_api_key');
    await profile(other, rotated.body.api_key).expect(200);
  });

  it('disabling a key (DELETE) refuses it at once here and on the other instance once notified', async () => {
    const agent = await registerAgent(t);
    await profile(t, agent.apiKey).expect(200);
    await profile(other, agent.apiKey).expect(200);
    const keys = await t.http.get('/v1/agent/api-keys').set(bearer(agent.accessToken)).expect(200);
    await t.http.delete(`/v1/agent/api-keys/${keys.body[0].id}`).set(bearer(agent.accessToken)).expect(204);
    await profile(t, agent.apiKey).expect(401);
    await other.app.get(AuthCache).settled();
    await profile(other, agent.apiKey).expect(401);
  });

  it('an operator suspending an agent, or an agent row changed by SQL, reaches every instance', async () => {
    const agent = await registerAgent(t);
    await profile(t, agent.apiKey).expect(200);
    await profile(other, agent.accessToken).expect(200);
    await t.db.query(`UPDATE agents SET account_status = 'suspended' WHERE id = $1`, [agent.id]);
    await t.app.get(AuthCache).settled();
    await other.app.get(AuthCache).settled();
    expect((await profile(t, agent.apiKey).expect(403)).body.error.code).toBe('account_disabled');
    expect((await profile(other, agent.accessToken).expect(403)).body.error.code).toBe('account_disabled');
  });

  it('a worker suspended or deleted by SQL is refused once the notification is in', async () => {
    const [a, b] = [await registerWorker(t), await registerWorker(t)];
    for (const w of [a, b]) {
      await t.http.get('/v1/worker/profile').set(bearer(w.accessToken)).expect(200);
    }
    await t.db.query(`UPDATE workers SET account_status = 'suspended' WHERE id = $1`, [a.workerId]);
    await t.db.query(`DELETE FROM workers WHERE id = $1`, [b.workerId]);
    await t.app.get(AuthCache).settled();
    const suspended = await t.http.get('/v1/worker/profile').set(bearer(a.accessToken)).expect(403);
    expect(suspended.body.error.code).toBe('account_disabled');
    const deleted = await t.http.get('/v1/worker/profile').set(bearer(b.accessToken)).expect(401);
    expect(deleted.body.error.code).toBe('invalid_token');
  });
});
