import { createTestApp, TestApp } from '../support/app';
import { createAgent, createWorker } from '../support/actors';
import { PositionErasure } from '../../src/matching/services/position-erasure';
import { jpeg, spot, uploadProof } from '../support/photos';
import { accept, act, createTask, feedback, submit } from '../support/tasks';

describe('workers’ rights under PIPL (product-decisions §19)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  it('the data export holds the worker’s own data and nobody else’s', async () => {
    const agent = await createAgent(t, { balanceCents: 50_000 });
    const worker = await createWorker(t);
    const other = await createWorker(t);
    const taskId = await createTask(t, agent, { max_workers: 2 });
    const mine = await accept(t, worker, taskId);
    const theirs = await accept(t, other, taskId);
    await act(t, worker, mine, 'start').expect(200);
    await submit(t, worker, mine, {
      result_data: { storefront: 'open' },
      worker_notes: 'my own note',
    }).expect(200);
    await submit(t, other, theirs, {
      result_data: { storefront: 'shut' },
      worker_notes: 'THEIR SECRET NOTE',
    }).expect(200);
    await feedback(t, agent, taskId, { accept_result: true, assignment_id: mine }).expect(200);
    await t.http
      .post(`/v1/worker/assignments/${mine}/messages`)
      .set('Authorization', worker.bearer)
      .send({ body: 'my question' })
      .expect(201);
    await t.http
      .post(`/v1/tasks/${taskId}/messages`)
      .set('Authorization', agent.key)
      .send({ assignment_id: theirs, body: 'TO THE OTHER WORKER' })
      .expect(201);
    await t.http
      .put('/v1/worker/availability')
      .set('Authorization', worker.bearer)
      .send({ online: true, latitude: 31.23, longitude: 121.47 });

    const res = await t.http.get('/v1/worker/data-export').set('Authorization', worker.bearer).expect(200);
    const body = res.body;
    expect(body.profile).toMatchObject({ worker_id: worker.id, phone_number: worker.phone });
    expect(body.assignments).toEqual([
      expect.objectContaining({
        assignment_id: mine,
        task_id: taskId,
        task_title: 'Photograph the storefront',
        status: 'approved',
        result_data: { storefront: 'open' },
        worker_notes: 'my own note',
        payout_cents: 4500,
      }),
    ]);
    expect(body.messages).toEqual([
      expect.objectContaining({ assignment_id: mine, from: 'worker', body: 'my question' }),
    ]);
    expect(body.earnings).toMatchObject({ task_earnings_cents: 4500, completed_tasks: 1 });
    expect(body.withdrawals).toEqual([]);

    // Nobody else's data anywhere in the file: not the other worker, not the agent's id, email or key.
    const text = JSON.stringify(body);
    for (const foreign of [
      other.id,
      other.phone,
      theirs,
      'THEIR SECRET NOTE',
      'TO THE OTHER WORKER',
      agent.id,
      agent.email,
      agent.apiKey,
    ])
      expect(text).not.toContain(foreign);

    // The other worker's export is theirs.
    const theirsExport = await t.http
      .get('/api/v1/worker/data-export')
      .set('Authorization', other.bearer)
      .expect(200);
    expect(theirsExport.body.profile.worker_id).toBe(other.id);
    expect(JSON.stringify(theirsExport.body)).not.toContain(worker.phone);
    // Only for workers.
    await t.http.get('/v1/worker/data-export').set('Authorization', agent.key).expect(403);
  });

  it('positions older than 30 days are erased by the sweep; newer ones and a worker on call keep theirs', async () => {
    const [old, recent, onCall] = [await createWorker(t), await createWorker(t), await createWorker(t)];
    const now = t.clock.now();
    const days = (n: number) => new Date(now.getTime() - n * 86_400_000);
    const insert = (id: string, at: Date, online: boolean) =>
      t.db.query(
        `INSERT INTO worker_availability (worker_id, online, on_call_until, latitude, longitude, position_at, last_seen_at)
         VALUES ($1, $2, $3, 31.23, 121.47, $4, $4)`,
        [id, online, online ? new Date(now.getTime() + 3_600_000) : null, at],
      );
    await insert(old.id, days(31), false);
    await insert(recent.id, days(29), false);
    await insert(onCall.id, days(31), true);

    const erased = await t.app.get(PositionErasure).sweep();
    expect(erased.worker_availability).toBeGreaterThanOrEqual(1);
    const rows: { worker_id: string; latitude: number | null; position_at: Date | null }[] = await t.db.query(
      `SELECT worker_id, latitude, position_at FROM worker_availability WHERE worker_id = ANY($1::uuid[])`,
      [[old.id, recent.id, onCall.id]],
    );
    const byId = new Map(rows.map((r) => [r.worker_id, r]));
    expect(byId.get(old.id)).toMatchObject({ latitude: null, position_at: null });
    expect(byId.get(recent.id)?.latitude).toBe(31.23);
    expect(byId.get(onCall.id)?.latitude).toBe(31.23);
    // Run again: nothing left to erase among these.
    await t.app.get(PositionErasure).sweep();
    const [again]: { latitude: number | null }[] = await t.db.query(
      `SELECT latitude FROM worker_availability WHERE worker_id = $1`,
      [recent.id],
    );
    expect(again.latitude).toBe(31.23);
  });

  // Last: it moves the test clock 181 days on.
  it('proof photos’ locations are erased 180 days after the task ends, not before, and not while a task is live', async () => {
    const agent = await createAgent(t, { balanceCents: 100_000 });
    const worker = await createWorker(t);
    /** A task at a new spot, taken and submitted with a photo and the device's position; the assignment and upload. */
    const submitted = async () => {
      const at = spot();
      const taskId = await createTask(t, agent, { location: { ...at, address: 'X' } });
      const id = await accept(t, worker, taskId);
      await act(t, worker, id, 'start').expect(200);
      const photo = await uploadProof(t, worker, await jpeg({ gps: at }));
      expect(photo.status).toBe(201);
      await submit(t, worker, id, {
        result_data: { storefront: 'open' },
        device_location: { ...at, accuracy_m: 10, captured_at: t.clock.now().toISOString() },
        photo_urls: [photo.body.url],
      }).expect(200);
      return { taskId, id, uploadId: photo.body.upload_id as string };
    };
    const ended = await submitted();
    await feedback(t, agent, ended.taskId, { accept_result: true }).expect(200);
    const live = await submitted(); // submitted, never reviewed: its task is live
    const located = async (a: { id: string; uploadId: string }) => {
      const [row]: { device: boolean; photo: boolean }[] = await t.db.query(
        `SELECT a.device_location IS NOT NULL AS device,
                (SELECT u.latitude IS NOT NULL AND u.exif IS NOT NULL FROM uploads u WHERE u.id = $2) AS photo
           FROM assignments a WHERE a.id = $1`,
        [a.id, a.uploadId],
      );
      return row;
    };
    expect(await located(ended)).toEqual({ device: true, photo: true });

    t.clock.advance(179 * 86_400_000);
    await t.app.get(PositionErasure).sweep();
    expect(await located(ended)).toEqual({ device: true, photo: true });

    t.clock.advance(2 * 86_400_000);
    const erased = await t.app.get(PositionErasure).sweep();
    expect(erased.assignment_device_locations).toBeGreaterThanOrEqual(1);
    expect(erased.upload_locations).toBeGreaterThanOrEqual(1);
    expect(await located(ended)).toEqual({ device: false, photo: false });
    // The task still under review keeps its proof's locations; the delivered work itself stays.
    expect(await located(live)).toEqual({ device: true, photo: true });
    const [work]: { result_data: unknown; photos: unknown[] }[] = await t.db.query(
      `SELECT result_data, photos FROM assignments WHERE id = $1`,
      [ended.id],
    );
    expect(work.result_data).toEqual({ storefront: 'open' });
    expect(work.photos).toHaveLength(1);
  });
});
