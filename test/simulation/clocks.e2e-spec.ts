import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, type TestAgent } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { agentBalance, escrowOf, workerBalance } from '../support/balances';
import { offset, spot } from '../support/photos';
import { assignmentsOf, expectError, HOUR, simulatedWorker } from './simulation-helpers';

const START = '2031-03-01T00:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(START) + ms).toISOString();

/**
 * Test clocks (product-decisions §12): tasks created with `test_clock` live on that clock, and advancing it runs their
 * simulated workers, offer lapses, deadlines and auto-approval in time order at the clock's time. The job runner is
 * off here, so nothing moves unless a clock is advanced: real time, for the tasks not on a clock, stands still.
 */
describe('test clocks', () => {
  let t: TestApp;
  const uploadDir = mkdtempSync(join(tmpdir(), 'legwork-clock-uploads-'));

  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false', UPLOAD_DIR: uploadDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  const newClock = async (agent: TestAgent, body: Record<string, unknown> = { frozen_time: START }) => {
    const res = await t.http.post('/v1/sandbox/clocks').set('Authorization', agent.key).send(body);
    expect(res.status).toBe(201);
    return res.body.clock_id as string;
  };
  const advance = (agent: TestAgent, clockId: string, body: Record<string, unknown>) =>
    t.http.post(`/v1/sandbox/clocks/${clockId}/advance`).set('Authorization', agent.key).send(body);
  const taskOnClock = async (
    agent: TestAgent,
    clockId: string | null,
    where: { latitude: number; longitude: number },
    deadlineAt: string,
    over: Record<string, unknown> = {},
  ) => {
    const res = await t.http
      .post('/v1/tasks/create')
      .set('Authorization', agent.key)
      .send({
        title: 'Photograph the storefront',
        description: 'One photo of the storefront.',
        location: { ...where, max_distance_meters: 2000 },
        budget_cents: 5000,
        deadline_at: deadlineAt,
        task_type: 'photo',
        ...(clockId ? { test_clock: clockId } : {}),
        ...over,
      });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.task_id as string;
  };
  const task = async (taskId: string) => {
    const [row]: { status: string; created_at: Date; deadline_processed_at: Date | null }[] =
      await t.db.query(`SELECT status, created_at, deadline_processed_at FROM tasks WHERE id = $1`, [taskId]);
    return row;
  };
  const events = async (taskId: string) => {
    const rows: { name: string; created_at: Date }[] = await t.db.query(
      `SELECT name, created_at FROM events WHERE task_id = $1 AND name LIKE 'task.%' ORDER BY seq`,
      [taskId],
    );
    return rows.map((r) => [r.name, r.created_at.toISOString()]);
  };

  it('a no_show worker’s task fails at its deadline, fully refunded, at the clock’s time; other tasks stand still', async () => {
    const agent = await createAgent(t, { balanceCents: 100_000 });
    const place = spot();
    const clockId = await newClock(agent, { frozen_time: START, name: 'deadline' });
    const worker = await simulatedWorker(t, agent, {
      location: offset(place, 30),
      behavior: { outcome: 'no_show' },
    });
    const taskId = await taskOnClock(agent, clockId, place, at(2 * HOUR));
    // A task on real time, same agent and place, created after: the busy worker is not offered it.
    const realTime = await taskOnClock(
      agent,
      null,
      offset(place, 10),
      new Date(Date.now() + HOUR).toISOString(),
    );
    expect((await task(taskId)).created_at.toISOString()).toBe(START);
    expect(await agentBalance(t, agent.id)).toBe(90_000);

    const first = await advance(agent, clockId, { by_seconds: 3600 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      clock_id: clockId,
      frozen_time: at(HOUR),
      status: 'ready',
      task_count: 1,
    });
    expect((await task(taskId)).status).toBe('assigned');
    expect(await assignmentsOf(t, taskId)).toEqual([
      expect.objectContaining({ worker_id: worker, status: 'accepted' }),
    ]);

    const second = await advance(agent, clockId, { to: at(2 * HOUR + 1000) });
    expect(second.status).toBe(200);
    expect(second.body.frozen_time).toBe(at(2 * HOUR + 1000));
    expect((await task(taskId)).status).toBe('failed');
    expect(await assignmentsOf(t, taskId)).toEqual([expect.objectContaining({ status: 'expired' })]);
    expect(await events(taskId)).toEqual([
      ['task.assigned', at(1000)],
      ['task.failed', at(2 * HOUR)],
    ]);
    expect(await escrowOf(t, taskId)).toBe(0);
    expect(await agentBalance(t, agent.id)).toBe(95_000);
    expect(await workerBalance(t, worker)).toBe(0);

    // Real time did not move for the other task: still waiting, deadline not processed, nothing refunded.
    expect(await task(realTime)).toMatchObject({ status: 'pending', deadline_processed_at: null });
    expect(await escrowOf(t, realTime)).toBe(5_000);
  });

  it('a submitted result is auto-approved and paid 72 hours later, not a second before', async () => {
    const agent = await createAgent(t, { balanceCents: 50_000 });
    const place = spot();
    const clockId = await newClock(agent);
    const worker = await simulatedWorker(t, agent, { persona: 'reliable', location: offset(place, 30) });
    const taskId = await taskOnClock(agent, clockId, place, at(24 * HOUR));

    expect((await advance(agent, clockId, { by_seconds: 60 })).status).toBe(200);
    expect((await task(taskId)).status).toBe('submitted');
    const submittedAt = at(4000); // accept 1 s, start 1 s later, submit 2 s after that

    const almost = await advance(agent, clockId, {
      to: new Date(Date.parse(submittedAt) + 72 * HOUR - 1000).toISOString(),
    });
    expect(almost.status).toBe(200);
    // The 24 h deadline passed meanwhile: a submitted result waits for review all the same.
    expect((await task(taskId)).status).toBe('submitted');
    expect(await workerBalance(t, worker)).toBe(0);

    expect((await advance(agent, clockId, { by_seconds: 10 })).status).toBe(200);
    expect((await task(taskId)).status).toBe('completed');
    expect(await assignmentsOf(t, taskId)).toEqual([expect.objectContaining({ status: 'approved' })]);
    expect(await workerBalance(t, worker)).toBe(4_500);
    expect(await agentBalance(t, agent.id)).toBe(45_000);
    expect(await events(taskId)).toEqual([
      ['task.assigned', at(1000)],
      ['task.started', at(2000)],
      ['task.submitted', submittedAt],
      ['task.completed', new Date(Date.parse(submittedAt) + 72 * HOUR).toISOString()],
    ]);
  });

  it('deleting a clock ends its live tasks with every held cent refunded', async () => {
    const agent = await createAgent(t, { balanceCents: 30_000 });
    const place = spot();
    const clockId = await newClock(agent);
    await simulatedWorker(t, agent, { persona: 'reliable', location: offset(place, 30) });
    await simulatedWorker(t, agent, { location: offset(place, 900), behavior: { outcome: 'no_show' } });
    const submitted = await taskOnClock(agent, clockId, place, at(10 * HOUR));
    const held = await taskOnClock(agent, clockId, place, at(10 * HOUR));
    // Nobody has the skill: its slot stays open.
    const open = await taskOnClock(agent, clockId, place, at(10 * HOUR), {
      requirements: { skills: ['driving'] },
    });
    await advance(agent, clockId, { by_seconds: 600 }).expect(200);
    expect([(await task(submitted)).status, (await task(held)).status, (await task(open)).status]).toEqual([
      'submitted',
      'assigned',
      'pending',
    ]);
    expect(await agentBalance(t, agent.id)).toBe(15_000);

    const del = await t.http.delete(`/v1/sandbox/clocks/${clockId}`).set('Authorization', agent.key);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ clock_id: clockId, deleted: true, ended_tasks: 3 });
    for (const id of [submitted, held, open]) {
      expect((await task(id)).status).toBe('cancelled');
      expect(await escrowOf(t, id)).toBe(0);
    }
    expect(await agentBalance(t, agent.id)).toBe(30_000);
    expectError(
      await t.http.get(`/v1/sandbox/clocks/${clockId}`).set('Authorization', agent.key),
      404,
      'test_clock_not_found',
    );
    const onDeleted = await t.http
      .post('/v1/tasks/create')
      .set('Authorization', agent.key)
      .send({
        title: 'x',
        description: 'y',
        location: place,
        budget_cents: 5000,
        deadline_at: at(HOUR),
        task_type: 'photo',
        test_clock: clockId,
      });
    expectError(onDeleted, 404, 'test_clock_not_found');
  });

  it('lists and reads clocks; refuses bad advances, foreign clocks and an advance already running', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const other = await createAgent(t);
    const clockId = await newClock(agent, { frozen_time: START, name: 'mine' });
    const defaulted = await newClock(agent, {});
    const list = await t.http.get('/api/v1/sandbox/clocks').set('Authorization', agent.key).expect(200);
    expect(list.body.data.map((c: { clock_id: string }) => c.clock_id)).toEqual([clockId, defaulted]);
    const one = await t.http.get(`/v1/sandbox/clocks/${clockId}`).set('Authorization', agent.key).expect(200);
    expect(one.body).toMatchObject({ name: 'mine', frozen_time: START, status: 'ready', task_count: 0 });

    for (const body of [
      {},
      { to: at(HOUR), by_seconds: 60 },
      { to: START },
      { to: at(-1000) },
      { to: at(30 * 24 * HOUR + 1000) },
      { by_seconds: 30 * 86_400 + 1 },
      { by_seconds: 0 },
      { to: 'tomorrow' },
      { by_seconds: 60, extra: true },
    ]) {
      expectError(await advance(agent, clockId, body), 400, 'validation_error');
    }
    expect((await advance(agent, clockId, { to: at(30 * 24 * HOUR) })).status).toBe(200);
    expectError(await advance(other, clockId, { by_seconds: 60 }), 404, 'test_clock_not_found');
    expectError(
      await t.http.delete(`/v1/sandbox/clocks/${clockId}`).set('Authorization', other.key),
      404,
      'test_clock_not_found',
    );
    expectError(
      await t.http.post('/v1/sandbox/clocks').set('Authorization', agent.key).send({ frozen_time: 'soon' }),
      400,
      'validation_error',
    );
    // A task's deadline is checked against the clock's time, and the clock must be the agent's own.
    const place = spot();
    const create = (who: TestAgent, deadline: string) =>
      t.http.post('/api/v1/tasks').set('Authorization', who.key).send({
        title: 'x',
        description: 'y',
        location: place,
        budget_cents: 5000,
        deadline_at: deadline,
        task_type: 'photo',
        test_clock: clockId,
      });
    expectError(await create(agent, at(HOUR)), 400, 'validation_error');
    expectError(await create(other, at(31 * 24 * HOUR)), 404, 'test_clock_not_found');
    expect((await create(agent, at(31 * 24 * HOUR))).status).toBe(201);

    // An advance in progress holds the clock; one whose process died (over 5 minutes ago) is taken over.
    await t.db.query(`UPDATE test_clocks SET status = 'advancing', advancing_since = now() WHERE id = $1`, [
      clockId,
    ]);
    const busy = await advance(agent, clockId, { by_seconds: 60 });
    expectError(busy, 409, 'invalid_state');
    expect(busy.body.error.current_status).toBe('advancing');
    expectError(
      await t.http.delete(`/v1/sandbox/clocks/${clockId}`).set('Authorization', agent.key),
      409,
      'invalid_state',
    );
    await t.db.query(`UPDATE test_clocks SET advancing_since = now() - interval '6 minutes' WHERE id = $1`, [
      clockId,
    ]);
    expect((await advance(agent, clockId, { by_seconds: 60 })).body.status).toBe('ready');
  });
});
