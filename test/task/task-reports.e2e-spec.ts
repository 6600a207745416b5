import type { Response } from 'supertest';
import { createAgent, createWorker, TestWorker } from '../support/actors';
import { createAdmin } from '../support/admins';
import { createTestApp, TestApp } from '../support/app';
import { agentBalance, escrowOf, workerBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { accept, act, createTask, submit, taskStatus } from '../support/tasks';

/**
 * Workers' reports of tasks (product-decisions §19, "Also") through the HTTP API: a worker who can see a task
 * reports it once; an operator cancels it with everything still held back to the agent (in-progress and submitted
 * workers paid nothing, their assignments ended) and may suspend the agent, or dismisses it; every open report of the
 * task is decided with it, once, also under 20 concurrent decisions. Budget 5,000 a slot.
 */
describe('task reports', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const report = (
    worker: TestWorker,
    taskId: string,
    body: Record<string, unknown> = { reason: 'unsafe', note: 'The brief asks to climb onto the roof.' },
    base = '/v1',
  ) => t.http.post(`${base}/worker/tasks/${taskId}/report`).set('Authorization', worker.bearer).send(body);

  async function decide(reportId: string, body: Record<string, unknown>) {
    const admin = await createAdmin(t);
    return t.http
      .post(`/v1/admin/task-reports/${reportId}/decision`)
      .set('Authorization', admin.bearer)
      .send(body);
  }

  /** A 200, or a failure that shows what the API said. */
  function ok(res: Response): Response {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }

  async function queue(status: 'open' | 'decided') {
    const admin = await createAdmin(t);
    const res = await t.http
      .get(`/v1/admin/task-reports?status=${status}`)
      .set('Authorization', admin.bearer)
      .expect(200);
    return res.body.reports as Record<string, unknown>[];
  }

  const assignmentStatus = async (worker: TestWorker, assignmentId: string) =>
    (
      await t.http
        .get(`/v1/worker/assignments/${assignmentId}`)
        .set('Authorization', worker.bearer)
        .expect(200)
    ).body.status as string;

  const events = (taskId: string) =>
    t.db.query<{ name: string; worker_id: string | null }[]>(
      `SELECT name, worker_id FROM events WHERE task_id = $1 AND name LIKE '%cancelled' ORDER BY seq`,
      [taskId],
    );

  it('cancel_task with suspend_agent: everything held goes back to the agent, workers under way are paid nothing, both reports close, the agent is suspended', async () => {
    const agent = await createAgent(t, { balanceCents: 50_000 });
    const taskId = await createTask(t, agent, { max_workers: 3 });
    const held = await agentBalance(t, agent.id);
    const [working, submitted, bystander] = [
      await createWorker(t),
      await createWorker(t),
      await createWorker(t),
    ];
    const a1 = await accept(t, working, taskId);
    await act(t, working, a1, 'start').expect(200);
    const a2 = await accept(t, submitted, taskId);
    await submit(t, submitted, a2).expect(200);

    // One who holds work reports on /v1; one who only sees it in the available list, on /api/v1.
    const first = await report(working, taskId).expect(201);
    expect(first.body).toEqual({
      report_id: expect.any(String),
      task_id: taskId,
      reason: 'unsafe',
      status: 'open',
      created_at: expect.any(String),
    });
    const second = await report(
      bystander,
      taskId,
      { reason: 'misleading', note: 'Not a storefront: a private flat.' },
      '/api/v1',
    ).expect(201);
    const again = await report(working, taskId, { reason: 'illegal', note: 'Again.' });
    expectError(again, 409, 'already_reported');
    expect(again.body.error.report_id).toBe(first.body.report_id);

    const open = (await queue('open')).filter((r) => r.task_id === taskId);
    expect(open).toHaveLength(2);
    expect(open[0]).toMatchObject({
      report_id: first.body.report_id,
      status: 'open',
      reason: 'unsafe',
      note: 'The brief asks to climb onto the roof.',
      task_title: 'Photograph the storefront',
      task_status: 'in_progress',
      agent_id: agent.id,
      agent_status: 'active',
      reports_on_task: 2,
      outcome: null,
      decided_at: null,
    });
    // The reporter by the task's pseudonym, never the worker's id.
    expect(open[0].reporter).toMatch(/^anon_[0-9a-f]{16}$/);
    expect(open[0].reporter).not.toBe(open[1].reporter);
    expect(JSON.stringify(open)).not.toContain(working.id);

    const res = ok(
      await decide(first.body.report_id, {
        outcome: 'cancel_task',
        suspend_agent: true,
        note: 'Roof work is not allowed.',
      }),
    );
    expect(res.body).toEqual({
      report_id: first.body.report_id,
      outcome: 'cancel_task',
      decided_report_ids: [first.body.report_id, second.body.report_id].sort(),
      task_status: 'cancelled',
      refund_cents: 15_000,
      agent_suspended: true,
    });
    expect(await agentBalance(t, agent.id)).toBe(held + 15_000);
    expect(await agentBalance(t, agent.id)).toBe(50_000);
    expect(await escrowOf(t, taskId)).toBe(0);
    expect(await workerBalance(t, working.id)).toBe(0);
    expect(await workerBalance(t, submitted.id)).toBe(0);
    expect(await assignmentStatus(working, a1)).toBe('cancelled');
    expect(await assignmentStatus(submitted, a2)).toBe('cancelled');
    // The workers under way hear assignment.cancelled, the agent task.cancelled.
    const heard = await events(taskId);
    expect(heard).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'assignment.cancelled', worker_id: working.id }),
        expect.objectContaining({ name: 'assignment.cancelled', worker_id: submitted.id }),
        expect.objectContaining({ name: 'task.cancelled' }),
      ]),
    );
    // Suspended: the agent's key is refused.
    expectError(
      await t.http.get('/v1/agent/profile').set('Authorization', agent.key),
      403,
      'account_disabled',
    );
    const audit = await t.db.query<{ action: string; target_type: string; target_id: string }[]>(
      `SELECT action, target_type, target_id FROM operator_audit_log
        WHERE target_id = ANY($1) ORDER BY id`,
      [[first.body.report_id, agent.id]],
    );
    expect(audit).toEqual([
      { action: 'agent.updated', target_type: 'agent', target_id: agent.id },
      { action: 'task_report.decided', target_type: 'task_report', target_id: first.body.report_id },
    ]);

    // Final: a second decision on either report is refused, and nothing moves.
    expectError(await decide(first.body.report_id, { outcome: 'dismiss', note: 'x' }), 409, 'invalid_state');
    expectError(
      await decide(second.body.report_id, { outcome: 'cancel_task', note: 'x' }),
      409,
      'invalid_state',
    );
    expect(await agentBalance(t, agent.id)).toBe(50_000);
    const decided = (await queue('decided')).filter((r) => r.task_id === taskId);
    expect(decided.map((r) => r.status)).toEqual(['decided', 'decided']);
    expect(decided[0]).toMatchObject({
      outcome: 'cancel_task',
      suspend_agent: true,
      decision_note: 'Roof work is not allowed.',
      task_status: 'cancelled',
      agent_status: 'suspended',
    });
  });

  it('dismiss: nothing changes; the worker may report the task again afterwards', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const taskId = await createTask(t, agent);
    const worker = await createWorker(t);
    const a = await accept(t, worker, taskId);
    const before = await agentBalance(t, agent.id);
    const r = await report(worker, taskId).expect(201);
    const res = ok(await decide(r.body.report_id, { outcome: 'dismiss', note: 'Ordinary storefront work.' }));
    expect(res.body).toMatchObject({
      outcome: 'dismiss',
      decided_report_ids: [r.body.report_id],
      task_status: 'assigned',
      refund_cents: 0,
      agent_suspended: false,
    });
    expect(await taskStatus(t, agent, taskId)).toBe('assigned');
    expect(await assignmentStatus(worker, a)).toBe('accepted');
    expect(await agentBalance(t, agent.id)).toBe(before);
    await t.http.get('/v1/agent/profile').set('Authorization', agent.key).expect(200);
    // One report by its id, decided, as the list showed it.
    const [listed] = (await queue('decided')).filter((x) => x.report_id === r.body.report_id);
    const one = await t.http
      .get(`/v1/admin/task-reports/${r.body.report_id}`)
      .set('Authorization', (await createAdmin(t)).bearer)
      .expect(200);
    expect(one.body).toEqual(listed);
    expect(one.body).toMatchObject({ status: 'decided', outcome: 'dismiss', task_id: taskId });
    await report(worker, taskId, { reason: 'illegal', note: 'It changed since.' }).expect(201);
  });

  it('cancel_task of a task that ended is 409 invalid_state; dismissing it works, and approved work stays paid', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const taskId = await createTask(t, agent);
    const worker = await createWorker(t);
    const a = await accept(t, worker, taskId);
    await submit(t, worker, a).expect(200);
    const r = await report(worker, taskId).expect(201);
    await t.http
      .post(`/v1/tasks/${taskId}/feedback`)
      .set('Authorization', agent.key)
      .send({ accept_result: true, rating: 5, quality_score: 5 })
      .expect(200);
    const paid = await workerBalance(t, worker.id);
    expect(paid).toBeGreaterThan(0);
    expectError(
      await decide(r.body.report_id, { outcome: 'cancel_task', note: 'Too late.' }),
      409,
      'invalid_state',
    );
    ok(await decide(r.body.report_id, { outcome: 'dismiss', note: 'Ended; nothing to cancel.' }));
    expect(await workerBalance(t, worker.id)).toBe(paid);
    expect(await taskStatus(t, agent, taskId)).toBe('completed');
  });

  it('a task the worker cannot see is 404 like an unknown one; bad input is 400', async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const worker = await createWorker(t);
    const skilled = await createTask(t, agent, { requirements: { skills: ['forklift'] } });
    expectError(await report(worker, skilled), 404, 'task_not_found');
    // Full: its one slot is someone else's, so it is not in this worker's list.
    const full = await createTask(t, agent);
    await accept(t, await createWorker(t), full);
    expectError(await report(worker, full), 404, 'task_not_found');
    expectError(await report(worker, '00000000-0000-4000-8000-000000000000'), 404, 'task_not_found');

    const open = await createTask(t, agent);
    // A new worker for each refusal below: refused reports count against the report budget too (5 a minute).
    expectError(await report(await createWorker(t), 'not-a-uuid'), 400, 'validation_error');
    for (const body of [
      { reason: 'rude', note: 'x' },
      { reason: 'unsafe' },
      { reason: 'unsafe', note: '   ' },
      { reason: 'unsafe', note: 'x'.repeat(2001) },
      { reason: 'unsafe', note: 'x', extra: 1 },
    ]) {
      expectError(await report(await createWorker(t), open, body), 400, 'validation_error');
    }
    await report(await createWorker(t), open, { reason: 'illegal', note: 'x'.repeat(2000) }).expect(201);

    const r = (await queue('open')).find((x) => x.task_id === open)!;
    const id = r.report_id as string;
    for (const body of [
      { outcome: 'cancel', note: 'x' },
      { outcome: 'dismiss' },
      { outcome: 'dismiss', note: 'x', suspend_agent: 'yes' },
      { outcome: 'dismiss', note: 'x', extra: 1 },
    ]) {
      expectError(await decide(id, body), 400, 'validation_error');
    }
    expectError(
      await decide('00000000-0000-4000-8000-000000000000', { outcome: 'dismiss', note: 'x' }),
      404,
      'not_found',
    );
    const admin = await createAdmin(t);
    expectError(
      await t.http.get('/v1/admin/task-reports?status=closed').set('Authorization', admin.bearer),
      400,
      'validation_error',
    );
    const getOne = (reportId: string) =>
      t.http.get(`/v1/admin/task-reports/${reportId}`).set('Authorization', admin.bearer);
    expect((await getOne(id).expect(200)).body).toMatchObject({ report_id: id, status: 'open' });
    expectError(await getOne('00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expectError(await getOne('not-a-uuid'), 400, 'validation_error');
  });

  it('permissions: agents and workers are refused from the operators’ routes, agents and operators from the worker’s', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const taskId = await createTask(t, agent);
    const worker = await createWorker(t);
    const r = await report(worker, taskId).expect(201);
    const admin = await createAdmin(t);
    for (const credential of [agent.key, agent.bearer, worker.bearer]) {
      expect((await t.http.get('/v1/admin/task-reports').set('Authorization', credential)).status).toBe(403);
      const one = await t.http
        .get(`/v1/admin/task-reports/${r.body.report_id}`)
        .set('Authorization', credential);
      expect(one.status).toBe(403);
      const res = await t.http
        .post(`/v1/admin/task-reports/${r.body.report_id}/decision`)
        .set('Authorization', credential)
        .send({ outcome: 'cancel_task', note: 'x' });
      expect(res.status).toBe(403);
    }
    expect((await t.http.get('/v1/admin/task-reports')).status).toBe(401);
    for (const credential of [agent.key, admin.bearer]) {
      const res = await t.http
        .post(`/v1/worker/tasks/${taskId}/report`)
        .set('Authorization', credential)
        .send({ reason: 'unsafe', note: 'x' });
      expect(res.status).toBe(403);
    }
    expect(await taskStatus(t, agent, taskId)).toBe('pending');
  });

  it('20 concurrent decisions settle once: one refund, one outcome', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const taskId = await createTask(t, agent, { max_workers: 2 });
    const worker = await createWorker(t);
    const a = await accept(t, worker, taskId);
    const r = await report(worker, taskId).expect(201);
    const admin = await createAdmin(t);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.http
          .post(`/v1/admin/task-reports/${r.body.report_id}/decision`)
          .set('Authorization', admin.bearer)
          .send(i % 2 ? { outcome: 'dismiss', note: 'no' } : { outcome: 'cancel_task', note: 'yes' }),
      ),
    );
    const ok = results.filter((x) => x.status === 200);
    expect(ok).toHaveLength(1);
    for (const x of results.filter((y) => y.status !== 200)) expectError(x, 409, 'invalid_state');
    const cancelled = ok[0].body.outcome === 'cancel_task';
    expect(await agentBalance(t, agent.id)).toBe(cancelled ? 10_000 : 0);
    expect(await escrowOf(t, taskId)).toBe(cancelled ? 0 : 10_000);
    expect(await assignmentStatus(worker, a)).toBe(cancelled ? 'cancelled' : 'accepted');
    const [{ n }] = await t.db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM operator_audit_log WHERE action = 'task_report.decided' AND target_id = $1`,
      [r.body.report_id],
    );
    expect(n).toBe(1);
  });

  it('reports have a budget of their own: the sixth in a minute is 429', async () => {
    const agent = await createAgent(t, { balanceCents: 30_000 });
    const worker = await createWorker(t);
    const tasks: string[] = [];
    for (let i = 0; i < 6; i++) tasks.push(await createTask(t, agent));
    for (const id of tasks.slice(0, 5)) await report(worker, id).expect(201);
    expectError(await report(worker, tasks[5]), 429, 'rate_limit_exceeded');
  });
});
