import { TaskTimers } from '../../src/task/services/task-timers';
import { createAgent, createWorker, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { agentBalance, escrowOf, platformFees, workerBalance } from '../support/balances';
import { accept, createTask, feedback, HOUR, submit, SURFACES, taskStatus } from '../support/tasks';

/** Races on slots and money: requests fired together must fill, pay and refund exactly once. */
describe('task concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function workers(n: number): Promise<TestWorker[]> {
    return Promise.all(Array.from({ length: n }, () => createWorker(t)));
  }

  it('20 workers accept a 3-slot task at once: exactly 3 succeed, the rest are task_full', async () => {
    const agent = await createAgent(t, { balanceCents: 15_000 });
    const taskId = await createTask(t, agent, { max_workers: 3 });
    const crowd = await workers(20);
    const results = await Promise.all(
      crowd.map((w) => t.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', w.bearer)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(17);
    for (const r of refused) expect([r.status, r.body.error.code]).toEqual([409, 'task_full']);
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM assignments WHERE task_id = $1`,
      [taskId],
    );
    expect(n).toBe(3);
    await t.http.post(`/v1/tasks/${taskId}/cancel`).set('Authorization', agent.key).expect(200);
    expect(await escrowOf(t, taskId)).toBe(0);
  });

  it('workers whose offers lapsed race newcomers for a 2-slot task: exactly 2 take it, each at most once', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const taskId = await createTask(t, agent, { max_workers: 2 });
    const lapsed = await workers(3);
    // Offers that lapsed (as the sweep leaves them): each keeps its row, which a take from the list reuses.
    for (const w of lapsed) {
      await t.db.query(
        `INSERT INTO assignments (task_id, worker_id, status, offered_at, offer_expires_at, offer_ended_at, closed_at,
                                  created_at, updated_at)
         VALUES ($1, $2, 'expired', $3, $3, $3, $3, $3, $3)`,
        [taskId, w.id, t.clock.now()],
      );
    }
    const crowd = [...lapsed, ...lapsed, ...(await workers(10))];
    const results = await Promise.all(
      crowd.map((w) => t.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', w.bearer)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(['task_full', 'already_assigned']).toContain(r.body.error.code);
    }
    const rows: { worker_id: string; status: string }[] = await t.db.query(
      `SELECT worker_id, status FROM assignments WHERE task_id = $1`,
      [taskId],
    );
    const accepted = rows.filter((r) => r.status === 'accepted');
    expect(accepted).toHaveLength(2);
    expect(new Set(accepted.map((r) => r.worker_id)).size).toBe(2);
    // One row per task and worker, whoever won.
    expect(new Set(rows.map((r) => r.worker_id)).size).toBe(rows.length);
    await t.http.post(`/v1/tasks/${taskId}/cancel`).set('Authorization', agent.key).expect(200);
    expect(await escrowOf(t, taskId)).toBe(0);
  });

  it('one worker accepting 6 tasks at once gets exactly 3 (the live-assignment cap)', async () => {
    const agent = await createAgent(t, { balanceCents: 30_000 });
    const [w] = await workers(1);
    const ids = await Promise.all(Array.from({ length: 6 }, () => createTask(t, agent)));
    const results = await Promise.all(
      ids.map((id) => t.http.post(`/v1/worker/tasks/${id}/accept`).set('Authorization', w.bearer)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.error).toMatchObject({ code: 'assignment_limit_reached', limit: 3, live_assignments: 3 });
    }
    for (const id of ids)
      await t.http.post(`/v1/tasks/${id}/cancel`).set('Authorization', agent.key).expect(200);
  });

  it('the same verdict sent twice at once: one 200, one 409, the worker is paid once', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const [w] = await workers(1);
    const taskId = await createTask(t, agent);
    await submit(t, w, await accept(t, w, taskId)).expect(200);
    const fees = await platformFees(t);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => feedback(t, agent, taskId, { accept_result: true })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await workerBalance(t, w.id)).toBe(4500);
    expect((await platformFees(t)) - fees).toBe(500);
    expect(await escrowOf(t, taskId)).toBe(0);
  });

  it('approve and cancel fired together: each slot settles once, whichever runs first', async () => {
    // A submitted, B accepted (task `assigned`). Cancel is refused while A awaits review, so: approve first
    // -> both succeed (A paid, B 70/30); cancel first -> cancel 409, approve pays A, B keeps working.
    for (let round = 0; round < 6; round++) {
      const agent = await createAgent(t, { balanceCents: 10_000 });
      const [a, b] = await workers(2);
      const taskId = await createTask(t, agent, { max_workers: 2 });
      const aId = await accept(t, a, taskId);
      await accept(t, b, taskId);
      await submit(t, a, aId).expect(200);
      const [approve, cancel] = await Promise.all([
        feedback(t, agent, taskId, { accept_result: true, assignment_id: aId }),
        SURFACES.api.cancel(t, taskId).set('Authorization', agent.key),
      ]);
      expect(approve.status).toBe(200);
      expect(await workerBalance(t, a.id)).toBe(4500);
      if (cancel.status === 200) {
        expect(await workerBalance(t, b.id)).toBe(1500);
        expect(await agentBalance(t, agent.id)).toBe(3500);
        expect(await escrowOf(t, taskId)).toBe(0);
        expect(await taskStatus(t, agent, taskId)).toBe('cancelled');
      } else {
        expect(cancel.body.error.code).toBe('invalid_state');
        expect(await workerBalance(t, b.id)).toBe(0);
        expect(await escrowOf(t, taskId)).toBe(5000);
        await SURFACES.api.cancel(t, taskId).set('Authorization', agent.key).expect(200);
      }
    }
  });

  it('cancel and the worker’s submit fired together: exactly one wins', async () => {
    for (let round = 0; round < 6; round++) {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const [w] = await workers(1);
      const taskId = await createTask(t, agent);
      const aId = await accept(t, w, taskId);
      const [cancel, sub] = await Promise.all([
        SURFACES.v1.cancel(t, taskId).set('Authorization', agent.key),
        submit(t, w, aId),
      ]);
      expect([cancel.status, sub.status].sort()).toEqual([200, 409]);
      if (cancel.status === 200) {
        expect(await workerBalance(t, w.id)).toBe(1500);
        expect(await agentBalance(t, agent.id)).toBe(3500);
      } else {
        expect(await taskStatus(t, agent, taskId)).toBe('submitted');
        await feedback(t, agent, taskId, { accept_result: false, reason_code: 'other' }).expect(200);
        expect(await agentBalance(t, agent.id)).toBe(5000);
      }
      expect(await escrowOf(t, taskId)).toBe(0);
    }
  });

  it('the deadline sweep racing an approval and itself settles every slot once', async () => {
    const agent = await createAgent(t, { balanceCents: 15_000 });
    const [a, b] = await workers(2);
    const taskId = await createTask(t, agent, { max_workers: 3 });
    const aId = await accept(t, a, taskId);
    await accept(t, b, taskId);
    await submit(t, a, aId).expect(200);
    t.clock.advance(24 * HOUR + 1000);
    const timers = t.app.get(TaskTimers);
    const [approve] = await Promise.all([
      feedback(t, agent, taskId, { accept_result: true }),
      timers.sweepDeadlines(),
      timers.sweepDeadlines(),
      timers.sweepDeadlines(),
    ]);
    expect(approve.status).toBe(200);
    await timers.runDue();
    expect(await taskStatus(t, agent, taskId)).toBe('completed');
    expect(await workerBalance(t, a.id)).toBe(4500);
    expect(await workerBalance(t, b.id)).toBe(0);
    expect(await agentBalance(t, agent.id)).toBe(10_000);
    expect(await escrowOf(t, taskId)).toBe(0);
  });
});
