import { randomUUID } from 'node:crypto';
import { createAgent, createWorker, TestAgent } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { expectError } from '../support/errors';
import { accept, act, createTask, feedback, HOUR, submit, SURFACES } from '../support/tasks';

interface Item {
  task_id: string;
  payment_cents: number;
  distance_meters: number | null;
  deadline_at: string;
}

/** A spot of the map no other test uses, so listings only see this test's tasks. */
function spot(): { latitude: number; longitude: number } {
  return { latitude: -60 + Math.random() * 120, longitude: -170 + Math.random() * 340 };
}

/** About `meters` north of a point. */
function north(p: { latitude: number; longitude: number }, meters: number) {
  return { latitude: p.latitude + meters / 111_195, longitude: p.longitude };
}

describe('worker task endpoints', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = await createAgent(t, { balanceCents: 10_000_000 });
  });
  afterAll(() => t.close());

  const near = (p: { latitude: number; longitude: number }, extra = '') =>
    `/v1/worker/tasks/available?latitude=${p.latitude}&longitude=${p.longitude}${extra}`;

  describe('GET /v1/worker/tasks/available', () => {
    it('lists eligible tasks only: open slot, deadline ahead, skills, reputation, not already taken, in radius', async () => {
      const here = spot();
      const worker = await createWorker(t, { skills: ['photography'] });
      const eligible = await createTask(t, agent, { location: north(here, 300), title: 'eligible' });
      const withSkill = await createTask(t, agent, {
        location: north(here, 600),
        requirements: { skills: ['photography'] },
      });
      await createTask(t, agent, { location: north(here, 400), requirements: { skills: ['translation'] } });
      await createTask(t, agent, { location: north(here, 400), requirements: { min_reputation: 4.5 } });
      await createTask(t, agent, { location: north(here, 8000) }); // outside 5 km
      const full = await createTask(t, agent, { location: north(here, 100) });
      await accept(t, await createWorker(t), full);
      const mine = await createTask(t, agent, { location: north(here, 100), max_workers: 2 });
      await accept(t, worker, mine);
      const cancelled = await createTask(t, agent, { location: north(here, 100) });
      await SURFACES.v1.cancel(t, cancelled).set('Authorization', agent.key).expect(200);
      const soon = await createTask(t, agent, {
        location: north(here, 100),
        deadline_at: new Date(t.clock.now().getTime() + 60_000).toISOString(),
      });

      const res = await t.http.get(near(here)).set('Authorization', worker.bearer).expect(200);
      expect(res.body.tasks.map((x: Item) => x.task_id).sort()).toEqual([eligible, withSkill, soon].sort());
      expect(res.body.metadata).toEqual({
        total_eligible: 3,
        total_is_estimate: 0,
        returned: 3,
        max_distance_meters: 5000,
      });
      const item = res.body.tasks.find((x: Item) => x.task_id === eligible);
      expect(item).toMatchObject({
        title: 'eligible',
        payment_cents: 4500,
        required_skills: [],
        open_slots: 1,
        estimated_duration_minutes: null,
        location: { latitude: expect.any(Number), longitude: expect.any(Number), max_distance_meters: 1000 },
      });
      expect(item.distance_meters).toBeGreaterThanOrEqual(295);
      expect(item.distance_meters).toBeLessThanOrEqual(305);
      expect(Number.isInteger(item.distance_meters)).toBe(true);

      t.clock.advance(61_000);
      const later = await t.http.get(near(here)).set('Authorization', worker.bearer).expect(200);
      expect(later.body.tasks.map((x: Item) => x.task_id)).not.toContain(soon);
    });

    it('sorts by payment, distance or deadline, filters by payment, and limits', async () => {
      const here = spot();
      const w = await createWorker(t);
      const deadline = (h: number) => new Date(t.clock.now().getTime() + h * HOUR).toISOString();
      const a = await createTask(t, agent, {
        location: north(here, 500),
        budget_cents: 2000,
        deadline_at: deadline(5),
      });
      const b = await createTask(t, agent, {
        location: north(here, 1000),
        budget_cents: 9000,
        deadline_at: deadline(9),
      });
      const c = await createTask(t, agent, {
        location: north(here, 2000),
        budget_cents: 5000,
        deadline_at: deadline(2),
      });
      const ids = async (extra: string) =>
        (
          (await t.http.get(near(here, extra)).set('Authorization', w.bearer).expect(200)).body
            .tasks as Item[]
        ).map((x) => x.task_id);
      expect(await ids('')).toEqual([b, c, a]);
      expect(await ids('&sort_by=payment_desc')).toEqual([b, c, a]);
      expect(await ids('&sort_by=distance_asc')).toEqual([a, b, c]);
      expect(await ids('&sort_by=deadline_asc')).toEqual([c, a, b]);
      expect(await ids('&min_payment_cents=4500')).toEqual([b, c]);
      expect(await ids('&max_distance_km=0.75')).toEqual([a]);
      const limited = await t.http.get(near(here, '&limit=2')).set('Authorization', w.bearer).expect(200);
      expect(limited.body.tasks).toHaveLength(2);
      expect(limited.body.metadata).toMatchObject({ total_eligible: 3, returned: 2 });
    });

    it('without coordinates: no distance filter and distance_meters null', async () => {
      const skill = `skill-${randomUUID()}`;
      const w = await createWorker(t, { skills: [skill] });
      const far = await createTask(t, agent, { location: spot(), requirements: { skills: [skill] } });
      const res = await t.http
        .get('/v1/worker/tasks/available?sort_by=distance_asc&limit=100')
        .set('Authorization', w.bearer)
        .expect(200);
      const item = res.body.tasks.find((x: Item) => x.task_id === far);
      expect(item.distance_meters).toBeNull();
      expect(res.body.metadata.max_distance_meters).toBeUndefined();
    });
  });

  describe('accept rules', () => {
    it('missing skills or too low a reputation is 403 not_eligible', async () => {
      const w = await createWorker(t, { skills: ['photography'] });
      const skilled = await createTask(t, agent, {
        requirements: { skills: ['photography', 'translation'] },
      });
      const res = await t.http.post(`/v1/worker/tasks/${skilled}/accept`).set('Authorization', w.bearer);
      expectError(res, 403, 'not_eligible');
      expect(res.body.error.missing_skills).toEqual(['translation']);
      const picky = await createTask(t, agent, { requirements: { min_reputation: 4.5 } });
      const res2 = await t.http.post(`/v1/worker/tasks/${picky}/accept`).set('Authorization', w.bearer);
      expectError(res2, 403, 'not_eligible');
      expect(res2.body.error).toMatchObject({ min_reputation: 4.5, worker_reputation: 4 });
    });

    it('a worker below 3.5 holds one unfinished assignment at a time; submitting frees the place', async () => {
      const w = await createWorker(t);
      // A stored low score (how outcomes produce it is tested in test/matching/reputation.e2e-spec.ts).
      await t.db.query(`UPDATE workers SET reputation = 3.2 WHERE id = $1`, [w.id]);
      const [t1, t2] = [await createTask(t, agent), await createTask(t, agent)];
      const a1 = await accept(t, w, t1);
      const res = await t.http.post(`/v1/worker/tasks/${t2}/accept`).set('Authorization', w.bearer);
      expectError(res, 409, 'assignment_limit_reached');
      expect(res.body.error).toMatchObject({ limit: 1, live_assignments: 1 });
      await submit(t, w, a1).expect(200);
      await accept(t, w, t2);
    });

    it('a task no longer taking workers is 409 invalid_state with current_status', async () => {
      const w = await createWorker(t);
      const done = await createTask(t, agent);
      await SURFACES.api.cancel(t, done).set('Authorization', agent.key).expect(200);
      const res = await t.http.post(`/v1/worker/tasks/${done}/accept`).set('Authorization', w.bearer);
      expectError(res, 409, 'invalid_state');
      expect(res.body.error.current_status).toBe('cancelled');
    });

    it('start and submit only from the states they leave', async () => {
      const w = await createWorker(t);
      const taskId = await createTask(t, agent);
      const a = await accept(t, w, taskId);
      await submit(t, w, a).expect(200); // straight from accepted
      const start = await act(t, w, a, 'start');
      expectError(start, 409, 'invalid_state');
      expect(start.body.error.current_status).toBe('submitted');
      expectError(await submit(t, w, a), 409, 'invalid_state');
      expectError(await act(t, w, a, 'abandon'), 409, 'invalid_state');
      await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    });
  });

  describe('GET /v1/worker/tasks/my-tasks', () => {
    it('lists the worker’s assignments newest first, filtered by the worker-facing status names', async () => {
      const w = await createWorker(t);
      const ids = {
        accepted: await createTask(t, agent),
        inProgress: await createTask(t, agent),
        completed: await createTask(t, agent),
      };
      const aAccepted = await accept(t, w, ids.accepted);
      const aProgress = await accept(t, w, ids.inProgress);
      await act(t, w, aProgress, 'start').expect(200);
      const aDone = await accept(t, w, ids.completed);
      await submit(t, w, aDone).expect(200);
      await feedback(t, agent, ids.completed, { accept_result: true }).expect(200);
      const rejected = await createTask(t, agent);
      const aRejected = await accept(t, w, rejected);
      await submit(t, w, aRejected).expect(200);
      await feedback(t, agent, rejected, { accept_result: false, reason_code: 'other' }).expect(200);

      const get = (q = '') =>
        t.http.get(`/v1/worker/tasks/my-tasks${q}`).set('Authorization', w.bearer).expect(200);
      const all = await get();
      expect(all.body.total).toBe(4);
      expect(all.body.tasks.map((x: { assignment_id: string }) => x.assignment_id)).toEqual([
        aRejected,
        aDone,
        aProgress,
        aAccepted,
      ]);
      expect(all.body.tasks[1]).toMatchObject({
        task_id: ids.completed,
        status: 'approved',
        task_status: 'completed',
        payment_cents: 4500,
        title: expect.any(String),
      });
      const by = async (status: string) =>
        (await get(`?status=${status}`)).body.tasks.map((x: { assignment_id: string }) => x.assignment_id);
      expect(await by('accepted')).toEqual([aAccepted]);
      expect(await by('in_progress')).toEqual([aProgress]);
      expect(await by('submitted')).toEqual([]);
      expect(await by('completed')).toEqual([aDone]);
      expect(await by('failed')).toEqual([aRejected]);
      const page = await get('?limit=2&offset=2');
      expect(page.body).toMatchObject({ total: 4, limit: 2, offset: 2 });
      expect(page.body.tasks.map((x: { assignment_id: string }) => x.assignment_id)).toEqual([
        aProgress,
        aAccepted,
      ]);
      const reference = await t.http
        .get('/api/v1/worker/tasks/my-tasks')
        .set('Authorization', w.bearer)
        .expect(200);
      expect(reference.body).toEqual(all.body);
      const past = await get('?offset=10');
      expect(past.body).toMatchObject({ tasks: [], total: 4 });
    });
  });

  describe('GET /v1/worker/assignments/{assignment_id}', () => {
    const one = (w: { bearer: string }, id: string, prefix = '/v1') =>
      t.http.get(`${prefix}/worker/assignments/${id}`).set('Authorization', w.bearer);

    it('answers your assignment with its task, then your submission, then the verdict with its reason', async () => {
      const w = await createWorker(t);
      const taskId = await createTask(t, agent, { title: 'Is the shop open?' });
      const a = await accept(t, w, taskId);
      const accepted = (await one(w, a).expect(200)).body;
      expect(accepted).toMatchObject({
        assignment_id: a,
        task_id: taskId,
        title: 'Is the shop open?',
        description: expect.any(String),
        required_skills: [],
        status: 'accepted',
        task_status: expect.any(String),
        payment_cents: 4500,
        location: { latitude: expect.any(Number), longitude: expect.any(Number) },
        accepted_at: expect.any(String),
        submitted_at: null,
        submission: null,
        review: null,
      });
      // The list item and the detail agree on every field they share.
      const listed = (await t.http.get('/v1/worker/tasks/my-tasks').set('Authorization', w.bearer)).body
        .tasks[0];
      expect(accepted).toMatchObject(listed);

      await submit(t, w, a, { result_data: { open: true }, worker_notes: 'Lights on.' }).expect(200);
      await feedback(t, agent, taskId, {
        accept_result: false,
        reason_code: 'wrong_location',
        feedback_text: 'That is the shop next door.',
      }).expect(200);
      const decided = (await one(w, a, '/api/v1').expect(200)).body;
      expect(decided).toMatchObject({
        status: 'rejected',
        submitted_at: expect.any(String),
        reviewed_at: expect.any(String),
        submission: {
          result_data: { open: true },
          worker_notes: 'Lights on.',
          photos: [],
          device_location: null,
        },
        review: {
          decision: 'rejected',
          reason_code: 'wrong_location',
          feedback_text: 'That is the shop next door.',
        },
      });
    });

    it('another worker’s assignment and an unknown id are 404 assignment_not_found; a bad id 400; agents 403', async () => {
      const owner = await createWorker(t);
      const other = await createWorker(t);
      const a = await accept(t, owner, await createTask(t, agent));
      expectError(await one(other, a), 404, 'assignment_not_found');
      expectError(await one(owner, randomUUID()), 404, 'assignment_not_found');
      expectError(await one(owner, 'nope'), 400, 'validation_error');
      expectError(await one(agent, a), 403, 'forbidden');
      expectError(await t.http.get(`/v1/worker/assignments/${a}`), 401, 'authentication_required');
    });
  });

  describe('agent task list', () => {
    it('newest first, status filter, cursor paging with has_more and next_cursor', async () => {
      const a = await createAgent(t, { balanceCents: 100_000 });
      const created: string[] = [];
      for (let i = 0; i < 5; i++)
        created.push(await createTask(t, a, {}, i % 2 ? SURFACES.api : SURFACES.v1));
      await SURFACES.v1.cancel(t, created[1]).set('Authorization', a.key).expect(200);
      const newestFirst = [...created].reverse();
      const page1 = await t.http.get('/v1/tasks?limit=2').set('Authorization', a.key).expect(200);
      expect(page1.body.data.map((x: { task_id: string }) => x.task_id)).toEqual(newestFirst.slice(0, 2));
      expect(page1.body).toMatchObject({ has_more: true, next_cursor: newestFirst[1] });
      expect(page1.body.data[0]).toEqual({
        task_id: newestFirst[0],
        title: expect.any(String),
        status: 'pending',
        budget_cents: 5000,
        max_workers: 1,
        task_type: 'data_collection',
        created_at: expect.any(String),
        deadline_at: expect.any(String),
      });
      const page2 = await t.http
        .get(`/api/v1/tasks?limit=2&starting_after=${page1.body.next_cursor}`)
        .set('Authorization', a.key)
        .expect(200);
      expect(page2.body.data.map((x: { task_id: string }) => x.task_id)).toEqual(newestFirst.slice(2, 4));
      const page3 = await t.http
        .get(`/v1/tasks?limit=2&starting_after=${page2.body.next_cursor}`)
        .set('Authorization', a.key)
        .expect(200);
      expect(page3.body).toEqual({
        data: [expect.objectContaining({ task_id: newestFirst[4] })],
        has_more: false,
        next_cursor: null,
      });
      const cancelled = await t.http
        .get('/v1/tasks?status=cancelled')
        .set('Authorization', a.key)
        .expect(200);
      expect(cancelled.body.data.map((x: { task_id: string }) => x.task_id)).toEqual([created[1]]);
      const all = await t.http.get('/v1/tasks').set('Authorization', a.key).expect(200);
      expect(all.body.data).toHaveLength(5);
      expect(all.body.has_more).toBe(false);
    });
  });
});
