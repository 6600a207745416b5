import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { spot } from '../support/photos';
import { expectError } from '../support/errors';
import { accept, createTask, feedback, relogin, submit, SURFACES } from '../support/tasks';

/** Workers rate agents of completed tasks (two-sided reputation); earnings come from the ledger. */
describe('ratings of agents and worker earnings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A completed task on which `worker`'s result was approved. */
  async function completedBy(agent: TestAgent, worker: TestWorker, over: Record<string, unknown> = {}) {
    const taskId = await createTask(t, agent, over);
    const a = await accept(t, worker, taskId);
    await submit(t, worker, a).expect(200);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    return taskId;
  }

  const rate = (w: TestWorker, taskId: string, body: Record<string, unknown>) =>
    t.http.post(`/v1/worker/tasks/${taskId}/rate`).set('Authorization', w.bearer).send(body);

  it('rates once; the agent’s average shows on its available tasks', async () => {
    const agent = await createAgent(t, { balanceCents: 1_000_000 });
    const [w1, w2] = [await createWorker(t), await createWorker(t)];
    const done1 = await completedBy(agent, w1);
    const done2 = await completedBy(agent, w2);
    const res = await rate(w1, done1, { rating: 5, comment: 'clear instructions' }).expect(200);
    expect(res.body).toEqual({
      rating_id: expect.any(String),
      task_id: done1,
      rating: 5,
      comment: 'clear instructions',
      created_at: expect.any(String),
    });
    expectError(await rate(w1, done1, { rating: 1 }), 409, 'already_rated');
    await t.http
      .post(`/api/v1/worker/tasks/${done2}/rate`)
      .set('Authorization', w2.bearer)
      .send({ rating: 2 })
      .expect(200);

    const here = spot();
    const open = await createTask(t, agent, { location: here });
    const looker = await createWorker(t);
    const list = await t.http
      .get(`/v1/worker/tasks/available?latitude=${here.latitude}&longitude=${here.longitude}`)
      .set('Authorization', looker.bearer)
      .expect(200);
    const item = list.body.tasks.find((x: { task_id: string }) => x.task_id === open);
    expect(item.agent_rating).toEqual({ average: 3.5, count: 2 });

    const unrated = await createAgent(t, { balanceCents: 100_000 });
    const fresh = await createTask(t, unrated, { location: here });
    const again = await t.http
      .get(`/v1/worker/tasks/available?latitude=${here.latitude}&longitude=${here.longitude}`)
      .set('Authorization', looker.bearer)
      .expect(200);
    expect(again.body.tasks.find((x: { task_id: string }) => x.task_id === fresh).agent_rating).toEqual({
      average: null,
      count: 0,
    });
  });

  it('concurrent ratings of one task by one worker: exactly one counts', async () => {
    const agent = await createAgent(t, { balanceCents: 1_000_000 });
    const w = await createWorker(t);
    const done = await completedBy(agent, w);
    const results = await Promise.all([0, 1, 2, 3].map((i) => rate(w, done, { rating: i + 1 })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const [stats] = await t.db.query(`SELECT rating_count FROM agent_rating_stats WHERE agent_id = $1`, [
      agent.id,
    ]);
    expect(stats.rating_count).toBe(1);
  });

  it('404 for an unknown task; 403 unless your result was approved on a completed task; 400 on bad bodies', async () => {
    const agent = await createAgent(t, { balanceCents: 1_000_000 });
    const w = await createWorker(t);
    expectError(await rate(w, '00000000-0000-4000-8000-000000000000', { rating: 3 }), 404, 'task_not_found');
    const done = await completedBy(agent, w);
    const outsider = await createWorker(t);
    expectError(await rate(outsider, done, { rating: 3 }), 403, 'forbidden');
    const waiting = await createTask(t, agent);
    const a = await accept(t, w, waiting);
    await submit(t, w, a).expect(200);
    expectError(await rate(w, waiting, { rating: 3 }), 403, 'forbidden');
    // Approved, but another worker still holds a slot: the task is not completed yet.
    const multi = await createTask(t, agent, { max_workers: 2 });
    const m = await accept(t, w, multi);
    await accept(t, await createWorker(t), multi);
    await submit(t, w, m).expect(200);
    await feedback(t, agent, multi, { accept_result: true, assignment_id: m }).expect(200);
    const [{ status }] = await t.db.query(`SELECT status FROM tasks WHERE id = $1`, [multi]);
    expect(status).toBe('assigned');
    const notDone = await rate(w, multi, { rating: 3 });
    expectError(notDone, 403, 'forbidden');
    expect(notDone.body.error.current_status).toBe('assigned');
    for (const body of [
      { rating: 6 },
      { rating: -1 },
      { rating: 2.5 },
      { rating: '4' },
      {},
      { rating: 3, comment: 'x'.repeat(501) },
    ]) {
      expectError(await rate(w, done, body), 400, 'validation_error');
    }
    await rate(w, done, { rating: 0 }).expect(200);
    expectError(
      await t.http.post(`/v1/worker/tasks/${done}/rate`).set('Authorization', agent.key).send({ rating: 3 }),
      403,
      'forbidden',
    );
  });

  it('earnings: payouts, cancellation compensation, this month, awaiting review, from the ledger', async () => {
    const agent = await createAgent(t, { balanceCents: 1_000_000 });
    const w = await createWorker(t);
    const empty = await t.http.get('/v1/worker/earnings').set('Authorization', w.bearer).expect(200);
    expect(empty.body).toEqual({
      balance_cents: 0,
      withdrawing_cents: 0,
      total_earned_cents: 0,
      task_earnings_cents: 0,
      compensation_cents: 0,
      this_month_cents: 0,
      withdrawn_cents: 0,
      completed_tasks: 0,
      pending_review_cents: 0,
      currency: 'CNY',
    });

    await completedBy(agent, w, { budget_cents: 5000 }); // payout 4500
    const cancelled = await createTask(t, agent, { budget_cents: 10_000 });
    await accept(t, w, cancelled);
    await SURFACES.v1.cancel(t, cancelled).set('Authorization', agent.key).expect(200); // 30 % = 3000
    const waiting = await createTask(t, agent, { budget_cents: 2000 });
    await submit(t, w, await accept(t, w, waiting)).expect(200); // payout 1800 awaits review

    const res = await t.http.get('/api/v1/worker/earnings').set('Authorization', w.bearer).expect(200);
    expect(res.body).toEqual({
      balance_cents: 7500,
      withdrawing_cents: 0,
      total_earned_cents: 7500,
      task_earnings_cents: 4500,
      compensation_cents: 3000,
      this_month_cents: 7500,
      withdrawn_cents: 0,
      completed_tasks: 1,
      pending_review_cents: 1800,
      currency: 'CNY',
    });
    const balance = await t.http.get('/v1/worker/balance').set('Authorization', w.bearer).expect(200);
    expect(balance.body.balance_cents).toBe(7500);

    // Next month: nothing earned this month yet, the totals stay.
    t.clock.advance(40 * 86_400_000);
    await relogin(t, w);
    const later = await t.http.get('/v1/worker/earnings').set('Authorization', w.bearer).expect(200);
    expect(later.body).toMatchObject({ this_month_cents: 0, total_earned_cents: 7500, balance_cents: 7500 });
  });
});
