import { createAgent, createWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { agentBalance, escrowOf, platformFees, workerBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { accept, act, createTask, eventsOf, feedback, submit, SURFACES, taskStatus } from '../support/tasks';

/** Cancellation and its refund policy: 100 % while pending, 70/30 for accepted slots, refused once work is on. */
describe('task cancellation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe.each(Object.values(SURFACES))('on $name', (surface) => {
    it('from pending: 100 % refund, task.cancelled, a second cancel is 409', async () => {
      const agent = await createAgent(t, { balanceCents: 12_000 });
      const taskId = await createTask(t, agent, { max_workers: 2 }, surface);
      expect(await agentBalance(t, agent.id)).toBe(2000);
      const res = await surface.cancel(t, taskId).set('Authorization', agent.key).expect(200);
      expect(res.body).toEqual({
        task_id: taskId,
        status: 'cancelled',
        refund_cents: 10_000,
        worker_compensation_cents: 0,
      });
      expect(await agentBalance(t, agent.id)).toBe(12_000);
      expect(await escrowOf(t, taskId)).toBe(0);
      expect(await taskStatus(t, agent, taskId)).toBe('cancelled');
      expect(await eventsOf(t, taskId)).toEqual(['task.cancelled']);
      const again = await surface.cancel(t, taskId).set('Authorization', agent.key);
      expectError(again, 409, 'invalid_state');
      expect(again.body.error.current_status).toBe('cancelled');
    });

    it('from assigned: accepted slot 70/30, open slot 100 %, no platform fee', async () => {
      const agent = await createAgent(t, { balanceCents: 10_000 });
      const worker = await createWorker(t);
      const taskId = await createTask(t, agent, { max_workers: 2 }, surface);
      const assignmentId = await accept(t, worker, taskId);
      const fees = await platformFees(t);
      const res = await surface.cancel(t, taskId).set('Authorization', agent.key).expect(200);
      expect(res.body).toEqual({
        task_id: taskId,
        status: 'cancelled',
        refund_cents: 3500 + 5000,
        worker_compensation_cents: 1500,
      });
      expect(await agentBalance(t, agent.id)).toBe(8500);
      expect(await workerBalance(t, worker.id)).toBe(1500);
      expect(await platformFees(t)).toBe(fees);
      expect(await escrowOf(t, taskId)).toBe(0);
      expect(await eventsOf(t, taskId)).toEqual(
        expect.arrayContaining(['assignment.cancelled', 'task.cancelled']),
      );
      // The worker's assignment is over: submitting is refused.
      expectError(await submit(t, worker, assignmentId), 409, 'invalid_state');
    });
  });

  it.each(['in_progress', 'submitted'])(
    'from %s: 409 invalid_state with current_status, nothing moves',
    async (state) => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const worker = await createWorker(t);
      const taskId = await createTask(t, agent);
      const a = await accept(t, worker, taskId);
      await act(t, worker, a, 'start').expect(200);
      if (state === 'submitted') await submit(t, worker, a).expect(200);
      for (const surface of Object.values(SURFACES)) {
        const res = await surface.cancel(t, taskId).set('Authorization', agent.key);
        expectError(res, 409, 'invalid_state');
        expect(res.body.error.current_status).toBe(state);
      }
      expect(await escrowOf(t, taskId)).toBe(5000);
      expect(await agentBalance(t, agent.id)).toBe(0);
      expect(await workerBalance(t, worker.id)).toBe(0);
      if (state === 'submitted') await feedback(t, agent, taskId, { accept_result: true }).expect(200);
      else {
        await submit(t, worker, a).expect(200);
        await feedback(t, agent, taskId, { accept_result: false, reason_code: 'other' }).expect(200);
      }
    },
  );

  it('several workers: refused while a result awaits review, allowed after it is approved', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const [w1, w2] = [await createWorker(t), await createWorker(t)];
    const taskId = await createTask(t, agent, { max_workers: 2 });
    const a1 = await accept(t, w1, taskId);
    await accept(t, w2, taskId);
    await submit(t, w1, a1).expect(200);
    expect(await taskStatus(t, agent, taskId)).toBe('assigned');
    const refused = await SURFACES.v1.cancel(t, taskId).set('Authorization', agent.key);
    expectError(refused, 409, 'invalid_state');
    expect(refused.body.error.current_status).toBe('assigned');

    await feedback(t, agent, taskId, { accept_result: true, assignment_id: a1 }).expect(200);
    const res = await SURFACES.v1.cancel(t, taskId).set('Authorization', agent.key).expect(200);
    expect(res.body).toMatchObject({
      status: 'cancelled',
      refund_cents: 3500,
      worker_compensation_cents: 1500,
    });
    expect(await workerBalance(t, w1.id)).toBe(4500);
    expect(await workerBalance(t, w2.id)).toBe(1500);
    expect(await escrowOf(t, taskId)).toBe(0);
    // The approved result stays readable on the cancelled task.
    const result = await t.http.get(`/v1/tasks/${taskId}/result`).set('Authorization', agent.key).expect(200);
    expect(result.body.status).toBe('cancelled');
    expect(result.body.results).toHaveLength(1);
  });
});
