import { readdirSync } from 'node:fs';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import {
  createUploadTestApp,
  jpeg,
  offset,
  padded,
  png,
  spot,
  STORAGE_DRIVERS,
  submitWithPhoto,
  type UploadTestApp,
} from '../support/photos';
import { expectError } from '../support/errors';
import { accept, createTask, feedback } from '../support/tasks';

/** POST /v1/worker/assignments/{id}/submit-with-photo: the photo must prove presence at the task. */
describe.each(STORAGE_DRIVERS)('photo proof (%s storage)', (driver) => {
  let t: UploadTestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createUploadTestApp({}, { driver });
    agent = await createAgent(t, { balanceCents: 1_000_000 });
  });
  afterAll(() => t.close());

  async function assignment(): Promise<{
    worker: TestWorker;
    taskId: string;
    id: string;
    here: ReturnType<typeof spot>;
  }> {
    const here = spot();
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent, { location: here });
    return { worker, taskId, id: await accept(t, worker, taskId), here };
  }

  const fileCount = () => t.storedFiles();

  /** The assignment exactly as it was accepted, and no file or upload row left behind. */
  async function expectUnchanged(id: string, worker: TestWorker, files: number): Promise<void> {
    const [a] = await t.db.query(
      `SELECT status, result_data, worker_notes, photos, submitted_at FROM assignments WHERE id = $1`,
      [id],
    );
    expect(a).toEqual({
      status: 'accepted',
      result_data: null,
      worker_notes: null,
      photos: [],
      submitted_at: null,
    });
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM uploads WHERE worker_id = $1`, [
      worker.id,
    ]);
    expect(n).toBe(0);
    expect(await fileCount()).toBe(files);
    expect(readdirSync(t.stagingDir)).toEqual([]);
  }

  it('a JPEG taken 30 m from the task is accepted; the result lists it with its capture time', async () => {
    const { worker, taskId, id, here } = await assignment();
    const photo = await jpeg({ gps: offset(here, 30), takenAt: '2030:05:06 07:08:09' });
    const res = await submitWithPhoto(t, worker, id, photo, {
      resultData: JSON.stringify({ open: true }),
    }).expect(200);
    expect(res.body).toEqual({
      assignment_id: id,
      task_id: taskId,
      status: 'submitted',
      submitted_at: expect.any(String),
      photo: {
        url: expect.stringMatching(/\/uploads\/task-photos\/\d{4}-\d{2}-\d{2}\/[\w-]{24}\.jpg$/),
        taken_at: '2030-05-06T07:08:09.000Z',
        distance_meters: 30,
        verification: expect.objectContaining({ location_source: 'exif', distance_meters: 30 }),
      },
    });
    const served = await t.fetchFile(res.body.photo.url);
    expect(served.status).toBe(200);
    expect(served.contentType).toBe('image/jpeg');
    expect(Buffer.compare(served.body, photo)).toBe(0);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    const result = await t.http.get(`/v1/tasks/${taskId}/result`).set('Authorization', agent.key).expect(200);
    expect(result.body.result).toEqual({
      data: { open: true },
      photos: [{ ...res.body.photo, field: null }],
      worker_notes: null,
      device_location: null,
      // Taken in 2030 (outside the assignment) by no named camera: medium, not held (product-decisions §18).
      risk: 'medium',
      review_required: false,
      review_deadline_at: null,
    });
  });

  it('a photo taken 250 m away is refused with the distance; nothing changes', async () => {
    const { worker, id, here } = await assignment();
    const files = await fileCount();
    const res = await submitWithPhoto(t, worker, id, await jpeg({ gps: offset(here, 150, 200) }));
    expectError(res, 400, 'photo_location_mismatch');
    expect(res.body.error).toMatchObject({ distance_meters: 250, max_distance_meters: 100 });
    await expectUnchanged(id, worker, files);
  });

  it('a photo without GPS is refused; nothing changes', async () => {
    const { worker, id } = await assignment();
    const files = await fileCount();
    expectError(
      await submitWithPhoto(t, worker, id, await jpeg({ takenAt: '2030:01:01 00:00:00' })),
      400,
      'photo_gps_missing',
    );
    await expectUnchanged(id, worker, files);
  });

  it('a PNG named .jpg is judged as the PNG it is: with GPS nearby it is accepted, without GPS refused', async () => {
    const first = await assignment();
    const files = await fileCount();
    const bare = await submitWithPhoto(t, first.worker, first.id, await png(), {
      name: 'photo.jpg',
      contentType: 'image/jpeg',
    });
    expectError(bare, 400, 'photo_gps_missing');
    await expectUnchanged(first.id, first.worker, files);

    const located = await png({ gps: offset(first.here, 20) });
    const ok = await submitWithPhoto(t, first.worker, first.id, located, {
      name: 'photo.jpg',
      contentType: 'image/jpeg',
    }).expect(200);
    expect(ok.body.photo.url).toMatch(/\.png$/);
    expect(ok.body.photo.distance_meters).toBe(20);
    const [row] = await t.db.query(`SELECT content_type, category FROM uploads WHERE worker_id = $1`, [
      first.worker.id,
    ]);
    expect(row).toEqual({ content_type: 'image/png', category: 'task-photos' });
  });

  it('a text file named .jpg is 415, a PDF 415, a damaged JPEG 400 invalid_photo, 11 MB 413; nothing changes', async () => {
    const { worker, id, here } = await assignment();
    const files = await fileCount();
    const text = await submitWithPhoto(t, worker, id, Buffer.from('this is text, not a photo'), {
      name: 'photo.jpg',
    });
    expectError(text, 415, 'unsupported_media_type');
    expect(text.body.error.accepted_types).toEqual(['image/jpeg', 'image/png']);
    const pdf = await submitWithPhoto(t, worker, id, Buffer.from('%PDF-1.4\n%%EOF\n'), { name: 'photo.jpg' });
    expectError(pdf, 415, 'unsupported_media_type');
    expect(pdf.body.error.detected_type).toBe('application/pdf');
    const whole = await jpeg({ gps: here });
    expectError(
      await submitWithPhoto(t, worker, id, whole.subarray(0, whole.length - 50)),
      400,
      'invalid_photo',
    );
    const big = await submitWithPhoto(t, worker, id, padded(whole, 11 * 1024 * 1024));
    expectError(big, 413, 'payload_too_large');
    await expectUnchanged(id, worker, files);
  });

  it('form errors: photo and valid result_data are required; extra fields refused', async () => {
    const { worker, id, here } = await assignment();
    const files = await fileCount();
    const photo = await jpeg({ gps: here });
    const noPhoto = await submitWithPhoto(t, worker, id, null);
    expectError(noPhoto, 400, 'validation_error');
    expect(noPhoto.body.error.details[0].field).toBe('photo');
    for (const resultData of ['not json', '[1,2]', '"text"', JSON.stringify({ big: 'x'.repeat(17_000) })]) {
      const res = await submitWithPhoto(t, worker, id, photo, { resultData });
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details[0].field).toBe('result_data');
    }
    const noResult = await t.http
      .post(`/v1/worker/assignments/${id}/submit-with-photo`)
      .set('Authorization', worker.bearer)
      .attach('photo', photo, 'p.jpg');
    expectError(noResult, 400, 'validation_error');
    const extra = await submitWithPhoto(t, worker, id, photo).field('bonus', 'yes');
    expectError(extra, 400, 'validation_error');
    await expectUnchanged(id, worker, files);
  });

  it('another worker’s assignment is 404; a submitted one 409 and no file is kept', async () => {
    const { worker, id, here } = await assignment();
    const stranger = await createWorker(t);
    const photo = await jpeg({ gps: here });
    expectError(await submitWithPhoto(t, stranger, id, photo), 404, 'assignment_not_found');
    await submitWithPhoto(t, worker, id, photo).expect(200);
    const files = await fileCount();
    const again = await submitWithPhoto(t, worker, id, photo);
    expectError(again, 409, 'invalid_state');
    expect(again.body.error.current_status).toBe('submitted');
    expect(await fileCount()).toBe(files);
    expect(readdirSync(t.stagingDir)).toEqual([]);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM uploads WHERE worker_id = $1`, [
      worker.id,
    ]);
    expect(n).toBe(1);
  });
});
