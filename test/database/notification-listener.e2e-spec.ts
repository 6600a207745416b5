import { AuthCache } from '../../src/auth/auth-cache';
import { createTestApp, TestApp } from '../support/app';
import { bearer, registerAgent } from '../support/agents';
import { waitFor } from '../support/waiters';

/**
 * The auth cache and the outbox runner hear PostgreSQL notifications over one connection per process
 * (NotificationListener). What must hold: one listening connection, however many subscribers; killed, it comes back
 * by itself, and meanwhile nothing stale is trusted (credentials are looked up) and nothing is lost (the outbox is
 * polled, and looked at again the moment listening resumes).
 */
describe('one listening connection per process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'true' });
  });
  afterAll(() => t.close());

  /** The backends of this app's database that LISTEN, by process id. */
  async function listeners(): Promise<number[]> {
    const rows: { pid: number }[] = await t.db.query(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'legwork-listener'`,
      [t.databaseName],
    );
    return rows.map((r) => r.pid);
  }

  const profile = (token: string) => t.http.get('/v1/agent/profile').set(bearer(token));

  /** A change the triggers NOTIFY for (the agent's rate limit), which drops the cache when it is heard. */
  async function notifyingChange(agentId: string): Promise<void> {
    await t.db.query(`UPDATE agents SET rate_limit_per_day = rate_limit_per_day + 1 WHERE id = $1`, [
      agentId,
    ]);
  }

  /** A key disabled with the triggers bypassed: only a cache that was dropped since sees it. */
  async function disableSilently(agentId: string): Promise<void> {
    await t.db.transaction(async (em) => {
      await em.query(`SET LOCAL session_replication_role = replica`);
      await em.query(`UPDATE api_keys SET is_active = false WHERE agent_id = $1`, [agentId]);
    });
  }

  it('the auth cache and the outbox runner share one listening connection', async () => {
    expect(await listeners()).toHaveLength(1);
    // No other backend of this database LISTENs (the auth cache and the outbox runner each had one).
    const others: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND application_name <> 'legwork-listener' AND query ILIKE '%LISTEN%'
          AND pid <> pg_backend_pid()`,
      [t.databaseName],
    );
    expect(others[0].n).toBe(0);

    // The cache is served from memory, and a notification on the shared connection drops it.
    const agent = await registerAgent(t);
    await profile(agent.apiKey).expect(200);
    await disableSilently(agent.id);
    await t.app.get(AuthCache).settled();
    await profile(agent.apiKey).expect(200);
    await notifyingChange(agent.id);
    await t.app.get(AuthCache).settled();
    expect((await profile(agent.apiKey).expect(401)).body.error.code).toBe('invalid_api_key');
  });

  it('a killed connection comes back by itself, listening again; the cache holds nothing from before it', async () => {
    const agent = await registerAgent(t);
    await profile(agent.apiKey).expect(200);
    const [before] = await listeners();
    await t.db.query(`SELECT pg_terminate_backend($1)`, [before]);

    // Reconnected (the first retry is after half a second), on a new backend that LISTENs again.
    const listened = await waitFor(async () => {
      const rows: { query: string }[] = await t.db.query(
        `SELECT query FROM pg_stat_activity
          WHERE datname = $1 AND application_name = 'legwork-listener' AND pid <> $2`,
        [t.databaseName, before],
      );
      return (rows.length === 1 && rows[0].query.startsWith('LISTEN') && rows[0].query) || undefined;
    }, 'the listening connection to come back');
    // Both subscribers' channels, LISTENed again together on the new connection.
    expect(listened).toBe('LISTEN legwork_auth; LISTEN legwork_events; LISTEN legwork_deliveries');
    expect(await listeners()).toHaveLength(1);
    await t.app.get(AuthCache).settled();

    // What was cached before the loss is not trusted after it: the silently disabled key is looked up again.
    await disableSilently(agent.id);
    expect((await profile(agent.apiKey).expect(401)).body.error.code).toBe('invalid_api_key');

    // The cache serves from memory again, and hears notifications on the new connection.
    const other = await registerAgent(t);
    await profile(other.apiKey).expect(200);
    await disableSilently(other.id);
    await profile(other.apiKey).expect(200);
    await notifyingChange(other.id);
    await t.app.get(AuthCache).settled();
    await profile(other.apiKey).expect(401);

    // Events written after the loss reach the outbox: published by the in-process runner.
    const [event]: { id: string }[] = await t.db.query(
      `INSERT INTO events (name, agent_id, data, created_at) VALUES ('task.assigned', $1, '{}', now()) RETURNING id`,
      [agent.id],
    );
    await waitFor(async () => {
      const rows: { published: boolean }[] = await t.db.query(
        `SELECT published_at IS NOT NULL AS published FROM events WHERE id = $1`,
        [event.id],
      );
      return rows[0].published;
    }, 'the event to be published');
  });
});
