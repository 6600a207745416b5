import { PositionErasure } from '../../src/matching/services/position-erasure';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { TaskTimers } from '../../src/task/services/task-timers';
import { agentBalance, escrowOf, workerBalance } from '../support/balances';
import sharp from 'sharp';
import { withExif } from '../../scripts/exif-photo';
import { createUploadTestApp, offset, uploadProof, UploadTestApp } from '../support/photos';
import { accept, createTask, feedback, HOUR, relogin, submit, taskStatus } from '../support/tasks';

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

  /** A position report; off call, so the worker gets no offers of the other tests' tasks. */
  function report(worker: TestWorker, at: { latitude: number; longitude: number }, accuracy_m?: number) {
    return t.http
      .put('/v1/worker/availability')
      .set('Authorization', worker.bearer)
      .send({ online: false, ...at, ...(accuracy_m === undefined ? {} : { accuracy_m }) });
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
      await t.http
        .put('/v1/worker/availability')
        .set('Authorization', worker.bearer)
        .send({ online: true, ...BEIJING, accuracy_m: 25 })
        .expect(200);
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

    it('positions older than 30 days are erased by the position-erasure job', async () => {
      const worker = await createWorker(t);
      await report(worker, BEIJING).expect(200);
      t.clock.advance(29 * 24 * HOUR);
      await relogin(t, worker);
      await report(worker, SHANGHAI).expect(200);
      await t.app.get(PositionErasure).sweep();
      expect((await trail(worker.id)).map((r) => r.latitude)).toEqual([BEIJING.latitude, SHANGHAI.latitude]);
      t.clock.advance(1 * 24 * HOUR + 1000);
      expect((await t.app.get(PositionErasure).sweep()).position_reports).toBeGreaterThanOrEqual(1);
      expect((await trail(worker.id)).map((r) => r.latitude)).toEqual([SHANGHAI.latitude]);
    });
  });
  /** A photo task at `at`, taken by a new worker: the worker, the task, the assignment. */
  async function photoTask(at: { latitude: number; longitude: number }) {
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent, {
      location: { ...at, address: 'Somewhere' },
      task_type: 'photo',
    });
    return { worker, taskId, id: await accept(t, worker, taskId) };
  }

  /** A photo no other test sends (random pixels: distinct bytes and picture), its EXIF GPS at `gps`. */
  async function distinctPhoto(gps: { latitude: number; longitude: number }): Promise<Buffer> {
    const raw = Buffer.alloc(64 * 48 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(Math.random() * 256);
    const base = await sharp(raw, { raw: { width: 64, height: 48, channels: 3 } })
      .jpeg()
      .toBuffer();
    return withExif(base, { gps });
  }

  /** Submits a photo whose EXIF GPS is 20 m from `at`, through photo_urls. */
  async function submitPhotoAt(worker: TestWorker, id: string, at: { latitude: number; longitude: number }) {
    const url = (await uploadProof(t, worker, await distinctPhoto(offset(at, 20))).expect(201)).body.url;
    const res = await submit(t, worker, id, { result_data: { ok: true }, photo_urls: [url] });
    if (res.status !== 200) throw new Error(`submit failed: ${res.status} ${JSON.stringify(res.body)}`);
  }

  async function submittedEvent(taskId: string) {
    const [row]: { data: Record<string, unknown> }[] = await t.db.query(
      `SELECT data FROM events WHERE task_id = $1 AND name = 'task.submitted' ORDER BY seq DESC LIMIT 1`,
      [taskId],
    );
    return row.data as {
      risk: string;
      review_required: boolean;
      submissions: { risk: string; review_required: boolean; review_deadline_at: string | null }[];
    };
  }

  async function resultOf(taskId: string) {
    return (await t.http.get(`/v1/tasks/${taskId}/result`).set('Authorization', agent.key).expect(200)).body;
  }

  describe('impossible travel', () => {
    it('Beijing, then a photo in Shanghai 10 minutes later: impossible_travel, risk high, review_required', async () => {
      const { worker, taskId, id } = await photoTask(SHANGHAI);
      await report(worker, BEIJING, 20).expect(200);
      t.clock.advanceMinutes(10);
      await submitPhotoAt(worker, id, SHANGHAI);

      const result = await resultOf(taskId);
      const v = result.result.photos[0].verification;
      expect(v.risk).toBe('high');
      const travel = v.signals.find((s: { code: string }) => s.code === 'impossible_travel');
      expect(travel).toBeDefined();
      expect(travel.detail).toMatch(
        /^1,0\d\d(\.\d)? km from the worker's previous known position, 10 minutes earlier/,
      );
      expect(travel.speed_kmh).toBeGreaterThan(6000);
      // Distances and times, never where: no coordinate of either city appears.
      const said = JSON.stringify(travel);
      for (const n of ['39.9', '116.4', '31.2', '121.4']) expect(said).not.toContain(n);
      expect(result.result).toMatchObject({ risk: 'high', review_required: true });
      expect(Date.parse(result.result.review_deadline_at)).toBe(
        Date.parse(result.submissions[0].submitted_at) + 14 * 24 * HOUR,
      );

      const event = await submittedEvent(taskId);
      expect(event).toMatchObject({ risk: 'high', review_required: true });
      expect(event.submissions[0]).toMatchObject({ risk: 'high', review_required: true });
      const detail = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
      expect(detail.body.assignments[0].submission).toMatchObject({ risk: 'high', review_required: true });
    });

    it('the same city 10 minutes later is plausible: risk low, no travel signal, no hold', async () => {
      const { worker, taskId, id } = await photoTask(SHANGHAI);
      await report(worker, offset(SHANGHAI, 3000), 20).expect(200);
      t.clock.advanceMinutes(10);
      await submitPhotoAt(worker, id, SHANGHAI);
      const result = await resultOf(taskId);
      // The test photo names no camera (no_camera_metadata, low by itself); nothing about travel.
      const { risk, signals } = result.result.photos[0].verification;
      expect(risk).toBe('low');
      expect(signals.map((x: { code: string }) => x.code)).toEqual(['no_camera_metadata']);
      expect(result.result).toMatchObject({ risk: 'low', review_required: false, review_deadline_at: null });
      expect(await submittedEvent(taskId)).toMatchObject({ risk: 'low', review_required: false });
    });

    it('a worker with no earlier position is not flagged', async () => {
      const { worker, taskId, id } = await photoTask(BEIJING);
      await submitPhotoAt(worker, id, BEIJING);
      expect((await resultOf(taskId)).result).toMatchObject({ risk: 'low', review_required: false });
    });
  });

  describe('a human before any penalty', () => {
    async function heldSubmission() {
      const p = await photoTask(SHANGHAI);
      await report(p.worker, BEIJING).expect(200);
      t.clock.advanceMinutes(10);
      await submitPhotoAt(p.worker, p.id, SHANGHAI);
      return p;
    }

    it('a high-risk result is not auto-approved after 72 hours; at 14 days it is, with a note for the operators', async () => {
      const { worker, taskId, id } = await heldSubmission();
      const other = await photoTask(SHANGHAI);
      await submitPhotoAt(other.worker, other.id, SHANGHAI);
      const timers = t.app.get(TaskTimers);
      t.clock.advance(73 * HOUR);
      await timers.autoApprove();
      expect(await taskStatus(t, agent, taskId)).toBe('submitted');
      expect(await taskStatus(t, agent, other.taskId)).toBe('completed');
      expect(await workerBalance(t, worker.id)).toBe(0);

      t.clock.advance(13 * 24 * HOUR - 73 * HOUR - 1000 + 24 * HOUR - 60_000);
      await timers.autoApprove();
      expect(await taskStatus(t, agent, taskId)).toBe('submitted');
      t.clock.advance(2 * 60_000);
      expect(await timers.autoApprove()).toBeGreaterThanOrEqual(1);
      expect(await taskStatus(t, agent, taskId)).toBe('completed');
      expect(await workerBalance(t, worker.id)).toBe(4500);
      expect(await escrowOf(t, taskId)).toBe(0);
      const [row] = await t.db.query(`SELECT review_required, review_note FROM assignments WHERE id = $1`, [
        id,
      ]);
      expect(row.review_required).toBe(true);
      expect(row.review_note).toMatch(/nobody decided within 14 days/);
    });

    it('the agent may decide a held result at any time (reject: the budget comes back)', async () => {
      const { taskId } = await heldSubmission();
      const before = await agentBalance(t, agent.id);
      await feedback(t, agent, taskId, {
        accept_result: false,
        reason_code: 'wrong_location',
        feedback_text: 'Not taken here.',
        rating: undefined,
        quality_score: undefined,
      }).expect(200);
      expect(await taskStatus(t, agent, taskId)).not.toBe('submitted');
      expect(await agentBalance(t, agent.id)).toBe(before + 5000);
    });
  });
});
