import { JobRunner } from '../../src/jobs/job-runner';
import { TaskTimers } from '../../src/task/services/task-timers';
import { createAgent, createWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { agentBalance, escrowOf, workerBalance } from '../support/balances';
import { expectError } from '../support/errors';
import {
  accept,
  act,
  createTask,
  eventsOf,
  feedback,
  HOUR,
  relogin,
  submit,
  taskStatus,
} from '../support/tasks';

/** Deadlines, auto-approval and offer expiry, driven by the test clock through the job handlers' methods. */
describe('time-based task rules', () => {
  let t: TestApp;
  let timers: TaskTimers;
  beforeAll(async () => {
    t = await createTestApp();
    timers = t.app.get(TaskTimers);
  });
  afterAll(() => t.close());

  it('pg-boss runs in-process with every schedule', async () => {
    expect(t.app.get(JobRunner).running).toBe(true);
    const rows: { name: string; cron: string }[] = await t.db.query(
      `SELECT name, cron FROM pgboss.schedule ORDER BY name`,
    );
    expect(rows.map((r) => r.name)).toEqual([
      'events-publish',
      'idempotency-key-purge',
      'payment-order-expiry',
      'payment-reconciliation',
      'position-erasure',
      'task-auto-approve',
      'task-deadline-sweep',
      'task-offer-expiry',
      'webhook-delivery',
    ]);
  });

  it('deadline with nobody on the task: failed, 100 % refund', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const taskId = await createTask(t, agent);
    await timers.sweepDeadlines();
    expect(await taskStatus(t, agent, taskId)).toBe('pending');
    t.clock.advance(24 * HOUR + 1000);
    await timers.runDue();
    expect(await taskStatus(t, agent, taskId)).toBe('failed');
    expect(await agentBalance(t, agent.id)).toBe(5000);
    expect(await escrowOf(t, taskId)).toBe(0);
    expect(await eventsOf(t, taskId)).toEqual(['task.failed']);
    // Running the sweep again changes nothing.
    await timers.sweepDeadlines();
    expect(await agentBalance(t, agent.id)).toBe(5000);
    expect(await eventsOf(t, taskId)).toEqual(['task.failed']);
  });

  it('deadline: accepted work expires (refunded), a submitted result waits, then is auto-approved after 72 h', async () => {
    const agent = await createAgent(t, { balanceCents: 15_000 });
    const [w1, w2] = [await createWorker(t), await createWorker(t)];
    const taskId = await createTask(t, agent, { max_workers: 3 });
    const a1 = await accept(t, w1, taskId);
    const a2 = await accept(t, w2, taskId);
    await act(t, w1, a1, 'start').expect(200);
    await submit(t, w2, a2).expect(200);

    t.clock.advance(24 * HOUR + 1000);
    await relogin(t, w1);
    // Past the deadline (before any sweep), nothing new can happen.
    expectError(await submit(t, w1, a1), 409, 'invalid_state');
    expectError(
      await t.http
        .post(`/v1/worker/tasks/${taskId}/accept`)
        .set('Authorization', (await createWorker(t)).bearer),
      409,
      'invalid_state',
    );
    await timers.runDue();
    expect(await taskStatus(t, agent, taskId)).toBe('submitted');
    expect(await agentBalance(t, agent.id)).toBe(10_000); // w1's slot and the open slot came back
    expect(await escrowOf(t, taskId)).toBe(5000);
    const detail = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    expect(detail.body.assignments.map((a: { status: string }) => a.status).sort()).toEqual([
      'expired',
      'submitted',
    ]);

    // Submitted 24 h ago; 71 h after submission it still waits, 73 h after it is approved.
    t.clock.advance(47 * HOUR);
    await timers.runDue();
    expect(await taskStatus(t, agent, taskId)).toBe('submitted');
    t.clock.advance(2 * HOUR);
    expect((await timers.runDue()).autoApproved).toBeGreaterThanOrEqual(1);
    expect(await taskStatus(t, agent, taskId)).toBe('completed');
    expect(await workerBalance(t, w2.id)).toBe(4500);
    expect(await workerBalance(t, w1.id)).toBe(0);
    expect(await escrowOf(t, taskId)).toBe(0);
    expect(await eventsOf(t, taskId)).toEqual(
      expect.arrayContaining(['assignment.expired', 'assignment.approved', 'task.completed']),
    );
    const result = await t.http.get(`/v1/tasks/${taskId}/result`).set('Authorization', agent.key).expect(200);
    expect(result.body.quality_score).toBeNull();
  });

  it('auto-approval also applies before the deadline, without closing the open slots', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const w = await createWorker(t);
    const taskId = await createTask(t, agent, {
      max_workers: 2,
      deadline_at: new Date(t.clock.now().getTime() + 30 * 24 * HOUR).toISOString(),
    });
    await submit(t, w, await accept(t, w, taskId)).expect(200);
    t.clock.advance(72 * HOUR + 1000);
    await timers.autoApprove();
    expect(await workerBalance(t, w.id)).toBe(4500);
    expect(await taskStatus(t, agent, taskId)).toBe('pending');
    expect(await escrowOf(t, taskId)).toBe(5000);
    // Cancelling the rest refunds the open slot only.
    const res = await t.http.post(`/v1/tasks/${taskId}/cancel`).set('Authorization', agent.key).expect(200);
    expect(res.body.refund_cents).toBe(5000);
  });

  it('after the agent accepts a result, a slot freed by an abandonment is refunded instead of reopening', async () => {
    const agent = await createAgent(t, { balanceCents: 15_000 });
    const [w1, w2] = [await createWorker(t), await createWorker(t)];
    const taskId = await createTask(t, agent, { max_workers: 3 });
    const a1 = await accept(t, w1, taskId);
    const a2 = await accept(t, w2, taskId);
    await submit(t, w1, a1).expect(200);
    await feedback(t, agent, taskId, { accept_result: true, assignment_id: a1 }).expect(200);
    expect(await agentBalance(t, agent.id)).toBe(5000); // the unfilled third slot came back
    expect(await taskStatus(t, agent, taskId)).toBe('assigned');
    await act(t, w2, a2, 'abandon').expect(200);
    expect(await taskStatus(t, agent, taskId)).toBe('completed');
    expect(await agentBalance(t, agent.id)).toBe(10_000);
    expect(await escrowOf(t, taskId)).toBe(0);
  });

  it('an unanswered offer lapses and its slot reopens', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const w = await createWorker(t);
    const taskId = await createTask(t, agent);
    // Dispatch (the matching issue) makes offers; here one is written as it will be.
    const now = t.clock.now();
    await t.db.query(
      `INSERT INTO assignments (task_id, worker_id, status, offered_at, offer_expires_at, created_at, updated_at)
       VALUES ($1, $2, 'pending', $3, $4, $3, $3)`,
      [taskId, w.id, now, new Date(now.getTime() + 120_000)],
    );
    t.clock.advance(121_000);
    expect((await timers.runDue()).offers).toBeGreaterThanOrEqual(1);
    const detail = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    expect(detail.body.assignments[0].status).toBe('expired');
    expect(detail.body.progress.open_slots).toBe(1);
    const other = await createWorker(t);
    await accept(t, other, taskId);
    expect(await taskStatus(t, agent, taskId)).toBe('assigned');
    expect(await escrowOf(t, taskId)).toBe(5000);
    await t.http.post(`/v1/tasks/${taskId}/cancel`).set('Authorization', agent.key).expect(200);
  });

  it('an offer accepted in time becomes the worker’s assignment', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const w = await createWorker(t);
    const taskId = await createTask(t, agent);
    const now = t.clock.now();
    const [{ id }]: { id: string }[] = await t.db.query(
      `INSERT INTO assignments (task_id, worker_id, status, offered_at, offer_expires_at, created_at, updated_at)
       VALUES ($1, $2, 'pending', $3, $4, $3, $3) RETURNING id`,
      [taskId, w.id, now, new Date(now.getTime() + 120_000)],
    );
    const res = await t.http
      .post(`/v1/worker/tasks/${taskId}/accept`)
      .set('Authorization', w.bearer)
      .expect(200);
    expect(res.body.assignment_id).toBe(id);
    await submit(t, w, id).expect(200);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    expect(await workerBalance(t, w.id)).toBe(4500);
  });
});
