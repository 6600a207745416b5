import sharp from 'sharp';
import { withExif } from '../../scripts/exif-photo';
import { Tokens } from '../../src/auth/tokens';
import { createAdmin, TestAdmin } from '../support/admins';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createUploadTestApp, offset, uploadProof, UploadTestApp } from '../support/photos';
import { accept, createTask, submit } from '../support/tasks';

const BEIJING = { latitude: 39.9042, longitude: 116.4074 };
const SHANGHAI = { latitude: 31.2304, longitude: 121.4737 };

/**
 * A worker asks a person to look again (POST /v1/worker/reviews, product-decisions §18) and the operators answer
 * (GET /v1/admin/worker-reviews, POST /v1/admin/worker-reviews/{id}/decision), through the HTTP API.
 */
describe('worker review requests', () => {
  let t: UploadTestApp;
  let agent: TestAgent;
  let admin: TestAdmin;
  beforeAll(async () => {
    t = await createUploadTestApp();
    agent = await createAgent(t, { balanceCents: 10_000_000 });
    admin = await createAdmin(t);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    admin.bearer = `Bearer ${(await t.app.get(Tokens).issuePair('admin', admin.id)).access_token}`;
  });

  async function photo(gps: { latitude: number; longitude: number }): Promise<Buffer> {
    const raw = Buffer.alloc(64 * 48 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(Math.random() * 256);
    const base = await sharp(raw, { raw: { width: 64, height: 48, channels: 3 } })
      .jpeg()
      .toBuffer();
    return withExif(base, { gps });
  }

  /** A worker with a confirmed fraud (impossible travel, confirmed by an operator who suspends and pauses). */
  async function fraud(): Promise<{ worker: TestWorker; reviewId: string; suspensionId: string }> {
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent, {
      location: { ...SHANGHAI, address: 'x' },
      task_type: 'photo',
    });
    const id = await accept(t, worker, taskId);
    await t.http
      .put('/v1/worker/availability')
      .set('Authorization', worker.bearer)
      .send({ online: false, ...BEIJING })
      .expect(200);
    t.clock.advanceMinutes(10);
    const url = (await uploadProof(t, worker, await photo(offset(SHANGHAI, 20))).expect(201)).body.url;
    await submit(t, worker, id, { result_data: { ok: true }, photo_urls: [url] }).expect(200);
    const res = await t.http
      .post(`/v1/admin/proof-reviews/${id}/decision`)
      .set('Authorization', admin.bearer)
      .send({ outcome: 'confirmed_fraud', suspend_worker: true, pause_withdrawals: true, note: 'confirmed' })
      .expect(200);
    return { worker, reviewId: id, suspensionId: res.body.decision.suspension_id };
  }

  const ask = (worker: TestWorker, body: Record<string, unknown>, base = '/v1') =>
    t.http.post(`${base}/worker/reviews`).set('Authorization', worker.bearer).send(body);

  it('a suspended worker reads their standing and asks for a review (201), on both surfaces', async () => {
    const { worker, reviewId, suspensionId } = await fraud();
    const standing = await t.http.get('/v1/worker/reviews').set('Authorization', worker.bearer).expect(200);
    expect(standing.body).toMatchObject({
      suspended: true,
      withdrawals_paused: true,
      suspensions: [{ suspension_id: suspensionId, suspended: true, withdrawals_paused: true }],
      fraud_holds: [{ review_id: reviewId, reversed_at: null }],
      requests: [],
    });
    const res = await ask(worker, {
      subject: 'fraud_hold',
      subject_id: reviewId,
      statement: 'I took the train.',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      subject: 'fraud_hold',
      subject_id: reviewId,
      statement: 'I took the train.',
      status: 'open',
      outcome: null,
    });
    const other = await ask(
      worker,
      { subject: 'suspension', subject_id: suspensionId, statement: 'Please look again.' },
      '/api/v1',
    );
    expect(other.status).toBe(201);
    const again = await ask(worker, { subject: 'fraud_hold', subject_id: reviewId, statement: 'Again.' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'review_already_open', review_id: res.body.review_id });
  });

  it('validation errors, and 404 for a subject that is not theirs', async () => {
    const { reviewId, suspensionId } = await fraud();
    const stranger = await createWorker(t);
    for (const body of [
      { subject: 'dispute', subject_id: reviewId, statement: 'x' },
      { subject: 'fraud_hold', subject_id: 'nope', statement: 'x' },
      { subject: 'fraud_hold', subject_id: reviewId, statement: '   ' },
      { subject: 'fraud_hold', subject_id: reviewId, statement: 'x'.repeat(2001) },
      { subject: 'fraud_hold', subject_id: reviewId },
    ]) {
      const res = await ask(stranger, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    for (const [subject, id] of [
      ['fraud_hold', reviewId],
      ['suspension', suspensionId],
    ]) {
      const res = await ask(stranger, { subject, subject_id: id, statement: 'Not mine.' });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await t.http.post('/v1/worker/reviews').set('Authorization', agent.key).send({})).status).toBe(
      403,
    );
  });

  it('reaches the operators; reversing the suspension lifts it and the withdrawal pause; answered once', async () => {
    const { worker, suspensionId } = await fraud();
    const asked = await ask(worker, {
      subject: 'suspension',
      subject_id: suspensionId,
      statement: 'Please.',
    }).expect(201);
    const list = await t.http
      .get('/v1/admin/worker-reviews?status=open&limit=100')
      .set('Authorization', admin.bearer)
      .expect(200);
    expect(
      list.body.items.find((i: { review_id: string }) => i.review_id === asked.body.review_id),
    ).toMatchObject({
      worker_id: worker.id,
      subject: 'suspension',
      subject_live: true,
    });
    expect((await t.http.get('/v1/admin/worker-reviews').set('Authorization', worker.bearer)).status).toBe(
      403,
    );
    const decide = (body: Record<string, unknown>) =>
      t.http
        .post(`/v1/admin/worker-reviews/${asked.body.review_id}/decision`)
        .set('Authorization', admin.bearer)
        .send(body);
    expect((await decide({ outcome: 'maybe', note: 'x' })).status).toBe(400);
    const res = await decide({ outcome: 'reversed', note: 'The trail had a stale report.' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'decided',
      outcome: 'reversed',
      operator_id: admin.id,
      subject_live: false,
    });
    expect((await decide({ outcome: 'upheld', note: 'again' })).status).toBe(409);

    const standing = await t.http.get('/v1/worker/reviews').set('Authorization', worker.bearer).expect(200);
    expect(standing.body).toMatchObject({ suspended: false, withdrawals_paused: false, suspensions: [] });
    await t.http
      .put('/v1/worker/availability')
      .set('Authorization', worker.bearer)
      .send({ online: true, ...SHANGHAI })
      .expect(200);
    // Off call again, so the next tests' tasks are not offered to this worker.
    await t.http
      .put('/v1/worker/availability')
      .set('Authorization', worker.bearer)
      .send({ online: false })
      .expect(200);
    const [told] = await t.db.query(
      `SELECT data FROM events WHERE worker_id = $1 AND name = 'worker.review_decided'`,
      [worker.id],
    );
    expect(told.data).toMatchObject({ outcome: 'reversed', note: 'The trail had a stale report.' });
    const [audit] = await t.db.query(`SELECT action, admin_id FROM operator_audit_log WHERE target_id = $1`, [
      asked.body.review_id,
    ]);
    expect(audit).toMatchObject({ action: 'worker_review.decided', admin_id: admin.id });
    // Nothing left to reverse: a new request about it is refused.
    const late = await ask(worker, { subject: 'suspension', subject_id: suspensionId, statement: 'More.' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('invalid_state');
  });

  it('reversing a fraud hold restores the reputation and lifts the suspension it started; upheld changes nothing', async () => {
    const { worker, reviewId } = await fraud();
    const rep = async () =>
      Number((await t.db.query(`SELECT reputation FROM workers WHERE id = $1`, [worker.id]))[0].reputation);
    const lowered = await rep();
    const first = await ask(worker, {
      subject: 'fraud_hold',
      subject_id: reviewId,
      statement: 'Train.',
    }).expect(201);
    await t.http
      .post(`/v1/admin/worker-reviews/${first.body.review_id}/decision`)
      .set('Authorization', admin.bearer)
      .send({ outcome: 'upheld', note: 'The photo is someone else’s.' })
      .expect(200);
    expect(await rep()).toBe(lowered);
    expect((await t.http.get('/v1/worker/reviews').set('Authorization', worker.bearer)).body.suspended).toBe(
      true,
    );

    const second = await ask(worker, {
      subject: 'fraud_hold',
      subject_id: reviewId,
      statement: 'Tickets.',
    }).expect(201);
    await t.http
      .post(`/v1/admin/worker-reviews/${second.body.review_id}/decision`)
      .set('Authorization', admin.bearer)
      .send({ outcome: 'reversed', note: 'The tickets check out.' })
      .expect(200);
    expect(await rep()).toBeCloseTo(lowered + 1, 1);
    const standing = await t.http.get('/v1/worker/reviews').set('Authorization', worker.bearer).expect(200);
    expect(standing.body).toMatchObject({ suspended: false, withdrawals_paused: false });
    expect(standing.body.fraud_holds[0].reversed_at).not.toBeNull();
    // The verdict on the assignment says so too; the rejection itself stands.
    const verdict = await t.http
      .get(`/v1/worker/assignments/${reviewId}`)
      .set('Authorization', worker.bearer)
      .expect(200);
    expect(verdict.body.review).toMatchObject({
      decision: 'rejected',
      proof_review: { outcome: 'confirmed_fraud', reversed_at: standing.body.fraud_holds[0].reversed_at },
    });
  });
});
