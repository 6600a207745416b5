import sharp from 'sharp';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import type { TestApp } from '../support/app';
import { createUploadTestApp, offset, PhotoOptions, scene, spot, uploadProof } from '../support/photos';
import { withExif } from '../../scripts/exif-photo';
import { accept, createTask, submit } from '../support/tasks';

const CAMERA = { make: 'Xiaomi', model: '2211133C' };

interface ShownPhoto {
  verification: { risk: string; signals: { code: string; detail: string; distance_meters?: number }[] };
}

/**
 * Proof integrity, photo side (product-decisions §18): every checked photo's verification carries risk and signals;
 * a near-duplicate of any earlier photo on the platform is reused_photo (another worker's: high, without naming the
 * other agent; the worker's own: medium); an editor's Software tag or EXIF times that disagree are exif_edited; a
 * clean photo is low with no signals; photos of typed-answer photo fields get their own.
 */
describe('proof integrity (photos)', () => {
  let t: TestApp & { uploadDir: string };
  let agentA: TestAgent;
  let agentB: TestAgent;
  beforeAll(async () => {
    t = await createUploadTestApp();
    agentA = await createAgent(t, { balanceCents: 10_000_000 });
    agentB = await createAgent(t, { balanceCents: 10_000_000 });
  });
  afterAll(() => t.close());

  async function assignment(agent: TestAgent, worker?: TestWorker, over: Record<string, unknown> = {}) {
    const here = (over.location as ReturnType<typeof spot> | undefined) ?? spot();
    const w = worker ?? (await createWorker(t));
    const taskId = await createTask(t, agent, { location: here, task_type: 'photo', ...over });
    return { worker: w, taskId, id: await accept(t, w, taskId), here };
  }

  async function upload(worker: TestWorker, bytes: Buffer): Promise<string> {
    return (await uploadProof(t, worker, bytes).expect(201)).body.url as string;
  }

  /** Submits `bytes` by photo_urls and returns the agent's view of the result (as JSON text too). */
  async function submitted(
    agent: TestAgent,
    a: { worker: TestWorker; id: string; taskId: string },
    bytes: Buffer,
  ): Promise<{ photo: ShownPhoto; text: string }> {
    const url = await upload(a.worker, bytes);
    await submit(t, a.worker, a.id, { result_data: { ok: true }, photo_urls: [url] }).expect(200);
    const res = await t.http.get(`/v1/tasks/${a.taskId}/result`).set('Authorization', agent.key).expect(200);
    return { photo: res.body.result.photos[0], text: JSON.stringify(res.body) };
  }

  /** The copy a cheat makes: half the size, re-encoded at quality 70, EXIF replaced by `opts`. */
  async function resizedCopy(original: Buffer, opts: PhotoOptions): Promise<Buffer> {
    const meta = await sharp(original).metadata();
    const copy = await sharp(original)
      .resize(Math.round(meta.width / 2))
      .jpeg({ quality: 70 })
      .toBuffer();
    return withExif(copy, opts);
  }

  it('a resized, re-encoded copy of another worker’s photo on another agent’s task is reused_photo, high, naming nothing of theirs', async () => {
    const first = await assignment(agentA);
    const original = await scene(101, { gps: offset(first.here, 20), camera: CAMERA });
    const firstUrl = await upload(first.worker, original);
    await submit(t, first.worker, first.id, { result_data: { ok: true }, photo_urls: [firstUrl] }).expect(
      200,
    );

    const cheat = await assignment(agentB);
    const copy = await resizedCopy(original, { gps: offset(cheat.here, 15), camera: CAMERA });
    const { photo, text } = await submitted(agentB, cheat, copy);
    expect(photo.verification).toMatchObject({
      reused: false, // not the same bytes
      risk: 'high',
      signals: [{ code: 'reused_photo', scope: 'other', detail: expect.stringContaining('another worker') }],
    });
    // Nothing of agent A, its task, its worker or its file reaches agent B.
    for (const secret of [
      agentA.id,
      first.taskId,
      first.id,
      first.worker.id,
      firstUrl,
      firstUrl.split('/').pop()!,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('the worker’s own earlier photo again (re-encoded) is reused_photo, own, medium', async () => {
    const first = await assignment(agentA);
    const original = await scene(202, { gps: offset(first.here, 10), camera: CAMERA });
    await submitted(agentA, first, original);
    // Next door, so the worker's own reuse is all there is to see (a far-away task would add impossible_travel).
    const again = await assignment(agentB, first.worker, { location: offset(first.here, 500) });
    const copy = await resizedCopy(original, { gps: offset(again.here, 10), camera: CAMERA });
    const { photo } = await submitted(agentB, again, copy);
    expect(photo.verification).toMatchObject({
      risk: 'medium',
      signals: [{ code: 'reused_photo', scope: 'own', detail: expect.stringContaining('this worker') }],
    });
  });

  it('an editor’s Software tag is exif_edited (medium), on submit-with-photo too', async () => {
    const a = await assignment(agentA);
    const edited = await scene(303, {
      gps: offset(a.here, 10),
      camera: CAMERA,
      software: 'Adobe Photoshop 25.0 (Windows)',
    });
    const res = await t.http
      .post(`/v1/worker/assignments/${a.id}/submit-with-photo`)
      .set('Authorization', a.worker.bearer)
      .field('result_data', JSON.stringify({ ok: true }))
      .attach('photo', edited, { filename: 'p.jpg', contentType: 'image/jpeg' })
      .expect(200);
    expect(res.body.photo.verification).toMatchObject({
      risk: 'medium',
      signals: [{ code: 'exif_edited', detail: expect.stringContaining('Adobe Photoshop') }],
    });
  });

  it('EXIF GPS time disagreeing with DateTimeOriginal is exif_edited', async () => {
    const a = await assignment(agentA);
    const now = t.clock.now();
    const local = new Date(now.getTime() + 8 * 3600_000)
      .toISOString()
      .slice(0, 19)
      .replace('T', ' ')
      .replace(/-/g, ':');
    const photo = await scene(404, {
      gps: offset(a.here, 10),
      camera: CAMERA,
      takenAt: local,
      offset: '+08:00',
      gpsTime: new Date(now.getTime() - 3 * 3600_000),
    });
    const { photo: shown } = await submitted(agentA, a, photo);
    expect(shown.verification.signals).toEqual([
      {
        code: 'exif_edited',
        detail: expect.stringContaining('180 minutes apart'),
      },
    ]);
    expect(shown.verification.risk).toBe('medium');
  });

  it('a clean photo is low with no signals; one without camera make and model is low with no_camera_metadata', async () => {
    const a = await assignment(agentA);
    const { photo } = await submitted(
      agentA,
      a,
      await scene(505, { gps: offset(a.here, 10), camera: CAMERA }),
    );
    expect(photo.verification).toMatchObject({ risk: 'low', signals: [], reused: false });

    const b = await assignment(agentA);
    const { photo: bare } = await submitted(agentA, b, await scene(606, { gps: offset(b.here, 10) }));
    expect(bare.verification).toMatchObject({ risk: 'low', signals: [{ code: 'no_camera_metadata' }] });
  });

  it('EXIF GPS over 1 km from the device fix is exif_device_disagree, high', async () => {
    const a = await assignment(agentA, undefined, {
      requirements: { location_proof: 'photo_or_device_gps' },
    });
    const url = await upload(a.worker, await scene(707, { gps: offset(a.here, 10), camera: CAMERA }));
    const device = { ...offset(a.here, 2000), accuracy_m: 20, captured_at: t.clock.now().toISOString() };
    const res = await submit(t, a.worker, a.id, {
      result_data: { ok: true },
      photo_urls: [url],
      device_location: device,
    });
    expect(res.status).toBe(200);
    const result = await t.http
      .get(`/v1/tasks/${a.taskId}/result`)
      .set('Authorization', agentA.key)
      .expect(200);
    const v = result.body.result.photos[0].verification;
    expect(v.risk).toBe('high');
    expect(v.signals).toEqual([expect.objectContaining({ code: 'exif_device_disagree' })]);
    expect(Math.abs(v.signals[0].distance_meters - 1990)).toBeLessThanOrEqual(3);
  });

  it('a typed answer’s photo field gets its own verification with signals', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        open: { type: 'boolean', title: 'Open?' },
        storefront: { type: 'string', title: 'Storefront', format: 'photo' },
      },
      required: ['open', 'storefront'],
    };
    const a = await assignment(agentA, undefined, { task_type: 'data_collection', answer_schema: schema });
    const edited = await upload(
      a.worker,
      await scene(808, { gps: offset(a.here, 10), camera: CAMERA, software: 'Snapseed 2.0' }),
    );
    await submit(t, a.worker, a.id, { result_data: { open: true, storefront: edited } }).expect(200);
    const res = await t.http.get(`/v1/tasks/${a.taskId}/result`).set('Authorization', agentA.key).expect(200);
    const photo = res.body.result.photos.find((p: { field: string | null }) => p.field === 'storefront');
    expect(photo.verification).toMatchObject({
      risk: 'medium',
      signals: [{ code: 'exif_edited', detail: expect.stringContaining('Snapseed') }],
    });
  });
});
