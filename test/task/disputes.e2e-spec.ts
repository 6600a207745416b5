import { createAgent, createWorker, fundAgent, TestAgent, TestWorker } from '../support/actors';
import { createAdmin } from '../support/admins';
import { createTestApp, TestApp } from '../support/app';
import { agentBalance, balanceOf, platformFees, workerBalance } from '../support/balances';
import { expectError } from '../support/errors';
import {
  accept,
  createTask,
  feedback,
  HOUR,
  relogin,
  submit,
  SURFACES,
  taskBody,
  taskStatus,
} from '../support/tasks';

/**
 * Disputes (product-decisions §19) through the HTTP API: a worker disputes a rejection within 72 hours, the agent
 * answers within 48, an operator decides once. Overturned pays what approval would have, split the percentage, both
 * from the agent's balance with any shortfall owed; the task's status never changes; concurrent decisions settle
 * once. Budget 5,000 with the default 10 % fee: approval pays 4,500 and a 500 fee.
 */
describe('disputes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A result the agent rejected; the agent's balance is then `balance` (the slot came back to it). */
  async function rejected(agent: TestAgent) {
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent);
    const assignmentId = await accept(t, worker, taskId);
    await submit(t, worker, assignmentId).expect(200);
    await feedback(t, agent, taskId, {
      accept_result: false,
      reason_code: 'wrong_location',
      feedback_text: 'Not the shop',
    }).expect(200);
    return { worker, taskId, assignmentId };
  }

  const dispute = (worker: TestWorker, assignmentId: string, body: Record<string, unknown> = {}) =>
    t.http
      .post(`/v1/worker/assignments/${assignmentId}/dispute`)
      .set('Authorization', worker.bearer)
      .send({ statement: 'The photo shows the right shop, its number is on the door.', ...body });

  const answer = (agent: TestAgent, taskId: string, disputeId: string, base = '/v1/tasks') =>
    t.http
      .post(`${base}/${taskId}/disputes/${disputeId}/response`)
      .set('Authorization', agent.key)
      .send({ statement: 'The number on the door is 300; the brief says 302.' });

  async function decide(disputeId: string, body: Record<string, unknown>) {
    const admin = await createAdmin(t);
    return t.http
      .post(`/v1/admin/disputes/${disputeId}/decision`)
      .set('Authorization', admin.bearer)
      .send(body);
  }

  async function opened(agent: TestAgent) {
    const r = await rejected(agent);
    const res = await dispute(r.worker, r.assignmentId).expect(201);
    return { ...r, disputeId: res.body.dispute_id as string };
  }

  const eventsNamed = (taskId: string, prefix: string) =>
    t.db.query<{ name: string; agent_id: string; worker_id: string; data: Record<string, unknown> }[]>(
      `SELECT name, agent_id, worker_id, data FROM events WHERE task_id = $1 AND name LIKE $2 ORDER BY seq`,
      [taskId, `${prefix}%`],
    );

  it('overturned: the worker is paid what approval would have (4,500 and the 500 fee) from the agent’s balance; the task stays failed; both sides hear each step', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const { worker, taskId, assignmentId } = await rejected(agent);
    expect(await agentBalance(t, agent.id)).toBe(5000);
    const statusBefore = await taskStatus(t, agent, taskId);
    // The worker's assignment says until when it may be disputed, and names no dispute yet.
    const assignment = async () =>
      (
        await t.http
          .get(`/v1/worker/assignments/${assignmentId}`)
          .set('Authorization', worker.bearer)
          .expect(200)
      ).body as { reviewed_at: string; dispute_window_ends_at: string; dispute_id: string | null };
    const before = await assignment();
    expect(Date.parse(before.dispute_window_ends_at) - Date.parse(before.reviewed_at)).toBe(72 * HOUR);
    expect(before.dispute_id).toBeNull();

    const res = await dispute(worker, assignmentId).expect(201);
    expect((await assignment()).dispute_id).toBe(res.body.dispute_id);
    expect(res.body).toMatchObject({
      dispute_id: expect.any(String),
      assignment_id: assignmentId,
      task_id: taskId,
      status: 'awaiting_response',
      worker: { statement: expect.stringContaining('right shop'), photo_urls: [] },
      agent: null,
      decision: null,
    });
    const disputeId = res.body.dispute_id as string;
    expect(Date.parse(res.body.response_due_at) - Date.parse(res.body.opened_at)).toBe(48 * HOUR);

    // The agent reads it on both surfaces; before its answer (or its 48 hours) nobody decides.
    for (const surface of Object.values(SURFACES)) {
      const list = await t.http
        .get(`${surface.base}/${taskId}/disputes`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(list.body.disputes).toEqual([expect.objectContaining({ dispute_id: disputeId })]);
    }
    expectError(await decide(disputeId, { outcome: 'overturned' }), 409, 'dispute_not_decidable');

    const answered = await answer(agent, taskId, disputeId, '/api/v1/tasks').expect(200);
    expect(answered.body).toMatchObject({
      status: 'awaiting_decision',
      agent: { statement: expect.any(String) },
    });
    expectError(await answer(agent, taskId, disputeId), 409, 'invalid_state');

    const admin = await createAdmin(t);
    const queue = await t.http
      .get('/v1/admin/disputes?status=awaiting_decision')
      .set('Authorization', admin.bearer)
      .expect(200);
    expect(queue.body.disputes).toContainEqual(
      expect.objectContaining({
        dispute_id: disputeId,
        budget_cents: 5000,
        payout_cents: 4500,
        rejection_reason_code: 'wrong_location',
      }),
    );
    const waiting = await t.http
      .get('/v1/admin/disputes?status=awaiting_response')
      .set('Authorization', admin.bearer)
      .expect(200);
    expect(waiting.body.disputes.map((d: { dispute_id: string }) => d.dispute_id)).not.toContain(disputeId);

    const fees = await platformFees(t);
    const decided = await decide(disputeId, { outcome: 'overturned', note: 'The door shows 302.' });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({
      status: 'decided',
      decision: {
        outcome: 'overturned',
        worker_percent: null,
        note: 'The door shows 302.',
        worker_cents: 4500,
        fee_cents: 500,
        charged_cents: 5000,
        owed_cents: 0,
      },
    });
    expect(await workerBalance(t, worker.id)).toBe(4500);
    expect(await platformFees(t)).toBe(fees + 500);
    expect(await agentBalance(t, agent.id)).toBe(0);
    expect(await taskStatus(t, agent, taskId)).toBe(statusBefore);
    expectError(await decide(disputeId, { outcome: 'upheld' }), 409, 'invalid_state');

    const events = await eventsNamed(taskId, 'dispute.');
    expect(events.map((e) => e.name)).toEqual(['dispute.opened', 'dispute.answered', 'dispute.decided']);
    for (const e of events) expect(e).toMatchObject({ agent_id: agent.id, worker_id: worker.id });
    expect(events[2].data).toMatchObject({
      dispute_id: disputeId,
      status: 'decided',
      outcome: 'overturned',
      worker_cents: 4500,
      charged_cents: 5000,
    });
    // The agent's events list carries them in the task-level envelope.
    const listed = await t.http.get('/v1/agent/events').set('Authorization', agent.key).expect(200);
    expect(JSON.stringify(listed.body)).toContain('dispute.decided');

    const [audit] = await t.db.query<
      { action: string; target_type: string; after: Record<string, unknown> }[]
    >(`SELECT action, target_type, after FROM operator_audit_log WHERE target_id = $1`, [disputeId]);
    expect(audit).toMatchObject({
      action: 'dispute.decided',
      target_type: 'dispute',
      after: { outcome: 'overturned', worker_cents: 4500, fee_cents: 500, owed_cents: 0 },
    });

    // The worker reads the decision.
    const mine = await t.http
      .get(`/v1/worker/assignments/${assignmentId}/dispute`)
      .set('Authorization', worker.bearer)
      .expect(200);
    expect(mine.body.decision).toMatchObject({ outcome: 'overturned', worker_cents: 4500 });
  });

  it('split 30 %: share 1,500 of 5,000, fee 150, the worker gets 1,350; upheld moves nothing', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const a = await opened(agent);
    await answer(agent, a.taskId, a.disputeId).expect(200);
    expectError(await decide(a.disputeId, { outcome: 'split' }), 400, 'validation_error');
    expectError(
      await decide(a.disputeId, { outcome: 'split', worker_percent: 100 }),
      400,
      'validation_error',
    );
    expectError(
      await decide(a.disputeId, { outcome: 'overturned', worker_percent: 30 }),
      400,
      'validation_error',
    );
    const fees = await platformFees(t);
    const before = await agentBalance(t, agent.id);
    const res = await decide(a.disputeId, { outcome: 'split', worker_percent: 30 }).then((r) => r);
    expect(res.status).toBe(200);
    expect(res.body.decision).toMatchObject({ worker_percent: 30, worker_cents: 1350, fee_cents: 150 });
    expect(await workerBalance(t, a.worker.id)).toBe(1350);
    expect(await platformFees(t)).toBe(fees + 150);
    expect(await agentBalance(t, agent.id)).toBe(before - 1500);

    const b = await opened(agent);
    await answer(agent, b.taskId, b.disputeId).expect(200);
    const mid = await agentBalance(t, agent.id);
    const upheld = await decide(b.disputeId, { outcome: 'upheld' });
    expect(upheld.body.decision).toMatchObject({ outcome: 'upheld', worker_cents: 0, charged_cents: 0 });
    expect(await agentBalance(t, agent.id)).toBe(mid);
    expect(await workerBalance(t, b.worker.id)).toBe(0);
  });

  it('a balance too small: available stays 0, the rest is owed, creating is 402 until a top-up repays it', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const { disputeId } = await opened(agent);
    await answer(
      agent,
      (await t.db.query(`SELECT task_id FROM disputes WHERE id = $1`, [disputeId]))[0].task_id,
      disputeId,
    ).expect(200);
    // The refunded slot is spent on another task, so the balance is 1,200 when the decision comes.
    await createTask(t, agent, { budget_cents: 3800 });
    expect(await agentBalance(t, agent.id)).toBe(1200);

    const res = await decide(disputeId, { outcome: 'overturned' });
    expect(res.body.decision).toMatchObject({ charged_cents: 5000, owed_cents: 3800 });
    expect(await agentBalance(t, agent.id)).toBe(0);
    expect(await balanceOf(t, `agent:${agent.id}:owed`)).toBe(3800);
    const balance = await t.http.get('/v1/payment/balance').set('Authorization', agent.key).expect(200);
    expect(balance.body).toMatchObject({ balance_cents: 0, owed_cents: 3800 });

    const refused = await SURFACES.v1.create(t).set('Authorization', agent.key).send(taskBody(t));
    expectError(refused, 402, 'insufficient_balance');
    expect(refused.body.error).toMatchObject({ balance_cents: 0, required_cents: 5000 + 3800 });

    await fundAgent(t, agent.id, 3800 + 5000);
    expect(await balanceOf(t, `agent:${agent.id}:owed`)).toBe(0);
    expect(await agentBalance(t, agent.id)).toBe(5000);
    await createTask(t, agent);
  });

  it('windows: a dispute after 72 hours is 409 dispute_window_closed; after 48 hours unanswered the agent’s window closes and an operator may decide', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const late = await rejected(agent);
    const open = await opened(agent);
    t.clock.advance(72 * HOUR + 60_000);
    await relogin(t, late.worker);
    const res = await dispute(late.worker, late.assignmentId);
    expectError(res, 409, 'dispute_window_closed');
    expect(Date.parse(res.body.error.closed_at)).toBeLessThan(t.clock.now().getTime());

    const closed = await answer(agent, open.taskId, open.disputeId);
    expectError(closed, 409, 'dispute_window_closed');
    const list = await t.http
      .get(`/v1/tasks/${open.taskId}/disputes`)
      .set('Authorization', agent.key)
      .expect(200);
    expect(list.body.disputes[0]).toMatchObject({ status: 'awaiting_decision', agent: null });
    const res2 = await decide(open.disputeId, { outcome: 'overturned' });
    expect(res2.status).toBe(200);
    expect(await workerBalance(t, open.worker.id)).toBe(4500);
  });

  it('refuses what is not a disputable rejection: not yours, not rejected, twice; and other agents’ disputes', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const { worker, taskId, assignmentId, disputeId } = await opened(agent);
    expectError(await dispute(worker, assignmentId), 409, 'already_disputed');
    const second = await dispute(worker, assignmentId);
    expect(second.body.error.dispute_id).toBe(disputeId);
    const stranger = await createWorker(t);
    expectError(await dispute(stranger, assignmentId), 404, 'assignment_not_found');
    expectError(
      await t.http
        .get(`/v1/worker/assignments/${assignmentId}/dispute`)
        .set('Authorization', stranger.bearer),
      404,
      'assignment_not_found',
    );

    // A result awaiting review, or approved, is not disputable.
    const other = await createWorker(t);
    const taskId2 = await createTask(t, agent);
    const a2 = await accept(t, other, taskId2);
    await submit(t, other, a2).expect(200);
    const pending = await dispute(other, a2);
    expectError(pending, 409, 'invalid_state');
    expect(pending.body.error.assignment_status).toBe('submitted');
    await feedback(t, agent, taskId2, { accept_result: true }).expect(200);
    expectError(await dispute(other, a2), 409, 'invalid_state');

    // Another agent sees neither the task's disputes nor may answer them; a worker may not use agent routes.
    const intruder = await createAgent(t);
    expectError(
      await t.http.get(`/v1/tasks/${taskId}/disputes`).set('Authorization', intruder.key),
      404,
      'task_not_found',
    );
    expectError(await answer(intruder, taskId, disputeId), 404, 'task_not_found');
    expectError(await answer(agent, taskId2, disputeId), 404, 'dispute_not_found');
    const asWorker = await t.http.get('/v1/admin/disputes').set('Authorization', worker.bearer);
    expect(asWorker.status).toBe(403);
    const asAgent = await t.http.get(`/v1/admin/disputes`).set('Authorization', agent.key);
    expect(asAgent.status).toBe(403);
    expectError(
      await t.http
        .post(`/v1/worker/assignments/${assignmentId}/dispute`)
        .set('Authorization', worker.bearer)
        .send({ statement: ' ' }),
      400,
      'validation_error',
    );
    // Photos must be the worker's own uploads.
    const fresh = await rejected(agent);
    expectError(
      await dispute(fresh.worker, fresh.assignmentId, { photo_urls: ['https://elsewhere.example/x.jpg'] }),
      400,
      'validation_error',
    );
  });

  it('20 concurrent decisions on one dispute settle once', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const { worker, taskId, disputeId } = await opened(agent);
    await answer(agent, taskId, disputeId).expect(200);
    const admin = await createAdmin(t);
    const fees = await platformFees(t);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.http
          .post(`/v1/admin/disputes/${disputeId}/decision`)
          .set('Authorization', admin.bearer)
          .send(i % 2 ? { outcome: 'overturned' } : { outcome: 'split', worker_percent: 50 }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, 'invalid_state');
    const paid = ok[0].body.decision.worker_cents as number;
    const fee = ok[0].body.decision.fee_cents as number;
    expect(await workerBalance(t, worker.id)).toBe(paid);
    expect(await platformFees(t)).toBe(fees + fee);
    expect(await agentBalance(t, agent.id)).toBe(5000 - paid - fee);
    const journals = await t.db.query(
      `SELECT count(*)::int AS n FROM ledger_journals WHERE kind = 'dispute_settlement' AND task_id = $1`,
      [taskId],
    );
    expect(journals[0].n).toBe(1);
    const decidedEvents = await eventsNamed(taskId, 'dispute.decided');
    expect(decidedEvents).toHaveLength(1);
  });
});
