import { PositionTrail } from '../../src/matching/services/position-trail';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createUploadTestApp, UploadTestApp } from '../support/photos';
import { accept, createTask, HOUR, relogin, submit } from '../support/tasks';

const BEIJING = { latitude: 39.9042, longitude: 116.4074 };
const SHANGHAI = { latitude: 31.2304, longitude: 121.4737 };

/**
 * Proof review (product-decisions §18), the trust side: the position trail, impossible travel, the hold of a
 * high-risk submission before any penalty, and the operators' decision.
 */
describe('proof review', () => {
  let t: UploadTestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createUploadTestApp();
    agent = await createAgent(t, { balanceCents: 10_000_000 });
  });
  afterAll(() => t.close());

  function report(worker: TestWorker, at: { latitude: number; longitude: number }, accuracy_m?: number) {
    return t.http
      .put('/v1/worker/availability')
      .set('Authorization', worker.bearer)
      .send({ online: true, ...at, ...(accuracy_m === undefined ? {} : { accuracy_m }) });
  }

  const fixAt = (at: { latitude: number; longitude: number }, accuracy_m = 10) => ({
    ...at,
    accuracy_m,
    captured_at: t.clock.now().toISOString(),
  });

  async function trail(workerId: string) {
    const rows: { latitude: number; longitude: number; accuracy_m: number | null; source: string }[] =
      await t.db.query(
        `SELECT latitude, longitude, accuracy_m, source FROM position_reports WHERE worker_id = $1
          ORDER BY reported_at, id`,
        [workerId],
      );
    return rows;
  }

  describe('position trail', () => {
    it('keeps every reported position (availability and submissions), not only the latest', async () => {
      const worker = await createWorker(t);
      await report(worker, BEIJING, 25).expect(200);
      await report(worker, { latitude: 39.91, longitude: 116.41 }).expect(200);
      // Going off call without a position adds nothing.
      await t.http
        .put('/v1/worker/availability')
        .set('Authorization', worker.bearer)
        .send({ online: false })
        .expect(200);
      const taskId = await createTask(t, agent, { location: { ...BEIJING, address: 'Tiananmen' } });
      const id = await accept(t, worker, taskId);
      await submit(t, worker, id, { result_data: { ok: true }, device_location: fixAt(BEIJING, 12) }).expect(
        200,
      );
      expect(await trail(worker.id)).toEqual([
        { ...BEIJING, accuracy_m: 25, source: 'availability' },
        { latitude: 39.91, longitude: 116.41, accuracy_m: null, source: 'availability' },
        { ...BEIJING, accuracy_m: 12, source: 'submission_device' },
      ]);
    });

    it('a report with an accuracy out of range is refused and records nothing', async () => {
      const worker = await createWorker(t);
      const res = await report(worker, BEIJING, -1);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(await trail(worker.id)).toEqual([]);
    });

    it('positions older than 30 days are erased by the purge job', async () => {
      const worker = await createWorker(t);
      await report(worker, BEIJING).expect(200);
      t.clock.advance(29 * 24 * HOUR);
      await relogin(t, worker);
      await report(worker, SHANGHAI).expect(200);
      await t.app.get(PositionTrail).purge();
      expect((await trail(worker.id)).map((r) => r.latitude)).toEqual([BEIJING.latitude, SHANGHAI.latitude]);
      t.clock.advance(1 * 24 * HOUR + 1000);
      expect(await t.app.get(PositionTrail).purge()).toBeGreaterThanOrEqual(1);
      expect((await trail(worker.id)).map((r) => r.latitude)).toEqual([SHANGHAI.latitude]);
    });
  });
});
