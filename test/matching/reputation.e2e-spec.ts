import { TaskTimers } from '../../src/task/services/task-timers';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { spot } from '../support/photos';
import { expectError } from '../support/errors';
import { accept, act, createTask, feedback, submit } from '../support/tasks';

/** Reputation (product-decisions §5) is stored, recomputed on every outcome, shown, and enforced. */
describe('worker reputation', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = await createAgent(t, { balanceCents: 10_000_000 });
  });
  afterAll(() => t.close());

  async function profile(w: TestWorker) {
    return (await t.http.get('/v1/worker/profile').set('Authorization', w.bearer).expect(200)).body;
  }

  it('a new worker has 4.0 and may hold 3 unfinished assignments', async () => {
    const w = await createWorker(t);
    expect(await profile(w)).toMatchObject({
      reputation: 4,
      reputation_details: {
        finished_tasks: 0,
        approved_tasks: 0,
        rating_count: 0,
        rating_average: null,
        median_response_minutes: null,
        live_assignment_limit: 3,
      },
    });
  });

  it('a rejection and an abandonment push it below 3.5: the cap drops to 1 and min_reputation shuts tasks out', async () => {
    const w = await createWorker(t);
    const rejected = await createTask(t, agent);
    const a = await accept(t, w, rejected);
    await submit(t, w, a).expect(200);
    await feedback(t, agent, rejected, {
      accept_result: false,
      reason_code: 'poor_quality',
      rating: 1,
    }).expect(200);
    // completion (0 + 2.4) / 4 = 0.6, rating (0.2 + 2.4) / 4 = 0.65, response (1 + 2.4) / 4 = 0.85 -> 3.2
    expect(await profile(w)).toMatchObject({
      reputation: 3.2,
      reputation_details: {
        finished_tasks: 1,
        approved_tasks: 0,
        rating_count: 1,
        rating_average: 1,
        median_response_minutes: 0,
        live_assignment_limit: 1,
      },
    });
    const detail = await t.http.get(`/v1/tasks/${rejected}`).set('Authorization', agent.key).expect(200);
    expect(detail.body.assignments[0]).toMatchObject({ worker_id: w.id, worker_reputation: 3.2 });

    const [t1, t2] = [await createTask(t, agent), await createTask(t, agent)];
    const a1 = await accept(t, w, t1);
    const capped = await t.http.post(`/v1/worker/tasks/${t2}/accept`).set('Authorization', w.bearer);
    expectError(capped, 409, 'assignment_limit_reached');
    expect(capped.body.error).toMatchObject({ limit: 1, live_assignments: 1 });

    await act(t, w, a1, 'abandon').expect(200);
    // completion 2.4 / 5 = 0.48 -> 5 * (0.288 + 0.195 + 0.085) = 2.84
    expect((await profile(w)).reputation).toBe(2.84);

    // min_reputation is honoured in the listing and on accept.
    const here = spot();
    const picky = await createTask(t, agent, { location: here, requirements: { min_reputation: 3 } });
    const open = await createTask(t, agent, { location: here });
    const list = await t.http
      .get(`/v1/worker/tasks/available?latitude=${here.latitude}&longitude=${here.longitude}`)
      .set('Authorization', w.bearer)
      .expect(200);
    const ids = list.body.tasks.map((x: { task_id: string }) => x.task_id);
    expect(ids).toContain(open);
    expect(ids).not.toContain(picky);
    const refused = await t.http.post(`/v1/worker/tasks/${picky}/accept`).set('Authorization', w.bearer);
    expectError(refused, 403, 'not_eligible');
    expect(refused.body.error).toMatchObject({ min_reputation: 3, worker_reputation: 2.84 });
  });

  it('work that expires at the deadline counts against the worker; an approval rated 5 raises it', async () => {
    const w = await createWorker(t);
    const taskId = await createTask(t, agent, {
      deadline_at: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
    });
    await accept(t, w, taskId);
    t.clock.advance(3_601_000);
    await t.app.get(TaskTimers).sweepDeadlines();
    const [row] = await t.db.query(`SELECT reputation, finished_tasks FROM workers WHERE id = $1`, [w.id]);
    expect({ reputation: Number(row.reputation), finished: row.finished_tasks }).toEqual({
      reputation: 3.4,
      finished: 1,
    });

    const good = await createWorker(t);
    const done = await createTask(t, agent);
    const a = await accept(t, good, done);
    await submit(t, good, a).expect(200);
    await feedback(t, agent, done, { accept_result: true, rating: 5 }).expect(200);
    const [g] = await t.db.query(`SELECT reputation FROM workers WHERE id = $1`, [good.id]);
    expect(Number(g.reputation)).toBe(4.25);
  });

  it('a lapsed offer or a declined one does not change reputation', async () => {
    const here = spot();
    const w = await createWorker(t);
    await t.http
      .put('/v1/worker/availability')
      .set('Authorization', w.bearer)
      .send({ online: true, ...here })
      .expect(200);
    const first = await createTask(t, agent, { location: here });
    const [offer] = await t.db.query(`SELECT id FROM assignments WHERE task_id = $1`, [first]);
    await t.http
      .post(`/v1/worker/assignments/${offer.id}/decline`)
      .set('Authorization', w.bearer)
      .expect(200);
    await createTask(t, agent, { location: here });
    t.clock.advance(121_000);
    expect(await t.app.get(TaskTimers).expireOffers()).toBe(1);
    expect((await profile(w)).reputation).toBe(4);
  });
});
