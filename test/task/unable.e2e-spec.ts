import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createUploadTestApp, jpeg, offset, spot, uploadProof } from '../support/photos';
import type { TestApp } from '../support/app';
import { agentBalance, escrowOf, platformFees, workerBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { accept, createTask, feedback, HOUR, relogin, submit, SURFACES, taskBody } from '../support/tasks';
import { TaskTimers } from '../../src/task/services/task-timers';

/**
 * "Could not do it" (product-decisions §19): a worker reports that the task could not be done, with a reason, a note
 * and optionally photos; accepted (by the agent or the 72-hour rule) it pays the task's unable share less its fee,
 * refunds the rest of the slot, and is no approval for the task's status.
 */
describe('could not do it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createUploadTestApp();
  });
  afterAll(() => t.close());

  const unable = (worker: TestWorker, assignmentId: string, body: Record<string, unknown>) =>
    t.http
      .post(`/v1/worker/assignments/${assignmentId}/unable`)
      .set('Authorization', worker.bearer)
      .send(body);

  async function taken(agent: TestAgent, over: Record<string, unknown> = {}) {
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent, over);
    const assignmentId = await accept(t, worker, taskId);
    return { worker, taskId, assignmentId };
  }

  it('accepted, 5,000 at 20 % with a 10 % fee pays the worker 900 and charges the agent 1,000; the task fails with unable in task.failed', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const here = spot();
    const { worker, taskId, assignmentId } = await taken(agent, { location: here });
    const photo = await jpeg({ gps: offset(here, 30) });
    const url = (await uploadProof(t, worker, photo).expect(201)).body.url as string;
    const fees = await platformFees(t);

    const res = await unable(worker, assignmentId, {
      reason: 'closed',
      note: 'Shutters down, a sign says closed for renovation',
      photo_urls: [url],
    }).expect(200);
    expect(res.body).toEqual({
      assignment_id: assignmentId,
      task_id: taskId,
      status: 'submitted',
      outcome: 'unable',
      submitted_at: expect.any(String),
      payment_cents: 900,
    });

    // The agent reads the report (reason, note, the checked photo) before deciding.
    const result = await t.http.get(`/v1/tasks/${taskId}/result`).set('Authorization', agent.key).expect(200);
    expect(result.body.submissions).toEqual([
      expect.objectContaining({
        assignment_id: assignmentId,
        status: 'submitted',
        unable_reason: 'closed',
        worker_notes: 'Shutters down, a sign says closed for renovation',
        photos: [expect.objectContaining({ url, distance_meters: 30 })],
      }),
    ]);

    // The worker's page of the assignment shows it as their report (the app says so), not as a result.
    const mine = await t.http
      .get(`/v1/worker/assignments/${assignmentId}`)
      .set('Authorization', worker.bearer)
      .expect(200);
    expect(mine.body.submission).toMatchObject({
      unable_reason: 'closed',
      worker_notes: 'Shutters down, a sign says closed for renovation',
    });

    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    expect(await workerBalance(t, worker.id)).toBe(900);
    expect(await platformFees(t)).toBe(fees + 100);
    expect(await agentBalance(t, agent.id)).toBe(4000); // charged 1,000 of the 5,000 held
    expect(await escrowOf(t, taskId)).toBe(0);

    const detail = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    expect(detail.body.status).toBe('failed');
    expect(detail.body.progress.completed_workers).toBe(0);
    expect(detail.body.assignments[0]).toMatchObject({
      status: 'approved',
      submission: { unable_reason: 'closed' },
    });

    const events = await t.http
      .get('/v1/agent/events?type=task.failed')
      .set('Authorization', agent.key)
      .expect(200);
    const failed = events.body.data.find((e: { task_id: string }) => e.task_id === taskId);
    expect(failed.data).toEqual({
      task_id: taskId,
      status: 'failed',
      previous_status: 'submitted',
      unable: { reason: 'closed', paid_cents: 900 },
    });

    // The worker's own view: approved, paid 900; the report does not count as a completed task for reputation.
    const rows: { finished_tasks: number; approved_tasks: number }[] = await t.db.query(
      `SELECT finished_tasks, approved_tasks FROM workers WHERE id = $1`,
      [worker.id],
    );
    expect(rows[0]).toEqual({ finished_tasks: 0, approved_tasks: 0 });
  });

  it('on a multi-slot task it settles only its own slot; the other slot goes on and completes the task', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const taskId = await createTask(t, agent, { max_workers: 2 });
    const first = await createWorker(t);
    const second = await createWorker(t);
    const a1 = await accept(t, first, taskId);
    const a2 = await accept(t, second, taskId);

    await unable(first, a1, { reason: 'no_access', note: 'Gate locked' }).expect(200);
    await feedback(t, agent, taskId, { accept_result: true, assignment_id: a1 }).expect(200);
    expect(await workerBalance(t, first.id)).toBe(900);
    expect(await escrowOf(t, taskId)).toBe(5000); // the other slot is still held
    const mid = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    expect(mid.body.status).toBe('assigned');

    await submit(t, second, a2).expect(200);
    await feedback(t, agent, taskId, { accept_result: true, assignment_id: a2 }).expect(200);
    expect(await workerBalance(t, second.id)).toBe(4500);
    expect(await agentBalance(t, agent.id)).toBe(4000);
    const done = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    expect(done.body.status).toBe('completed');
    expect(done.body.progress.completed_workers).toBe(1);
  });

  it('rejected, it is an ordinary rejection: the whole slot back to the agent, nothing to the worker', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const { worker, taskId, assignmentId } = await taken(agent);
    await unable(worker, assignmentId, { reason: 'not_found', note: 'No such number on the street' }).expect(
      200,
    );
    await feedback(t, agent, taskId, { accept_result: false, reason_code: 'not_as_described' }).expect(200);
    expect(await agentBalance(t, agent.id)).toBe(5000);
    expect(await workerBalance(t, worker.id)).toBe(0);
  });

  it('nobody decides within 72 hours: auto-approved at the unable share', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const { worker, taskId, assignmentId } = await taken(agent, { unable_payout_percent: 50 });
    await unable(worker, assignmentId, { reason: 'unsafe', note: 'Dogs loose in the yard' }).expect(200);
    t.clock.advanceHours(73);
    await t.app.get(TaskTimers).autoApprove();
    await relogin(t, worker);
    expect(await workerBalance(t, worker.id)).toBe(2250); // 2,500 less its 250 fee
    expect(await agentBalance(t, agent.id)).toBe(2500);
    const detail = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    expect(detail.body.status).toBe('failed');
  });

  describe.each(Object.values(SURFACES))('unable_payout_percent on $name', (surface) => {
    it('is set at creation (default 20), shown in the task and the quote, and refused outside 0-50', async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const id = await createTask(t, agent, {}, surface);
      const detail = await t.http.get(`${surface.base}/${id}`).set('Authorization', agent.key).expect(200);
      expect(detail.body.unable_payout_percent).toBe(20);
      const other = await createTask(t, agent, { unable_payout_percent: 0 }, surface);
      const zero = await t.http.get(`${surface.base}/${other}`).set('Authorization', agent.key).expect(200);
      expect(zero.body.unable_payout_percent).toBe(0);

      const quote = await t.http
        .post(`${surface.base}/quote`)
        .set('Authorization', agent.key)
        .send(taskBody(t, { unable_payout_percent: 30 }))
        .expect(200);
      expect(quote.body.unable_payout_percent).toBe(30);
      expect(quote.body.refund_policy.worker_unable).toEqual({
        allowed: true,
        refund_cents_per_slot: 3500,
        worker_cents_per_slot: 1350,
        refund_percent: 70,
      });

      for (const bad of [51, -1, 2.5, '20']) {
        const res = await surface
          .create(t)
          .set('Authorization', agent.key)
          .send(taskBody(t, { unable_payout_percent: bad }));
        expectError(res, 400, 'validation_error');
      }
    });
  });

  describe('refusals change nothing', () => {
    it('a report on an assignment that is no longer live: 409 invalid_state', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const { worker, assignmentId } = await taken(agent);
      await submit(t, worker, assignmentId).expect(200);
      expectError(await unable(worker, assignmentId, { reason: 'closed', note: 'x' }), 409, 'invalid_state');
    });

    it('past the deadline: 409 invalid_state', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const { worker, assignmentId } = await taken(agent, {
        deadline_at: new Date(t.clock.now().getTime() + HOUR).toISOString(),
      });
      t.clock.advanceHours(2);
      await relogin(t, worker);
      expectError(
        await unable(worker, assignmentId, { reason: 'closed', note: 'Too late' }),
        409,
        'invalid_state',
      );
    });

    it("another worker's assignment: 404 assignment_not_found", async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const { assignmentId } = await taken(agent);
      const stranger = await createWorker(t);
      expectError(
        await unable(stranger, assignmentId, { reason: 'closed', note: 'x' }),
        404,
        'assignment_not_found',
      );
    });

    it('a reason outside the list, a missing or blank note: 400 validation_error', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const { worker, taskId, assignmentId } = await taken(agent);
      for (const body of [
        { reason: 'bored', note: 'x' },
        { reason: 'closed' },
        { reason: 'closed', note: '   ' },
        { reason: 'closed', note: 'x', extra: 1 },
      ]) {
        expectError(await unable(worker, assignmentId, body), 400, 'validation_error');
      }
      const detail = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
      expect(detail.body.assignments[0].status).toBe('accepted');
    });
  });
});
