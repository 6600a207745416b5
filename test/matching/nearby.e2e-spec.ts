import { randomUUID } from 'node:crypto';
import { NEARBY_CELL_INDEXES, NEARBY_INDEX, nearbyTasksQuery } from '../../src/matching/nearby-tasks.query';
import { NearbyTasks } from '../../src/matching/services/nearby-tasks';
import { TASKS_FOR_WORKER_SQL, WorkerRanking } from '../../src/matching/services/worker-ranking';
import { createAgent, createWorker, TestAgent } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { offset, spot } from '../support/photos';
import { accept, createTask } from '../support/tasks';

interface Item {
  task_id: string;
  distance_meters: number | null;
  open_slots: number;
}

/** The indexed nearby search behind GET /v1/worker/tasks/available. */
describe('nearby task search', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = await createAgent(t, { balanceCents: 10_000_000 });
  });
  afterAll(() => t.close());

  const near = (p: { latitude: number; longitude: number }, extra = '') =>
    `/v1/worker/tasks/available?latitude=${p.latitude}&longitude=${p.longitude}${extra}`;

  it('the plan reads the per-cell indexes; around a pole, the GiST index', async () => {
    // Index-only once vacuum has marked the pages all-visible (bench/results/nearby-explain.md); here, fresh rows.
    // 5,000 open tasks on a 10 km grid (inserted directly, by an agent of their own: the plan is about the table,
    // not the escrow).
    const seeder = await createAgent(t);
    await t.db.query(
      `INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, budget_cents, fee_bps,
                          payout_cents, fee_cents, total_cents, status, open_slots, deadline_at,
                          estimated_completion_at, created_at, updated_at)
       SELECT $1, 'seed ' || g, 'seeded', 'photo', 20 + (g % 100) * 0.09, 100 + (g / 100) * 0.09, 5000, 1000,
              4500, 500, 5000, 'pending', 1, $2, $2, $3, $3
         FROM generate_series(1, 5000) g`,
      [seeder.id, new Date(t.clock.now().getTime() + 86_400_000), t.clock.now()],
    );
    await t.db.query('ANALYZE tasks');
    const worker = await createWorker(t);
    const { sql, params } = nearbyTasksQuery({
      workerId: worker.id,
      worker: { skills: [], reputation: 4 },
      now: t.clock.now(),
      position: { latitude: 22.16, longitude: 102.16 },
      radiusMeters: 5000,
      minPayoutCents: 0,
      sort: 'distance_asc',
      limit: 20,
    });
    const [{ 'QUERY PLAN': plan }] = await t.db.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const text = JSON.stringify(plan);
    expect(Object.values(NEARBY_CELL_INDEXES).some((n) => text.includes(`"Index Name":"${n}"`))).toBe(true);
    expect(text).not.toContain('"Node Type":"Seq Scan"');
    const polar = nearbyTasksQuery({
      workerId: worker.id,
      worker: { skills: [], reputation: 4 },
      now: t.clock.now(),
      position: { latitude: 89.99, longitude: 10 },
      radiusMeters: 5000,
      minPayoutCents: 0,
      sort: 'distance_asc',
      limit: 20,
    });
    const [{ 'QUERY PLAN': polarPlan }] = await t.db.query(
      `EXPLAIN (FORMAT JSON) ${polar.sql}`,
      polar.params,
    );
    expect(JSON.stringify(polarPlan)).toContain(`"Index Name":"${NEARBY_INDEX}"`);
    // And the search through the API finds the seeded tasks around that point, nearest first.
    const res = await t.http
      .get(near({ latitude: 22.165, longitude: 102.165 }, '&sort_by=distance_asc&limit=5'))
      .set('Authorization', worker.bearer)
      .expect(200);
    expect(res.body.tasks.length).toBeGreaterThan(0);
    const distances = res.body.tasks.map((x: Item) => x.distance_meters as number);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    expect(Math.max(...distances)).toBeLessThanOrEqual(5000);
  });

  it('the matcher for a worker going on call reads the same GiST index, nearest first, within reach', async () => {
    // The seeded tasks of the test above: 1,000 m radius on a grid of about 10 km. The worker's presence is written
    // directly, so no on-call job offers these tasks (they hold no escrow).
    const worker = await createWorker(t);
    const at = { latitude: 22.16, longitude: 102.16 };
    await t.db.query(
      `INSERT INTO worker_availability (worker_id, online, on_call_until, latitude, longitude, position_at, last_seen_at)
       VALUES ($1, true, $2, $3, $4, $5, $5)`,
      [worker.id, new Date(t.clock.now().getTime() + 3_600_000), at.latitude, at.longitude, t.clock.now()],
    );
    const params = [worker.id, t.clock.now(), 3.5, 1, 3];
    const [{ 'QUERY PLAN': plan }] = await t.db.query(
      `EXPLAIN (FORMAT JSON) ${TASKS_FOR_WORKER_SQL}`,
      params,
    );
    const text = JSON.stringify(plan);
    expect(text).toContain(`"Index Name":"${NEARBY_INDEX}"`);
    expect(text).toContain('"Order By":');
    expect(text).not.toContain('"Node Type":"Seq Scan"');
    // With their 1,000 m radius only the seeded task on the worker's spot is in reach (the next are 9 km away);
    // with a 50 km radius the 20 nearest are, best first (the same radius everywhere: nearest first).
    const ranking = t.app.get(WorkerRanking);
    const reach = await ranking.tasksFor(t.db, worker.id, t.clock.now());
    expect(reach).toHaveLength(1);
    expect(reach[0].distanceMeters).toBeLessThan(1000);
    await t.db.query(`UPDATE tasks SET max_distance_meters = 50000 WHERE title LIKE 'seed %'`);
    const wide = await ranking.tasksFor(t.db, worker.id, t.clock.now());
    expect(wide).toHaveLength(20);
    const distances = wide.map((x) => x.distanceMeters);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    await t.db.query(`UPDATE tasks SET max_distance_meters = 1000 WHERE title LIKE 'seed %'`);
  });

  it('without coordinates the worker’s last reported position is used', async () => {
    const here = spot();
    const w = await createWorker(t);
    const close = await createTask(t, agent, { location: offset(here, 700) });
    const far = await createTask(t, agent, { location: offset(here, 20_000) });
    await t.http
      .put('/v1/worker/availability')
      .set('Authorization', w.bearer)
      .send({ online: false, ...here })
      .expect(200);
    const res = await t.http.get('/v1/worker/tasks/available').set('Authorization', w.bearer).expect(200);
    const ids = res.body.tasks.map((x: Item) => x.task_id);
    expect(ids).toContain(close);
    expect(ids).not.toContain(far);
    expect(res.body.metadata).toMatchObject({ max_distance_meters: 5000, last_known_position: 1 });
    const item = res.body.tasks.find((x: Item) => x.task_id === close);
    expect(item.distance_meters).toBeGreaterThan(690);
    expect(item.distance_meters).toBeLessThan(710);
  });

  it('around a given position the search is one statement that reads the worker itself; a worker gone is refused', async () => {
    // The authenticator refuses a deleted account first; this is the race after it (the row gone between the two).
    const nearby = t.app.get(NearbyTasks);
    const search = { radiusMeters: 5000, minPayoutCents: 0, sort: 'payment_desc' as const, limit: 20 };
    const empty = spot();
    const w = await createWorker(t);
    // An existing worker with nothing around: an empty page, not an error.
    await expect(nearby.search(w.id, { ...search, position: empty })).resolves.toMatchObject({
      rows: [],
      total: 0,
    });
    // Tasks around: found in the one statement, with the worker's own skills and reputation applied.
    const skilled = await createTask(t, agent, { location: empty, requirements: { skills: ['ladder'] } });
    const open = await createTask(t, agent, { location: offset(empty, 300) });
    const found = await nearby.search(w.id, { ...search, position: empty });
    expect(found.rows.map((r) => r.id)).toEqual([open]);
    expect(found.rows.map((r) => r.id)).not.toContain(skilled);
    const gone = randomUUID();
    for (const position of [empty, undefined]) {
      await expect(nearby.search(gone, { ...search, position })).rejects.toMatchObject({
        code: 'invalid_token',
      });
    }
  });

  it('a task the worker held stays out of its search, even once given up (declined or lapsed offers aside)', async () => {
    // The search reads the worker's own tasks from assignments.task_deadline_at, a copy of the task's deadline that
    // triggers keep (migration 1732200092000); both search shapes exclude them.
    const here = spot();
    const skill = `skill-${randomUUID()}`;
    const quitter = await createWorker(t, { skills: [skill] });
    const other = await createWorker(t, { skills: [skill] });
    // Paid well above every other test's task, so the search without a position finds it on its first page.
    const taskId = await createTask(t, agent, {
      location: here,
      budget_cents: 500_000,
      requirements: { skills: [skill] },
    });
    const assignmentId = await accept(t, quitter, taskId);
    await t.http
      .post(`/v1/worker/assignments/${assignmentId}/abandon`)
      .set('Authorization', quitter.bearer)
      .expect(200);
    const listed = async (w: typeof quitter, path: string) =>
      ((await t.http.get(path).set('Authorization', w.bearer).expect(200)).body.tasks as Item[]).map(
        (x) => x.task_id,
      );
    const rich = '&min_payment_cents=400000';
    const anywhere = `/v1/worker/tasks/available?sort_by=distance_asc${rich}`; // no position: the whole table
    for (const path of [near(here, rich), anywhere]) {
      expect(await listed(other, path)).toContain(taskId);
      expect(await listed(quitter, path)).not.toContain(taskId);
    }
    const copy = async (): Promise<{ copied: Date; deadline: Date }> =>
      (
        await t.db.query(
          `SELECT a.task_deadline_at AS copied, t.deadline_at AS deadline
             FROM assignments a JOIN tasks t ON t.id = a.task_id WHERE a.id = $1`,
          [assignmentId],
        )
      )[0];
    const taken = await copy();
    expect(taken.copied).toEqual(taken.deadline);
    // No code path moves a deadline today; if one ever does, the copy follows it.
    await t.db.query(`UPDATE tasks SET deadline_at = deadline_at + interval '1 hour' WHERE id = $1`, [
      taskId,
    ]);
    const moved = await copy();
    expect(moved.copied).toEqual(moved.deadline);
    expect(moved.deadline.getTime() - taken.deadline.getTime()).toBe(3_600_000);
    expect(await listed(quitter, near(here))).not.toContain(taskId);
  });

  it('open slots: a task leaves the search when its slots are taken and returns when one frees up', async () => {
    const here = spot();
    const looker = await createWorker(t);
    const taskId = await createTask(t, agent, { location: here, max_workers: 2 });
    const ids = async () =>
      (await t.http.get(near(here)).set('Authorization', looker.bearer).expect(200)).body.tasks.map(
        (x: Item) => [x.task_id, x.open_slots],
      );
    expect(await ids()).toEqual([[taskId, 2]]);
    const first = await createWorker(t);
    await accept(t, first, taskId);
    expect(await ids()).toEqual([[taskId, 1]]);
    const second = await createWorker(t);
    const a2 = await accept(t, second, taskId);
    expect(await ids()).toEqual([]);
    await t.http.post(`/v1/worker/assignments/${a2}/abandon`).set('Authorization', second.bearer).expect(200);
    expect(await ids()).toEqual([[taskId, 1]]);
  });
});
