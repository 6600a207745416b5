import { UsageTracker } from '../../src/auth/usage-tracker';
import { createTestApp, TestApp } from '../support/app';
import { createAgent, createWorker, TestAgent } from '../support/actors';
import { SeededTask, seedTask, TaskStatus } from '../support/seed-tasks';

const DAY = 86_400_000;

describe('agent statistics: dashboard and usage', () => {
  let t: TestApp;
  /** Midnight UTC, 20 days ago. */
  let base: number;
  const at = (day: number, hour = 12) => new Date(base + day * DAY + hour * 3_600_000);
  const isoDay = (day: number) => at(day, 0).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await createTestApp();
    const now = t.clock.now();
    base = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 20 * DAY;
  });
  afterAll(() => t.close());

  const dashboard = (a: TestAgent) =>
    t.http.get('/v1/agent/stats/dashboard').set('Authorization', a.bearer).expect(200);
  const usage = (a: TestAgent, query: Record<string, string>) =>
    t.http.get('/v1/agent/stats/usage').query(query).set('Authorization', a.bearer);

  describe('GET /v1/agent/stats/dashboard', () => {
    it('a new agent has zeros everywhere', async () => {
      const agent = await createAgent(t);
      expect((await dashboard(agent)).body).toEqual({
        balance_cents: 0,
        balance_rmb: 0,
        escrow_cents: 0,
        escrow_rmb: 0,
        tasks: { total: 0, pending: 0, active: 0, completed: 0, failed: 0, cancelled: 0 },
        success_rate: 0,
        api_usage_today: 0,
      });
    });

    it('counts tasks by state, the success rate, money and requests today', async () => {
      const agent = await createAgent(t, { balanceCents: 100000 });
      const statuses: TaskStatus[] = [
        'pending',
        'pending',
        'assigned',
        'in_progress',
        'submitted',
        'completed',
        'completed',
        'failed',
        'cancelled',
        'cancelled',
      ];
      const tasks: SeededTask[] = [];
      for (const status of statuses) tasks.push(await seedTask(t, agent.id, { status, budgetCents: 1000 }));
      const escrow = tasks
        .filter((x) => ['pending', 'assigned', 'in_progress', 'submitted'].includes(x.status))
        .reduce((s, x) => s + x.totalCents, 0);
      const balance =
        100000 -
        tasks.reduce((s, x) => s + x.totalCents, 0) +
        1000 + // the failed task, refunded
        700 * 2; // the agent's 70 % of each cancelled slot

      const tracker = t.app.get(UsageTracker);
      await tracker.flush();
      for (let i = 0; i < 3; i++)
        await t.http.get('/v1/payment/balance').set('Authorization', agent.key).expect(200);
      await tracker.flush();

      const res = await dashboard(agent);
      expect(res.body).toEqual({
        balance_cents: balance,
        balance_rmb: balance / 100,
        escrow_cents: escrow,
        escrow_rmb: escrow / 100,
        tasks: { total: 10, pending: 2, active: 3, completed: 2, failed: 1, cancelled: 2 },
        success_rate: 0.6667,
        api_usage_today: expect.any(Number),
      });
      // The dashboard request itself is counted in memory; the periodic flush may land it before the read.
      expect([3, 4]).toContain(res.body.api_usage_today);
      await tracker.flush();
      expect((await dashboard(agent)).body.api_usage_today).toBeGreaterThanOrEqual(4);
    });

    it('success rate is completed / (completed + failed): all completed is 1', async () => {
      const agent = await createAgent(t, { balanceCents: 10000 });
      await seedTask(t, agent.id, { status: 'completed', budgetCents: 1000 });
      await seedTask(t, agent.id, { status: 'cancelled', budgetCents: 1000 });
      expect((await dashboard(agent)).body.success_rate).toBe(1);
    });

    it('is for console sessions: an API key or a worker is 403', async () => {
      const agent = await createAgent(t);
      const worker = await createWorker(t);
      for (const auth of [agent.key, worker.bearer]) {
        const res = await t.http.get('/v1/agent/stats/dashboard').set('Authorization', auth).expect(403);
        expect(res.body.error.code).toBe('forbidden');
      }
    });
  });

  describe('GET /v1/agent/stats/usage', () => {
    it('one point per UTC day with requests, tasks created and spending; empty days are zeros', async () => {
      const agent = await createAgent(t, { balanceCents: 100000 });
      await t.db.query(
        `INSERT INTO api_usage_daily (agent_id, day, requests) VALUES ($1, $2, 17), ($1, $3, 5), ($1, $4, 99)`,
        [agent.id, isoDay(2), isoDay(4), isoDay(6)],
      );
      await seedTask(t, agent.id, { status: 'pending', createdAt: at(2, 1) });
      await seedTask(t, agent.id, { status: 'completed', budgetCents: 3000, createdAt: at(2, 22) }); // paid on day 2, 23:00
      await seedTask(t, agent.id, {
        status: 'completed',
        budgetCents: 4000,
        maxWorkers: 2,
        createdAt: at(4, 23),
      }); // paid day 5
      await seedTask(t, agent.id, { status: 'cancelled', budgetCents: 2000, createdAt: at(5, 3) }); // worker 600 on day 5
      await seedTask(t, agent.id, { status: 'failed', createdAt: at(6) }); // outside the range

      const res = await usage(agent, { start_date: isoDay(1), end_date: isoDay(5) }).expect(200);
      expect(res.body).toEqual([
        { date: isoDay(1), requests: 0, tasks_created: 0, spend_cents: 0 },
        { date: isoDay(2), requests: 17, tasks_created: 2, spend_cents: 3000 },
        { date: isoDay(3), requests: 0, tasks_created: 0, spend_cents: 0 },
        { date: isoDay(4), requests: 5, tasks_created: 1, spend_cents: 0 },
        { date: isoDay(5), requests: 0, tasks_created: 1, spend_cents: 8000 + 600 },
      ]);

      // Over all time, daily spending adds up to lifetime_spent_cents.
      const all = await usage(agent, { start_date: isoDay(0), end_date: isoDay(20) }).expect(200);
      expect(all.body).toHaveLength(21);
      const balance = await t.http
        .get('/api/v1/payment/balance')
        .set('Authorization', agent.key)
        .set('X-API-Secret', agent.apiSecret)
        .expect(200);
      expect(all.body.reduce((s: number, p: { spend_cents: number }) => s + p.spend_cents, 0)).toBe(
        balance.body.lifetime_spent_cents,
      );
    });

    it("today's requests appear once the tracker has flushed", async () => {
      const agent = await createAgent(t);
      for (let i = 0; i < 4; i++)
        await t.http.get('/v1/payment/balance').set('Authorization', agent.key).expect(200);
      await t.app.get(UsageTracker).flush();
      const today = t.clock.now().toISOString().slice(0, 10);
      const res = await usage(agent, { start_date: today, end_date: `${today}T23:59:59Z` }).expect(200);
      expect(res.body).toEqual([{ date: today, requests: 4, tasks_created: 0, spend_cents: 0 }]);
    });

    it('covers at most 366 days', async () => {
      const agent = await createAgent(t);
      const ok = await usage(agent, { start_date: '2024-01-01', end_date: '2024-12-31' }).expect(200);
      expect(ok.body).toHaveLength(366);
      expect(ok.body[59]).toEqual({ date: '2024-02-29', requests: 0, tasks_created: 0, spend_cents: 0 });
      const res = await usage(agent, { start_date: '2024-01-01', end_date: '2025-01-01' }).expect(400);
      expect(res.body.error.details[0].field).toBe('end_date');
    });

    it.each([
      [{ end_date: '2024-01-02' }, 'start_date'],
      [{ start_date: '2024-01-02' }, 'end_date'],
      [{ start_date: '2024-01-02', end_date: 'soon' }, 'end_date'],
      [{ start_date: '2024-01-05', end_date: '2024-01-02' }, 'start_date'],
    ])('refuses %j with 400 validation_error on %s', async (query, field) => {
      const agent = await createAgent(t);
      const res = await usage(agent, query).expect(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('is for console sessions: an API key is 403', async () => {
      const agent = await createAgent(t);
      const res = await t.http
        .get('/v1/agent/stats/usage')
        .query({ start_date: '2024-01-01', end_date: '2024-01-02' })
        .set('Authorization', agent.key)
        .expect(403);
      expect(res.body.error.code).toBe('forbidden');
    });
  });
});
