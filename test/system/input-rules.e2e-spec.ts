import { createAdmin } from '../support/admins';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { agentBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { jpeg } from '../support/photos';
import { accept, act, createTask, SURFACES, taskBody } from '../support/tasks';

/**
 * No input answers 500, and each refusal names its field (400 validation_error with details [{field, message}]).
 *
 * Product-decisions §16: null in an optional body field means the field is absent, except where the reference
 * marks the field nullable (then null keeps its documented meaning); a required field set to null is 400
 * validation_error naming it; no input answers 500. The three nulls that answered 500 are here by name; the
 * deterministic fuzz pass (test/fuzz/field-paths.e2e-spec.ts) sends null to every field path of every route.
 */
describe('input rules', () => {
  let t: TestApp;
  let agent: TestAgent;
  let worker: TestWorker;

  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
    agent = await createAgent(t, { balanceCents: 1_000_000 });
    worker = await createWorker(t);
  });
  afterAll(() => t.close());

  const availability = (body: Record<string, unknown>) =>
    t.http.put('/v1/worker/availability').set('Authorization', worker.bearer).send(body);

  it('null: availability latitude and longitude are no position (was 500)', async () => {
    await availability({ online: true, latitude: 31.2304, longitude: 121.4737 }).expect(200);
    const off = await availability({ online: false, latitude: null, longitude: null }).expect(200);
    // Absent, so the last position is kept, as when going offline without one.
    expect(off.body).toMatchObject({ online: false, latitude: 31.2304, longitude: 121.4737 });
    const on = await availability({ online: true, latitude: null, longitude: null });
    expectError(on, 400, 'validation_error');
    expect(on.body.error.details).toEqual([
      { field: 'latitude', message: 'a position is required to go online' },
    ]);
    const half = await availability({ online: true, latitude: 31.2, longitude: null });
    expectError(half, 400, 'validation_error');
    expect(half.body.error.details[0].field).toBe('longitude');
  });

  it.each(Object.values(SURFACES))(
    'null: task creation on $name: idempotency_key null is no key, so two creations are two tasks (was 500)',
    async (surface) => {
      const before = await agentBalance(t, agent.id);
      const create = () =>
        surface
          .create(t)
          .set('Authorization', agent.key)
          .send(taskBody(t, { idempotency_key: null }));
      const [a, b] = [await create(), await create()];
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.headers['idempotent-replayed']).toBeUndefined();
      expect(a.body.task_id).not.toBe(b.body.task_id);
      expect(await agentBalance(t, agent.id)).toBe(before - 2 * 5000);
    },
  );

  it('null: sandbox worker behavior null is the persona’s behaviour (was 500); behavior.photo null keeps its meaning', async () => {
    const create = (body: Record<string, unknown>) =>
      t.http
        .post('/v1/sandbox/workers')
        .set('Authorization', agent.key)
        .send({ location: { latitude: 31.2304, longitude: 121.4737 }, persona: 'slow', ...body });
    const asNull = await create({ behavior: null }).expect(201);
    const absent = await create({}).expect(201);
    expect(asNull.body.behavior).toEqual(absent.body.behavior);
    // Nested optional fields too; photo is nullable: null submits without a photo.
    const nested = await create({ behavior: { outcome: null, photo: null } }).expect(201);
    expect(nested.body.behavior).toEqual({ ...absent.body.behavior, photo: null });
  });

  it('null: PATCH with null in an optional field leaves it as it was; nullable fields keep their meaning', async () => {
    const admin = await createAdmin(t);
    const patchAgent = (body: Record<string, unknown>) =>
      t.http.patch(`/v1/admin/agents/${agent.id}`).set('Authorization', admin.bearer).send(body).expect(200);
    await patchAgent({ tier: 'verified', fee_bps: 800 });
    const same = await patchAgent({ tier: null, account_status: null });
    expect(same.body).toMatchObject({ tier: 'verified', account_status: 'active', fee_bps: 800 });
    // fee_bps is nullable: null returns the agent to the platform fee.
    expect((await patchAgent({ fee_bps: null })).body).toMatchObject({ tier: 'verified', fee_bps: null });

    const key = await t.http
      .patch(`/v1/agent/api-keys/${agent.keyId}`)
      .set('Authorization', agent.bearer)
      .send({ is_active: null, name: null, permissions: null })
      .expect(200);
    expect(key.body).toMatchObject({ name: 'Primary API Key', is_active: true });

    const profile = (body: Record<string, unknown>) =>
      t.http.patch('/v1/worker/profile').set('Authorization', worker.bearer).send(body).expect(200);
    await profile({ display_name: 'Li Wei', skills: ['photography'] });
    expect((await profile({ skills: null })).body).toMatchObject({
      display_name: 'Li Wei',
      skills: ['photography'],
    });
    // display_name is nullable: null clears it.
    expect((await profile({ display_name: null })).body).toMatchObject({
      display_name: null,
      skills: ['photography'],
    });
  });

  it('null: a required field set to null is 400 naming it, nested ones included; nothing is created', async () => {
    const before = await agentBalance(t, agent.id);
    for (const [over, field] of [
      [{ title: null }, 'title'],
      [{ location: null }, 'location'],
      [{ location: { latitude: null, longitude: 121.4 } }, 'location.latitude'],
      [{ requirements: { skills: [null] } }, 'requirements.skills'],
    ] as const) {
      const res = await SURFACES.v1.create(t).set('Authorization', agent.key).send(taskBody(t, over));
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual(
        expect.arrayContaining([{ field, message: expect.any(String) }]),
      );
    }
    expect(await agentBalance(t, agent.id)).toBe(before);
  });

  describe('values the database cannot take are refused by validation, naming the field', () => {
    it('text with a NUL character, anywhere in the body, free-form data included; nothing is created', async () => {
      const before = await agentBalance(t, agent.id);
      const res = await SURFACES.api
        .create(t)
        .set('Authorization', agent.key)
        .send(taskBody(t, { title: 'a\u0000b', metadata: { note: { inner: 'x\u0000' } } }));
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual([
        { field: 'title', message: 'must not contain the NUL character (\\u0000)' },
        { field: 'metadata.note.inner', message: 'must not contain the NUL character (\\u0000)' },
      ]);
      expect(await agentBalance(t, agent.id)).toBe(before);
    });

    it('a path parameter read as text with a NUL character', async () => {
      const admin = await createAdmin(t);
      const res = await t.http
        .post('/v1/admin/withdrawals/wd%00x/approve')
        .set('Authorization', admin.bearer);
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details[0].field).toBe('id');
    });

    it('a number too close to 0 for float arithmetic (5e-324), in a body or a query', async () => {
      const body = await availability({ online: true, latitude: 5e-324, longitude: 121.4 });
      expectError(body, 400, 'validation_error');
      expect(body.body.error.details).toEqual([
        { field: 'latitude', message: expect.stringMatching(/send 0$/) },
      ]);
      const query = await t.http
        .get('/v1/worker/tasks/available?latitude=31.2&longitude=-5e-324')
        .set('Authorization', worker.bearer);
      expectError(query, 400, 'validation_error');
      expect(query.body.error.details[0].field).toBe('longitude');
    });

    it.each([
      ['/v1/payment/refund', { order_id: 'pay_x', refund_amount_cents: 2 ** 63, refund_reason: 'other' }],
      ['/api/v1/payment/refund', { order_id: 'pay_x', amount: 2 ** 63, reason: 'other' }],
    ])('%s: an amount beyond any payment (2^63) is refused before any lookup', async (path, body) => {
      const req = t.http.post(path).set('Authorization', agent.key).set('X-API-Secret', agent.apiSecret);
      const res = await req.send(body);
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details[0].field).toMatch(/amount/);
    });
  });

  it('a form: a file sent in a text field is refused naming that field', async () => {
    const taskId = await createTask(t, agent);
    const assignment = await accept(t, worker, taskId);
    await act(t, worker, assignment, 'start').expect(200);
    const photo = await jpeg({ gps: { latitude: 31.2304, longitude: 121.4737 }, gpsTime: t.clock.now() });
    const res = await t.http
      .post(`/v1/worker/assignments/${assignment}/submit-with-photo`)
      .set('Authorization', worker.bearer)
      .attach('photo', photo, 'photo.jpg')
      .field('result_data', '{}')
      .attach('worker_notes', photo, 'notes.jpg');
    expectError(res, 400, 'validation_error');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['photo', 'worker_notes']);
  });
});
