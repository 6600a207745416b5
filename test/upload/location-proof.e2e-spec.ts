import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import type { TestApp } from '../support/app';
import { createUploadTestApp, jpeg, offset, Point, spot, uploadProof } from '../support/photos';
import { expectError } from '../support/errors';
import { accept, createTask, submit } from '../support/tasks';

type Fix = { latitude: number; longitude: number; accuracy_m: number; captured_at: string };

/**
 * Location proof (product-decisions §11): the same check for a photo sent to submit-with-photo and one attached by
 * photo_urls; a device fix in place of EXIF GPS where the task allows it; what the agent is shown about each photo
 * (source, distance, accuracy, capture time against the assignment window, SHA-256 and reuse).
 */
describe('location proof', () => {
  let t: TestApp & { uploadDir: string };
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createUploadTestApp();
    agent = await createAgent(t, { balanceCents: 10_000_000 });
  });
  afterAll(() => t.close());

  async function assignment(over: Record<string, unknown> = {}) {
    const here = spot();
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent, { location: here, ...over });
    return { worker, taskId, id: await accept(t, worker, taskId), here };
  }

  const fix = (at: Point, accuracy: number, ageSeconds: number): Fix => ({
    ...at,
    accuracy_m: accuracy,
    captured_at: new Date(t.clock.now().getTime() - ageSeconds * 1000).toISOString(),
  });

  async function uploaded(worker: TestWorker, bytes: Buffer, name = 'photo.jpg'): Promise<string> {
    return (await uploadProof(t, worker, bytes, name).expect(201)).body.url as string;
  }

  function submitPhoto(worker: TestWorker, id: string, photo: Buffer, device?: Fix | string, prefix = '/v1') {
    const req = t.http
      .post(`${prefix}/worker/assignments/${id}/submit-with-photo`)
      .set('Authorization', worker.bearer)
      .field('result_data', JSON.stringify({ ok: true }));
    if (device !== undefined)
      req.field('device_location', typeof device === 'string' ? device : JSON.stringify(device));
    return req.attach('photo', photo, { filename: 'photo.jpg', contentType: 'image/jpeg' });
  }

  /** The assignment exactly as accepted: nothing was submitted. */
  async function expectUnchanged(id: string): Promise<void> {
    const [a] = await t.db.query(
      `SELECT status, result_data, photos, device_location, submitted_at FROM assignments WHERE id = $1`,
      [id],
    );
    expect(a).toEqual({
      status: 'accepted',
      result_data: null,
      photos: [],
      device_location: null,
      submitted_at: null,
    });
  }

  describe('photos attached by photo_urls are checked like submit-with-photo', () => {
    it('a photo 250 m away is refused with the same code and distance on both routes; nothing changes', async () => {
      const { worker, id, here } = await assignment({ task_type: 'photo' });
      const far = await jpeg({ gps: offset(here, 150, 200) });
      for (const prefix of ['/v1', '/api/v1']) {
        const res = await t.http
          .post(`${prefix}/worker/assignments/${id}/submit`)
          .set('Authorization', worker.bearer)
          .send({ result_data: { ok: true }, photo_urls: [await uploaded(worker, far)] });
        expectError(res, 400, 'photo_location_mismatch');
        expect(res.body.error).toMatchObject({
          distance_meters: 250,
          max_distance_meters: 100,
          location_source: 'exif',
        });
      }
      const direct = await submitPhoto(worker, id, far);
      expectError(direct, 400, 'photo_location_mismatch');
      expect(direct.body.error).toMatchObject({ distance_meters: 250, location_source: 'exif' });
      await expectUnchanged(id);
    });

    it('the issue’s case: a photo 1,067 km away on a photo task is refused', async () => {
      const { worker, id, here } = await assignment({ task_type: 'photo' });
      const url = await uploaded(worker, await jpeg({ gps: offset(here, 1_067_000) }));
      const res = await submit(t, worker, id, { result_data: { ok: true }, photo_urls: [url] });
      expectError(res, 400, 'photo_location_mismatch');
      // EXIF stores degrees, minutes and micro-seconds of arc: the position is exact to a metre or so.
      expect(Math.abs(res.body.error.distance_meters - 1_067_000)).toBeLessThanOrEqual(2);
      await expectUnchanged(id);
    });

    it('an image without EXIF GPS is refused (photo_gps); one bad photo among good ones refuses the submission', async () => {
      const { worker, id, here } = await assignment();
      const bare = await uploaded(worker, await jpeg({ takenAt: '2030:01:01 00:00:00' }));
      expectError(
        await submit(t, worker, id, { result_data: {}, photo_urls: [bare] }),
        400,
        'photo_gps_missing',
      );
      const near = await uploaded(worker, await jpeg({ gps: offset(here, 10) }));
      const far = await uploaded(worker, await jpeg({ gps: offset(here, 500) }));
      expectError(
        await submit(t, worker, id, { result_data: {}, photo_urls: [near, far] }),
        400,
        'photo_location_mismatch',
      );
      await expectUnchanged(id);
    });

    it('a photo task needs a checked photo: none, or only a PDF, is 400 photo_required; a PDF beside a photo is attached unchecked', async () => {
      const { worker, id, here, taskId } = await assignment({ task_type: 'photo' });
      expectError(await submit(t, worker, id, { result_data: { ok: true } }), 400, 'photo_required');
      const pdf = await uploaded(
        worker,
        Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
        'receipt.pdf',
      );
      expectError(
        await submit(t, worker, id, { result_data: { ok: true }, photo_urls: [pdf] }),
        400,
        'photo_required',
      );
      await expectUnchanged(id);

      const photo = await uploaded(worker, await jpeg({ gps: offset(here, 15) }));
      await submit(t, worker, id, { result_data: { ok: true }, photo_urls: [pdf, photo] }).expect(200);
      const result = await t.http
        .get(`/v1/tasks/${taskId}/result`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(result.body.result.photos).toEqual([
        { url: pdf, taken_at: null, distance_meters: null, field: null, verification: null },
        expect.objectContaining({ url: photo, distance_meters: 15, verification: expect.any(Object) }),
      ]);
    });
  });

  describe('photo_or_device_gps', () => {
    const deviceTask = { task_type: 'photo', requirements: { location_proof: 'photo_or_device_gps' } };

    it('a photo without EXIF GPS passes with a fresh 20 m-accurate device fix 40 m away, on both routes', async () => {
      const first = await assignment(deviceTask);
      const device = fix(offset(first.here, 40), 20, 30);
      const url = await uploaded(first.worker, await jpeg());
      await submit(t, first.worker, first.id, {
        result_data: { ok: true },
        photo_urls: [url],
        device_location: device,
      }).expect(200);
      const result = await t.http
        .get(`/v1/tasks/${first.taskId}/result`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(result.body.result.device_location).toEqual(device);
      expect(result.body.result.photos[0]).toEqual({
        url,
        taken_at: null,
        distance_meters: 40,
        field: null,
        verification: {
          location_source: 'device',
          distance_meters: 40,
          accuracy_m: 20,
          taken_at: device.captured_at,
          taken_during_assignment: true,
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          reused: false,
          earlier_submissions: 0,
          first_submitted_at: null,
          // A browser upload without camera make and model: a finding, but low risk alone (product-decisions §18).
          risk: 'low',
          signals: [expect.objectContaining({ code: 'no_camera_metadata' })],
        },
      });

      const second = await assignment(deviceTask);
      const ok = await submitPhoto(
        second.worker,
        second.id,
        await jpeg({ width: 80 }),
        fix(offset(second.here, 40), 20, 30),
      ).expect(200);
      expect(ok.body.photo).toMatchObject({
        distance_meters: 40,
        verification: { location_source: 'device', accuracy_m: 20, reused: false },
      });
    });

    it('a stale, inaccurate, distant or missing device fix is refused on both routes; nothing changes', async () => {
      const { worker, id, here } = await assignment(deviceTask);
      const bare = await jpeg();
      const url = await uploaded(worker, bare);
      const cases: [Fix | undefined, string, Record<string, unknown>][] = [
        [fix(offset(here, 40), 20, 360), 'device_location_stale', { age_seconds: 360, max_age_seconds: 300 }],
        [fix(offset(here, 40), 80, 30), 'device_location_inaccurate', { accuracy_m: 80, max_accuracy_m: 50 }],
        [
          fix(offset(here, 300), 20, 30),
          'photo_location_mismatch',
          { distance_meters: 300, max_distance_meters: 100, location_source: 'device' },
        ],
        [undefined, 'photo_gps_missing', {}],
      ];
      for (const [device, code, fields] of cases) {
        const viaUrls = await submit(t, worker, id, {
          result_data: {},
          photo_urls: [url],
          ...(device ? { device_location: device } : {}),
        });
        expectError(viaUrls, 400, code);
        expect(viaUrls.body.error).toMatchObject(fields);
        const viaFile = await submitPhoto(worker, id, bare, device);
        expectError(viaFile, 400, code);
        expect(viaFile.body.error).toMatchObject(fields);
      }
      await expectUnchanged(id);
    });

    it('EXIF GPS, when the photo has it, wins over the device fix', async () => {
      const { worker, id, here } = await assignment(deviceTask);
      const res = await submitPhoto(worker, id, await jpeg({ gps: offset(here, 400) }), fix(here, 5, 10));
      expectError(res, 400, 'photo_location_mismatch');
      expect(res.body.error).toMatchObject({ distance_meters: 400, location_source: 'exif' });
      await expectUnchanged(id);
    });

    it('a device fix dated in the future or malformed is a validation error', async () => {
      const { worker, id, here } = await assignment(deviceTask);
      const url = await uploaded(worker, await jpeg());
      const ahead = fix(here, 10, -600);
      const res = await submit(t, worker, id, { result_data: {}, photo_urls: [url], device_location: ahead });
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual([
        { field: 'device_location.captured_at', message: 'must not lie in the future' },
      ]);
      const bad = await submit(t, worker, id, {
        result_data: {},
        photo_urls: [url],
        device_location: { latitude: 91, longitude: here.longitude, accuracy_m: 0, captured_at: 'yesterday' },
      });
      expectError(bad, 400, 'validation_error');
      expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'device_location.accuracy_m',
        'device_location.captured_at',
        'device_location.latitude',
      ]);
      for (const text of ['not json', '[1]', JSON.stringify({ ...fix(here, 10, 5), altitude: 3 })]) {
        const form = await submitPhoto(worker, id, await jpeg(), text);
        expectError(form, 400, 'validation_error');
        expect(form.body.error.details[0].field).toMatch(/^device_location/);
      }
      await expectUnchanged(id);
    });
  });

  it('on a photo_gps task (the default) a device fix does not replace EXIF GPS', async () => {
    const { worker, id, here } = await assignment({ task_type: 'photo' });
    expectError(await submitPhoto(worker, id, await jpeg(), fix(here, 5, 10)), 400, 'photo_gps_missing');
    await expectUnchanged(id);
  });

  it('the same photo bytes in a later submission are flagged as reused, not refused', async () => {
    const first = await assignment({ task_type: 'photo' });
    const bytes = await jpeg({ gps: offset(first.here, 20), width: 96 });
    const one = await submitPhoto(first.worker, first.id, bytes).expect(200);
    expect(one.body.photo.verification).toMatchObject({ reused: false, earlier_submissions: 0 });

    // Another worker, another task at the same place, the same bytes (uploaded, then attached by URL).
    const workerB = await createWorker(t);
    const taskB = await createTask(t, agent, { location: first.here, task_type: 'photo' });
    const idB = await accept(t, workerB, taskB);
    const url = await uploaded(workerB, bytes);
    await submit(t, workerB, idB, { result_data: { ok: true }, photo_urls: [url] }).expect(200);
    const result = await t.http.get(`/v1/tasks/${taskB}/result`).set('Authorization', agent.key).expect(200);
    expect(result.body.submissions[0].photos[0].verification).toMatchObject({
      sha256: one.body.photo.verification.sha256,
      reused: true,
      earlier_submissions: 1,
      first_submitted_at: one.body.submitted_at,
    });
    const events = await t.http
      .get('/v1/agent/events?type=task.submitted')
      .set('Authorization', agent.key)
      .expect(200);
    const event = events.body.data.find((e: { task_id: string }) => e.task_id === taskB);
    expect(event.data.submissions[0].photos[0].verification.reused).toBe(true);
  });

  it('a capture time outside acceptance..submission is flagged; inside is marked; none is null', async () => {
    const { worker, id, here, taskId } = await assignment();
    const now = t.clock.now();
    const during = await uploaded(worker, await jpeg({ gps: offset(here, 5), gpsTime: now }));
    const before = await uploaded(
      worker,
      await jpeg({ gps: offset(here, 5), gpsTime: new Date(now.getTime() - 3 * 3_600_000) }),
    );
    const undated = await uploaded(worker, await jpeg({ gps: offset(here, 5) }));
    await submit(t, worker, id, { result_data: {}, photo_urls: [during, before, undated] }).expect(200);
    const result = await t.http.get(`/v1/tasks/${taskId}/result`).set('Authorization', agent.key).expect(200);
    expect(
      result.body.result.photos.map(
        (p: { verification: { taken_during_assignment: boolean | null } }) =>
          p.verification.taken_during_assignment,
      ),
    ).toEqual([true, false, null]);
  });

  it('requirements.location_proof is stored, shown to agent and worker, and validated', async () => {
    const here = spot();
    const taskId = await createTask(t, agent, {
      location: here,
      requirements: { location_proof: 'photo_or_device_gps' },
    });
    const detail = await t.http.get(`/api/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    expect(detail.body.requirements).toEqual({
      skills: [],
      min_reputation: null,
      location_proof: 'photo_or_device_gps',
    });
    const plain = await createTask(t, agent, { location: here });
    const plainDetail = await t.http.get(`/v1/tasks/${plain}`).set('Authorization', agent.key).expect(200);
    expect(plainDetail.body.requirements.location_proof).toBe('photo_gps');

    const worker = await createWorker(t);
    const available = await t.http
      .get(`/v1/worker/tasks/available?latitude=${here.latitude}&longitude=${here.longitude}`)
      .set('Authorization', worker.bearer)
      .expect(200);
    expect(
      Object.fromEntries(
        available.body.tasks.map((x: { task_id: string; location_proof: string }) => [
          x.task_id,
          x.location_proof,
        ]),
      ),
    ).toEqual({ [taskId]: 'photo_or_device_gps', [plain]: 'photo_gps' });

    const bad = await t.http
      .post('/v1/tasks/create')
      .set('Authorization', agent.key)
      .send({
        title: 'x',
        description: 'y',
        location: here,
        budget_cents: 1000,
        deadline_at: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
        task_type: 'photo',
        requirements: { location_proof: 'wifi' },
      });
    expectError(bad, 400, 'validation_error');
    expect(bad.body.error.details).toEqual([
      { field: 'requirements.location_proof', message: expect.any(String) },
    ]);
  });
});
