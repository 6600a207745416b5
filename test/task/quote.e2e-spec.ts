import { createAgent, createWorker, TestAgent } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { offset, spot } from '../support/photos';
import { goOnline, pendingOffer, setReputation } from '../matching/matching-helpers';
import { agentBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { createTask, HOUR, SURFACES, taskBody } from '../support/tasks';

const QUOTE_PATHS = ['/v1/tasks/quote', '/api/v1/tasks/quote'];

/** POST /v1/tasks/quote: a creation body priced and checked without creating anything (product-decisions §13). */
describe('task quote', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Everything a creation would touch, so a quote can be shown to touch none of it. */
  async function footprint(agent: TestAgent) {
    const [row]: Record<string, number>[] = await t.db.query(
      `SELECT (SELECT count(*)::int FROM tasks WHERE agent_id = $1) AS tasks,
              (SELECT count(*)::int FROM ledger_journals WHERE agent_id = $1) AS journals,
              (SELECT count(*)::int FROM events WHERE agent_id = $1) AS events,
              (SELECT count(*)::int FROM assignments) AS assignments`,
      [agent.id],
    );
    return { ...row, balance: await agentBalance(t, agent.id) };
  }

  it.each(QUOTE_PATHS)(
    '%s answers the split, the hold, the refunds in cents and the auto-approval delay; nothing is created',
    async (path) => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const body = taskBody(t, { budget_cents: 5001, max_workers: 3, location: spot(), task_type: 'photo' });
      const before = await footprint(agent);
      const sent = t.clock.now().getTime();
      const res = await t.http.post(path).set('Authorization', agent.key).send(body).expect(200);
      const answered = t.clock.now().getTime();
      expect(res.body).toEqual({
        max_workers: 3,
        unable_payout_percent: 20,
        fee_bps: 1000,
        // fee = round_half_up(5001 × 10 %) = 500, payout 4501, per slot; the task holds 3 slots.
        per_slot: { budget_cents: 5001, worker_payout_cents: 4501, platform_fee_cents: 500 },
        cost_breakdown: { worker_payout_cents: 13_503, platform_fee_cents: 1500, total_cents: 15_003 },
        total_to_hold_cents: 15_003,
        balance: { available_cents: 20_000, covers: true, shortfall_cents: 0 },
        concurrency: { active_tasks: 0, max_concurrent_tasks: expect.any(Number), within_limit: true },
        can_create: true,
        answer_schema: null,
        review_policy: null,
        refund_policy: {
          // "Could not do it" accepted: 20 % of 5001 is 1000 (half up), less its fee of 100, to the worker.
          worker_unable: {
            allowed: true,
            refund_cents_per_slot: 4001,
            worker_cents_per_slot: 900,
            refund_percent: 80,
          },
          cancel_unassigned: {
            allowed: true,
            refund_cents_per_slot: 5001,
            worker_cents_per_slot: 0,
            refund_percent: 100,
          },
          // 30 % to the worker rounded half up (1500), the agent the exact rest (3501): the ledger's own split.
          cancel_assigned: {
            allowed: true,
            refund_cents_per_slot: 3501,
            worker_cents_per_slot: 1500,
            refund_percent: 70,
          },
          cancel_in_progress: {
            allowed: false,
            refund_cents_per_slot: 0,
            worker_cents_per_slot: 0,
            refund_percent: 0,
          },
          result_rejected: {
            allowed: true,
            refund_cents_per_slot: 5001,
            worker_cents_per_slot: 0,
            refund_percent: 100,
          },
          deadline_expired: {
            allowed: true,
            refund_cents_per_slot: 5001,
            worker_cents_per_slot: 0,
            refund_percent: 100,
          },
          worker_abandons: {
            allowed: true,
            refund_cents_per_slot: 0,
            worker_cents_per_slot: 0,
            refund_percent: 0,
          },
        },
        auto_approval: { delay_hours: 72 },
        // Counted within 2 km at least (product-decisions §16); nobody is online at this spot.
        workers: { radius_meters: 2000, eligible_online: 0, available_now: 0, simulated_online: 0 },
        estimated_completion_at: expect.any(String),
      });
      // photo: now + 2 h, the deadline being a day away.
      const estimated = Date.parse(res.body.estimated_completion_at);
      expect(estimated).toBeGreaterThanOrEqual(sent + 2 * HOUR);
      expect(estimated).toBeLessThanOrEqual(answered + 2 * HOUR);
      expect(await footprint(agent)).toEqual(before);

      // Creation with the same body holds exactly what the quote said.
      const created = await SURFACES.v1.create(t).set('Authorization', agent.key).send(body).expect(201);
      expect(created.body.cost_breakdown).toEqual(res.body.cost_breakdown);
      expect(await agentBalance(t, agent.id)).toBe(20_000 - res.body.total_to_hold_cents);
    },
  );

  it('a balance that does not cover the task is a 200 with the shortfall, not a 402', async () => {
    const poor = await createAgent(t, { balanceCents: 9000 });
    const res = await t.http
      .post('/v1/tasks/quote')
      .set('Authorization', poor.key)
      .send(taskBody(t, { max_workers: 2 }))
      .expect(200);
    expect(res.body.total_to_hold_cents).toBe(10_000);
    expect(res.body.balance).toEqual({ available_cents: 9000, covers: false, shortfall_cents: 1000 });
    expect(res.body.can_create).toBe(false);
    // And creation indeed refuses it.
    expectError(
      await SURFACES.v1
        .create(t)
        .set('Authorization', poor.key)
        .send(taskBody(t, { max_workers: 2 })),
      402,
      'insufficient_balance',
    );
  });

  it('uses the agent’s own fee rate (enterprise 8 %)', async () => {
    const enterprise = await createAgent(t, { balanceCents: 100_000 });
    await t.db.query(`UPDATE agents SET fee_bps = 800 WHERE id = $1`, [enterprise.id]);
    const res = await t.http
      .post('/api/v1/tasks/quote')
      .set('Authorization', enterprise.key)
      .send(taskBody(t, { budget_cents: 10_001, max_workers: 3 }))
      .expect(200);
    expect(res.body.fee_bps).toBe(800);
    expect(res.body.per_slot).toEqual({
      budget_cents: 10_001,
      worker_payout_cents: 9201,
      platform_fee_cents: 800,
    });
    expect(res.body.cost_breakdown).toEqual({
      worker_payout_cents: 27_603,
      platform_fee_cents: 2400,
      total_cents: 30_003,
    });
  });

  it('says when the concurrency limit would refuse the creation', async () => {
    const agent = await createAgent(t, { balanceCents: 100_000 });
    await t.db.query(`UPDATE agents SET max_concurrent_tasks = 1 WHERE id = $1`, [agent.id]);
    await createTask(t, agent);
    const res = await t.http
      .post('/v1/tasks/quote')
      .set('Authorization', agent.key)
      .send(taskBody(t))
      .expect(200);
    expect(res.body.concurrency).toEqual({ active_tasks: 1, max_concurrent_tasks: 1, within_limit: false });
    expect(res.body.balance.covers).toBe(true);
    expect(res.body.can_create).toBe(false);
  });

  it('counts the online workers who could take the task, and those free to be offered now, in buckets', async () => {
    // Four qualifying people and, beside them, one of each kind a filter leaves out: each filter is shown by the
    // figure crossing from bucket 1 (1 to 4) to bucket 5 when that filter is dropped.
    const agent = await createAgent(t, { balanceCents: 100_000 });
    const here = spot();
    const online = async (at: ReturnType<typeof spot>, skills = ['photography']) => {
      const w = await createWorker(t, { skills });
      await goOnline(t, w, at);
      return w;
    };
    for (const north of [100, 400, 900, 1500]) await online(offset(here, north));
    await online(offset(here, 300), []); // lacks the skill
    await online(offset(here, 2600)); // beyond 2 km of any point of the cell
    const lowRated = await online(offset(here, 200));
    await setReputation(t, lowRated, 3.0);
    await createWorker(t, { skills: ['photography'] }); // never online
    const other = await createAgent(t);
    const res = await t.http
      .post('/v1/sandbox/workers')
      .set('Authorization', other.key)
      .send({ location: offset(here, 50), skills: ['photography'] });
    expect(res.status).toBe(201); // another agent's simulated worker: never counted for this agent

    const quote = async (over: Record<string, unknown>, radius = 100) =>
      (
        await t.http
          .post('/v1/tasks/quote')
          .set('Authorization', agent.key)
          .send(taskBody(t, { ...over, location: { ...here, max_distance_meters: radius } }))
          .expect(200)
      ).body.workers;
    const strict = { requirements: { skills: ['photography'], min_reputation: 4 } };
    const counted = (n: number, free = n) => ({
      radius_meters: 2000,
      eligible_online: n,
      available_now: free,
      simulated_online: 0,
    });
    expect(await quote(strict)).toEqual(counted(1));
    expect(await quote({ requirements: { min_reputation: 4 } })).toEqual(counted(5));
    expect(await quote({ requirements: { skills: ['photography'] } })).toEqual(counted(5));
    expect(await quote(strict, 3000)).toEqual({
      ...counted(5),
      radius_meters: 3000,
    });

    // A fifth qualifying person, busy: an offer from another task waits for their answer, so they are eligible but
    // not free now.
    const elsewhere = spot();
    const busy = await online(elsewhere);
    const otherTask = await createTask(t, agent, { location: elsewhere });
    expect((await pendingOffer(t, otherTask))!.worker_id).toBe(busy.id);
    await goOnline(t, busy, offset(here, 50));
    expect(await quote(strict)).toEqual(counted(5, 1));
  });

  it('refuses bad credentials and a key without task:create; validation is covered with creation’s table', async () => {
    const reader = await createAgent(t, { permissions: ['task:read'] });
    for (const path of QUOTE_PATHS) {
      expectError(await t.http.post(path).send(taskBody(t)), 401, 'authentication_required');
      const res = await t.http.post(path).set('Authorization', reader.key).send(taskBody(t));
      expectError(res, 403, 'insufficient_permissions');
      expect(res.body.error.required_permission).toBe('task:create');
    }
  });
});
