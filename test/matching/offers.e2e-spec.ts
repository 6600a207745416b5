import { toPayload } from '../../src/events/event-catalog';
import { TaskTimers } from '../../src/task/services/task-timers';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { EVERY_KIND } from '../support/answer-schemas';
import { eventSchemaProblems } from '../support/typed-events';
import { offset, spot } from '../support/photos';
import { expectError } from '../support/errors';
import { accept, act, createTask, taskStatus } from '../support/tasks';
import { decline, goOnline, offersOf, pendingOffer, setReputation } from './matching-helpers';

/** Push offers (product-decisions §5): the best online eligible worker is offered an open slot for 120 s, then the next. */
describe('push offers', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = await createAgent(t, { balanceCents: 10_000_000 });
  });
  afterAll(() => t.close());

  async function workersAround(here: ReturnType<typeof spot>, meters: number[]): Promise<TestWorker[]> {
    const workers: TestWorker[] = [];
    for (const m of meters) {
      const w = await createWorker(t);
      await goOnline(t, w, offset(here, m));
      workers.push(w);
    }
    return workers;
  }

  it('offers a new task to the best of three online workers, then to the next on decline and on a 120 s lapse', async () => {
    const here = spot();
    const [near, mid, far] = await workersAround(here, [100, 400, 800]);
    const taskId = await createTask(t, agent, { location: here, title: 'Offer me' });

    const first = (await pendingOffer(t, taskId))!;
    expect(first.worker_id).toBe(near.id);
    expect(first.offer_expires_at!.getTime() - first.offered_at!.getTime()).toBe(120_000);
    // The offer reaches the worker through the outbox, with the task summary.
    const [event] = await t.db.query(
      `SELECT id, name, task_id, created_at, worker_id, data FROM events WHERE name = 'assignment.offered' AND task_id = $1`,
      [taskId],
    );
    // Exactly as the AssignmentOfferedEvent schema documents it (no field more, none missing).
    expect(eventSchemaProblems(toPayload(event), 'WorkerEvent')).toEqual([]);
    expect(event.worker_id).toBe(near.id);
    expect(event.data).toMatchObject({
      assignment_id: first.id,
      status: 'pending',
      offer_expires_at: first.offer_expires_at!.toISOString(),
      task: {
        task_id: taskId,
        title: 'Offer me',
        payment_cents: 4500,
        location: { max_distance_meters: 1000 },
      },
    });
    expect(event.data.task.distance_meters).toBeGreaterThanOrEqual(99);
    expect(event.data.task.distance_meters).toBeLessThanOrEqual(101);
    // The slot is held: nobody else can take it or see it.
    expectError(
      await t.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', far.bearer),
      409,
      'task_full',
    );
    const list = await t.http
      .get(`/v1/worker/tasks/available?latitude=${here.latitude}&longitude=${here.longitude}`)
      .set('Authorization', far.bearer)
      .expect(200);
    expect(list.body.tasks.map((x: { task_id: string }) => x.task_id)).not.toContain(taskId);

    const declined = await decline(t, near, first.id).expect(200);
    expect(declined.body).toMatchObject({ assignment_id: first.id, status: 'declined' });
    const second = (await pendingOffer(t, taskId))!;
    expect(second.worker_id).toBe(mid.id);

    t.clock.advance(119_000);
    expect(await t.app.get(TaskTimers).expireOffers()).toBe(0);
    t.clock.advance(2_000);
    expect(await t.app.get(TaskTimers).expireOffers()).toBe(1);
    const third = (await pendingOffer(t, taskId))!;
    expect(third.worker_id).toBe(far.id);
    expect((await offersOf(t, taskId)).map((o) => [o.worker_id, o.status])).toEqual([
      [near.id, 'declined'],
      [mid.id, 'expired'],
      [far.id, 'pending'],
    ]);

    // The offered worker accepts with the ordinary accept.
    const accepted = await t.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', far.bearer);
    expect(accepted.status).toBe(200);
    expect(accepted.body.assignment_id).toBe(third.id);
    expect(await taskStatus(t, agent, taskId)).toBe('assigned');

    // Abandoned: nobody is offered the same task twice, so the slot simply reopens.
    await act(t, far, third.id, 'abandon').expect(200);
    expect(await pendingOffer(t, taskId)).toBeNull();
    const newcomer = await createWorker(t);
    const open = await t.http
      .get(`/v1/worker/tasks/available?latitude=${here.latitude}&longitude=${here.longitude}`)
      .set('Authorization', newcomer.bearer)
      .expect(200);
    expect(open.body.tasks.map((x: { task_id: string }) => x.task_id)).toContain(taskId);
  });

  it('an offer says what the task will ask, so a worker can judge it before taking it', async () => {
    const here = spot();
    const [worker] = await workersAround(here, [100]);
    const taskId = await createTask(t, agent, { location: here, answer_schema: EVERY_KIND });
    const [event] = await t.db.query(
      `SELECT id, name, task_id, created_at, worker_id, data FROM events WHERE name = 'assignment.offered' AND task_id = $1`,
      [taskId],
    );
    expect(event.worker_id).toBe(worker.id);
    expect(eventSchemaProblems(toPayload(event), 'WorkerEvent')).toEqual([]);
    expect(event.data.task.answer_schema).toEqual(EVERY_KIND);
    // A free-form task's offer says so with null.
    const there = spot();
    await workersAround(there, [100]);
    const plain = await createTask(t, agent, { location: there });
    const [other] = await t.db.query(
      `SELECT data FROM events WHERE name = 'assignment.offered' AND task_id = $1`,
      [plain],
    );
    expect(other.data.task.answer_schema).toBeNull();
  });

  it('an abandoned slot is offered to the next online worker', async () => {
    const here = spot();
    const taskId = await createTask(t, agent, { location: here });
    const holder = await createWorker(t);
    const a = await accept(t, holder, taskId);
    const [next] = await workersAround(here, [300]);
    await act(t, holder, a, 'abandon').expect(200);
    expect((await pendingOffer(t, taskId))!.worker_id).toBe(next.id);
  });

  it('never offers a worker who is over its cap, below min_reputation, off call, unskilled or out of range', async () => {
    const here = spot();
    // The fourth worker has no skills (the task needs photography).
    const [atCap, lowRep, offCall, , outOfRange, ok] = await workersAround(here, [50, 60, 70, 80, 1500, 500]);
    for (let i = 0; i < 3; i++) await accept(t, atCap, await createTask(t, agent, { location: spot() }));
    await setReputation(t, lowRep, 3.4);
    await t.http.put('/v1/worker/availability').set('Authorization', offCall.bearer).send({ online: false });
    await t.db.query(`UPDATE workers SET skills = '{photography}' WHERE id = ANY($1)`, [
      [atCap.id, lowRep.id, offCall.id, ok.id, outOfRange.id],
    ]);
    const taskId = await createTask(t, agent, {
      location: here,
      requirements: { skills: ['photography'], min_reputation: 3.5 },
    });
    expect((await offersOf(t, taskId)).map((o) => o.worker_id)).toEqual([ok.id]);
    // Declined, and nobody else qualifies: no offer at all.
    await decline(t, ok, (await pendingOffer(t, taskId))!.id).expect(200);
    expect(await pendingOffer(t, taskId)).toBeNull();
    expect((await offersOf(t, taskId)).map((o) => o.worker_id)).toEqual([ok.id]);
  });

  it('a worker below 3.5 with one unfinished assignment is at its cap and is not offered', async () => {
    const here = spot();
    const [low] = await workersAround(here, [100]);
    await setReputation(t, low, 3.2);
    await accept(t, low, await createTask(t, agent, { location: spot() }));
    const taskId = await createTask(t, agent, { location: here });
    expect(await offersOf(t, taskId)).toEqual([]);
  });

  it('one offer at a time per worker, even when tasks are created together', async () => {
    const here = spot();
    const [solo] = await workersAround(here, [200]);
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => createTask(t, agent, { location: here })));
    const offers: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM assignments WHERE worker_id = $1 AND status = 'pending'`,
      [solo.id],
    );
    expect(offers[0].n).toBe(1);
    const offered = await Promise.all(ids.map((id) => pendingOffer(t, id)));
    expect(offered.filter(Boolean)).toHaveLength(1);
  });

  it('declining is only for a pending offer of your own', async () => {
    const here = spot();
    const [w] = await workersAround(here, [100]);
    const stranger = await createWorker(t);
    const taskId = await createTask(t, agent, { location: here });
    const offer = (await pendingOffer(t, taskId))!;
    expectError(await decline(t, stranger, offer.id), 404, 'assignment_not_found');
    await t.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', w.bearer).expect(200);
    const res = await decline(t, w, offer.id);
    expectError(res, 409, 'invalid_state');
    expect(res.body.error.current_status).toBe('accepted');
  });

  it('a task ending within the offer window is not offered', async () => {
    const here = spot();
    await workersAround(here, [100]);
    const soon = await createTask(t, agent, {
      location: offset(here, 50),
      deadline_at: new Date(t.clock.now().getTime() + 100_000).toISOString(),
    });
    expect(await offersOf(t, soon)).toEqual([]);
  });

  it('a worker finds its waiting offers under my-tasks?status=offered; answered or lapsed offers are not its tasks', async () => {
    const here = spot();
    const [w] = await workersAround(here, [100]);
    const taskId = await createTask(t, agent, { location: here, title: 'Find me' });
    const offer = (await pendingOffer(t, taskId))!;
    const mine = (q = '') =>
      t.http.get(`/v1/worker/tasks/my-tasks${q}`).set('Authorization', w.bearer).expect(200);
    const offered = await mine('?status=offered');
    expect(offered.body.total).toBe(1);
    expect(offered.body.tasks[0]).toMatchObject({
      assignment_id: offer.id,
      task_id: taskId,
      title: 'Find me',
      status: 'pending',
      offer_expires_at: offer.offer_expires_at!.toISOString(),
      accepted_at: null,
    });
    expect((await mine()).body.total).toBe(0);
    await decline(t, w, offer.id).expect(200);
    expect((await mine('?status=offered')).body.total).toBe(0);
    expect((await mine()).body.total).toBe(0);
    expect((await mine('?status=failed')).body.total).toBe(0);
  });

  it('availability: a position is needed to go on call, which lasts 8 hours after the report', async () => {
    const w = await createWorker(t);
    const noPos = await t.http
      .put('/v1/worker/availability')
      .set('Authorization', w.bearer)
      .send({ online: true });
    expectError(noPos, 400, 'validation_error');
    const half = await t.http
      .put('/v1/worker/availability')
      .set('Authorization', w.bearer)
      .send({ online: true, latitude: 31.2 });
    expectError(half, 400, 'validation_error');
    const on = await t.http
      .put('/api/v1/worker/availability')
      .set('Authorization', w.bearer)
      .send({ online: true, latitude: 31.2, longitude: 121.4 })
      .expect(200);
    expect(on.body).toMatchObject({ online: true, latitude: 31.2, longitude: 121.4 });
    expect(new Date(on.body.on_call_until).getTime() - new Date(on.body.last_seen_at).getTime()).toBe(
      8 * 3_600_000,
    );
    const off = await t.http
      .put('/v1/worker/availability')
      .set('Authorization', w.bearer)
      .send({ online: false })
      .expect(200);
    expect(off.body).toMatchObject({ online: false, latitude: 31.2, longitude: 121.4, on_call_until: null });
    const agentCall = await t.http
      .put('/v1/worker/availability')
      .set('Authorization', agent.key)
      .send({ online: false });
    expectError(agentCall, 403, 'forbidden');
  });
});
