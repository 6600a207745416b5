import { createAgent } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { liveTestEnv } from '../support/live-env';
import { listRoutes } from '../support/routes';

/**
 * Product-decisions §12: the sandbox that runs by itself exists only in sandbox mode. In live mode (lw_live_ keys) every
 * sandbox route answers 404 like an unknown path, on both surfaces, whoever asks.
 */
const ID = '7d6f5d0e-5a4b-4c3d-9e2f-1a0b9c8d7e6f';
export const SANDBOX_ROUTES: [string, string][] = [
  ['POST', '/sandbox/balance'],
  ['POST', '/sandbox/workers'],
  ['GET', '/sandbox/workers'],
  ['GET', `/sandbox/workers/${ID}`],
  ['PATCH', `/sandbox/workers/${ID}`],
  ['DELETE', `/sandbox/workers/${ID}`],
  ['POST', '/sandbox/clocks'],
  ['GET', '/sandbox/clocks'],
  ['GET', `/sandbox/clocks/${ID}`],
  ['POST', `/sandbox/clocks/${ID}/advance`],
  ['DELETE', `/sandbox/clocks/${ID}`],
  ['GET', '/sandbox/sms'],
];

describe('sandbox routes in live mode', () => {
  let live: TestApp;

  beforeAll(async () => {
    const { DATABASE_URL: _unused, ...env } = liveTestEnv({ JOBS_IN_PROCESS: 'false' });
    live = await createTestApp(env);
  });
  afterAll(() => live.close());

  it('are not mounted, and answer 404 not_found to an authenticated live agent', async () => {
    expect(listRoutes(live.app).filter((r) => r.includes('/sandbox'))).toEqual([]);
    const agent = await createAgent(live);
    expect(agent.apiKey.startsWith('lw_live_')).toBe(true);
    for (const [method, path] of SANDBOX_ROUTES) {
      for (const prefix of ['/v1', '/api/v1']) {
        const res = await live.http[method.toLowerCase() as 'post' | 'get' | 'patch' | 'delete'](
          `${prefix}${path}`,
        )
          .set('Authorization', agent.key)
          .send({ amount_cents: 1000 });
        expect([`${method} ${prefix}${path}`, res.status, res.body.error?.code]).toEqual([
          `${method} ${prefix}${path}`,
          404,
          'not_found',
        ]);
      }
    }
  });

  it('refuse a task on a test clock, changing nothing', async () => {
    const agent = await createAgent(live, { balanceCents: 10_000 });
    const res = await live.http
      .post('/v1/tasks/create')
      .set('Authorization', agent.key)
      .send({
        title: 'x',
        description: 'y',
        location: { latitude: 31.23, longitude: 121.47 },
        budget_cents: 5000,
        deadline_at: new Date(Date.now() + 3_600_000).toISOString(),
        task_type: 'photo',
        test_clock: ID,
      });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual([
      { field: 'test_clock', message: 'test clocks exist only in sandbox mode' },
    ]);
    const tasks: unknown[] = await live.db.query(`SELECT 1 FROM tasks WHERE agent_id = $1`, [agent.id]);
    expect(tasks).toHaveLength(0);
  });
});
