import { distanceMeters } from '../../src/common/geo';
import { PERSONA_BEHAVIORS } from '../../src/simulation/behaviors';
import { createAgent, type TestAgent } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { offset, spot } from '../support/photos';
import { assignmentsOf, createTaskAt, expectError, simulatedWorker } from './simulation-helpers';

/**
 * /v1/sandbox/workers: an agent's simulated workers, their fields and errors, and who sees them. Jobs are off here,
 * so an offer made to a simulated worker stays pending: what dispatch did is read before anyone answers.
 */
describe('simulated workers: the resource', () => {
  let t: TestApp;
  let agent: TestAgent;

  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
    agent = await createAgent(t, { balanceCents: 1_000_000 });
  });
  afterAll(() => t.close());

  it('creates a worker near a task with a persona, offered that task at once', async () => {
    const at = spot();
    const taskId = await createTaskAt(t, agent, at);
    const res = await t.http
      .post('/v1/sandbox/workers')
      .set('Authorization', agent.key)
      .send({ persona: 'slow', near_task: { task_id: taskId, distance_m: 250 }, skills: ['photography'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'slow worker',
      persona: 'slow',
      behavior: PERSONA_BEHAVIORS.slow,
      skills: ['photography'],
      reputation: 4,
      activity: [],
    });
    expect(Math.round(distanceMeters(res.body.location, at))).toBe(250);
    // Created after the task: the task waiting for workers is offered to it, as a person nearby would find it.
    const assignments = await assignmentsOf(t, taskId);
    expect(assignments).toEqual([
      expect.objectContaining({ worker_id: res.body.worker_id, status: 'pending' }),
    ]);
    const got = await t.http
      .get(`/api/v1/sandbox/workers/${res.body.worker_id}`)
      .set('Authorization', agent.key);
    expect(got.status).toBe(200);
    expect(got.body.worker_id).toBe(res.body.worker_id);
  });

  it('behaviour fields override the persona; PATCH merges, a new persona resets', async () => {
    const at = spot();
    const id = await simulatedWorker(t, agent, {
      name: 'Custom Chen',
      location: at,
      persona: 'reliable',
      behavior: { outcome: 'no_show', accept_after_s: 7, photo: null },
      reputation: 4.5,
    });
    const view = await t.http.get(`/v1/sandbox/workers/${id}`).set('Authorization', agent.key).expect(200);
    expect(view.body.behavior).toEqual({
      ...PERSONA_BEHAVIORS.reliable,
      outcome: 'no_show',
      accept_after_s: 7,
      photo: null,
    });
    expect(view.body).toMatchObject({ name: 'Custom Chen', persona: 'reliable', reputation: 4.5 });

    const patched = await t.http
      .patch(`/v1/sandbox/workers/${id}`)
      .set('Authorization', agent.key)
      .send({ behavior: { submit_after_s: 99 }, location: offset(at, 100) });
    expect(patched.status).toBe(200);
    expect(patched.body.behavior).toMatchObject({
      outcome: 'no_show',
      accept_after_s: 7,
      submit_after_s: 99,
    });
    expect(Math.round(distanceMeters(patched.body.location, at))).toBe(100);

    const reset = await t.http
      .patch(`/api/v1/sandbox/workers/${id}`)
      .set('Authorization', agent.key)
      .send({ persona: 'abandons', name: 'Quitter Qi' });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({
      persona: 'abandons',
      name: 'Quitter Qi',
      behavior: PERSONA_BEHAVIORS.abandons,
    });
  });

  it('lists only the agent’s own live workers; DELETE removes one', async () => {
    const mine = await createAgent(t);
    const other = await createAgent(t);
    const a = await simulatedWorker(t, mine, { location: spot() });
    const b = await simulatedWorker(t, mine, { location: spot(), persona: 'no_exif' });
    await simulatedWorker(t, other, { location: spot() });
    const list = await t.http.get('/v1/sandbox/workers').set('Authorization', mine.key).expect(200);
    expect(list.body.data.map((w: { worker_id: string }) => w.worker_id)).toEqual([a, b]);

    expectError(
      await t.http.get(`/v1/sandbox/workers/${a}`).set('Authorization', other.key),
      404,
      'sandbox_worker_not_found',
    );
    expectError(
      await t.http.patch(`/v1/sandbox/workers/${a}`).set('Authorization', other.key).send({ name: 'x' }),
      404,
      'sandbox_worker_not_found',
    );
    expectError(
      await t.http.delete(`/v1/sandbox/workers/${a}`).set('Authorization', other.key),
      404,
      'sandbox_worker_not_found',
    );

    const del = await t.http.delete(`/v1/sandbox/workers/${a}`).set('Authorization', mine.key);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ worker_id: a, deleted: true });
    expectError(
      await t.http.get(`/v1/sandbox/workers/${a}`).set('Authorization', mine.key),
      404,
      'sandbox_worker_not_found',
    );
    expectError(
      await t.http.delete(`/api/v1/sandbox/workers/${a}`).set('Authorization', mine.key),
      404,
      'sandbox_worker_not_found',
    );
    const after = await t.http.get('/v1/sandbox/workers').set('Authorization', mine.key).expect(200);
    expect(after.body.data.map((w: { worker_id: string }) => w.worker_id)).toEqual([b]);
  });

  it('is offered only its own agent’s tasks; a deleted worker gives its offer back', async () => {
    const at = spot();
    const owner = await createAgent(t, { balanceCents: 100_000 });
    const stranger = await createAgent(t, { balanceCents: 100_000 });
    const worker = await simulatedWorker(t, owner, { location: offset(at, 30) });
    const strangersTask = await createTaskAt(t, stranger, at);
    const ownTask = await createTaskAt(t, owner, at);
    expect(await assignmentsOf(t, strangersTask)).toEqual([]);
    expect(await assignmentsOf(t, ownTask)).toEqual([
      expect.objectContaining({ worker_id: worker, status: 'pending' }),
    ]);

    await t.http.delete(`/v1/sandbox/workers/${worker}`).set('Authorization', owner.key).expect(200);
    expect(await assignmentsOf(t, ownTask)).toEqual([
      expect.objectContaining({ worker_id: worker, status: 'declined' }),
    ]);
    const rows: { account_status: string; online: boolean }[] = await t.db.query(
      `SELECT w.account_status, av.online FROM workers w JOIN worker_availability av ON av.worker_id = w.id WHERE w.id = $1`,
      [worker],
    );
    expect(rows).toEqual([{ account_status: 'closed', online: false }]);
  });

  it('refuses bad input, foreign tasks and missing permissions, changing nothing', async () => {
    const reader = await createAgent(t, { permissions: ['task:read'] });
    const stranger = await createAgent(t, { balanceCents: 100_000 });
    const foreignTask = await createTaskAt(t, stranger, spot());
    const post = (body: Record<string, unknown>, who: TestAgent = agent) =>
      t.http.post('/v1/sandbox/workers').set('Authorization', who.key).send(body);
    const before = (await t.http.get('/v1/sandbox/workers').set('Authorization', agent.key)).body.data.length;

    for (const body of [
      {},
      { location: spot(), near_task: { task_id: foreignTask, distance_m: 5 } },
      { location: { latitude: 91, longitude: 0 } },
      { location: spot(), persona: 'lazy' },
      { location: spot(), behavior: { outcome: 'vanish' } },
      { location: spot(), behavior: { accept_after_s: -1 } },
      { location: spot(), behavior: { photo: { distance_m: 10, exif: 'blurry' } } },
      { location: spot(), behavior: { data: 'text' } },
      { location: spot(), skills: ['juggling'] },
      { location: spot(), reputation: 5.5 },
      { location: spot(), name: '' },
      { location: spot(), favourite_colour: 'blue' },
      { near_task: { task_id: 'not-a-uuid', distance_m: 5 } },
    ]) {
      expectError(await post(body), 400, 'validation_error');
    }
    expectError(await post({ near_task: { task_id: foreignTask, distance_m: 5 } }), 404, 'task_not_found');
    const denied = await post({ location: spot() }, reader);
    expectError(denied, 403, 'insufficient_permissions');
    expectError(
      await t.http.post('/v1/sandbox/workers').send({ location: spot() }),
      401,
      'authentication_required',
    );
    expectError(
      await t.http.get('/v1/sandbox/workers/not-a-uuid').set('Authorization', agent.key),
      400,
      'validation_error',
    );
    expect((await t.http.get('/v1/sandbox/workers').set('Authorization', agent.key)).body.data).toHaveLength(
      before,
    );
    expect((await t.http.get('/v1/sandbox/workers').set('Authorization', reader.key)).body.data).toHaveLength(
      0,
    );
  });
});
