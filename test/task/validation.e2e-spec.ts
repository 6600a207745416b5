import { createAgent, createWorker, TestAgent } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { agentBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { accept, createTask, HOUR, SURFACES, taskBody } from '../support/tasks';

type Case = [name: string, field: string, change: (body: Record<string, unknown>, t: TestApp) => void];

const at = (t: TestApp, ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const loc = (b: Record<string, unknown>) => b.location as Record<string, unknown>;

/** Every creation rule: 400 validation_error naming the field, nothing created, nothing charged. */
const CREATE_CASES: Case[] = [
  ['title missing', 'title', (b) => delete b.title],
  ['title empty', 'title', (b) => (b.title = '')],
  ['title blank', 'title', (b) => (b.title = '   ')],
  ['title over 200 characters', 'title', (b) => (b.title = 'x'.repeat(201))],
  ['title not a string', 'title', (b) => (b.title = 42)],
  ['description missing', 'description', (b) => delete b.description],
  ['description empty', 'description', (b) => (b.description = '')],
  ['description blank', 'description', (b) => (b.description = ' \n ')],
  ['location missing', 'location', (b) => delete b.location],
  ['location not an object', 'location', (b) => (b.location = 'Shanghai')],
  ['latitude above 90', 'location.latitude', (b) => (loc(b).latitude = 90.0001)],
  ['latitude below -90', 'location.latitude', (b) => (loc(b).latitude = -91)],
  ['latitude as a string', 'location.latitude', (b) => (loc(b).latitude = '31.2')],
  ['longitude above 180', 'location.longitude', (b) => (loc(b).longitude = 180.5)],
  ['longitude below -180', 'location.longitude', (b) => (loc(b).longitude = -181)],
  ['longitude missing', 'location.longitude', (b) => delete loc(b).longitude],
  ['max_distance_meters 0', 'location.max_distance_meters', (b) => (loc(b).max_distance_meters = 0)],
  ['unknown field in location', 'location.altitude', (b) => (loc(b).altitude = 12)],
  ['budget missing', 'budget_cents', (b) => delete b.budget_cents],
  ['budget below 1000', 'budget_cents', (b) => (b.budget_cents = 999)],
  ['budget above 5,000,000', 'budget_cents', (b) => (b.budget_cents = 5_000_001)],
  ['budget not an integer', 'budget_cents', (b) => (b.budget_cents = 1500.5)],
  ['budget as a string', 'budget_cents', (b) => (b.budget_cents = '5000')],
  ['deadline missing', 'deadline_at', (b) => delete b.deadline_at],
  ['deadline not ISO 8601', 'deadline_at', (b) => (b.deadline_at = 'tomorrow')],
  ['deadline without offset', 'deadline_at', (b, t) => (b.deadline_at = at(t, 24 * HOUR).replace('Z', ''))],
  ['deadline in the past', 'deadline_at', (b, t) => (b.deadline_at = at(t, -60_000))],
  ['deadline now', 'deadline_at', (b, t) => (b.deadline_at = at(t, 0))],
  ['deadline over 365 days ahead', 'deadline_at', (b, t) => (b.deadline_at = at(t, 366 * 24 * HOUR))],
  ['task_type missing', 'task_type', (b) => delete b.task_type],
  ['task_type unknown', 'task_type', (b) => (b.task_type = 'video')],
  ['max_workers 0', 'max_workers', (b) => (b.max_workers = 0)],
  ['max_workers 11', 'max_workers', (b) => (b.max_workers = 11)],
  ['max_workers fractional', 'max_workers', (b) => (b.max_workers = 1.5)],
  ['requirements not an object', 'requirements', (b) => (b.requirements = ['photography'])],
  ['skills not an array', 'requirements.skills', (b) => (b.requirements = { skills: 'photography' })],
  ['skills not strings', 'requirements.skills', (b) => (b.requirements = { skills: ['photography', 7] })],
  [
    'min_reputation above 5',
    'requirements.min_reputation',
    (b) => (b.requirements = { min_reputation: 5.1 }),
  ],
  [
    'min_reputation below 0',
    'requirements.min_reputation',
    (b) => (b.requirements = { min_reputation: -0.5 }),
  ],
  [
    'unknown field in requirements',
    'requirements.languages',
    (b) => (b.requirements = { languages: ['zh'] }),
  ],
  ['metadata over 1 KB', 'metadata', (b) => (b.metadata = { note: 'x'.repeat(1020) })],
  ['metadata not an object', 'metadata', (b) => (b.metadata = [1, 2])],
  ['idempotency_key empty', 'idempotency_key', (b) => (b.idempotency_key = '')],
  ['idempotency_key over 255', 'idempotency_key', (b) => (b.idempotency_key = 'k'.repeat(256))],
  ['unknown top-level field', 'priority', (b) => (b.priority = 'high')],
];

describe('task validation', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
  });
  afterAll(() => t.close());

  async function taskCount(): Promise<number> {
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM tasks WHERE agent_id = $1`,
      [agent.id],
    );
    return n;
  }

  // The quote takes a creation body and refuses exactly what creation refuses.
  describe.each(['/v1/tasks/quote', '/api/v1/tasks/quote'])('quote on %s', (path) => {
    it.each(CREATE_CASES)('%s -> 400 on %s', async (_name, field, change) => {
      const body = taskBody(t, { location: { latitude: 31.2, longitude: 121.4 } });
      change(body, t);
      const res = await t.http.post(path).set('Authorization', agent.key).send(body);
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual(
        expect.arrayContaining([{ field, message: expect.any(String) }]),
      );
      expect(await taskCount()).toBe(0);
    });
  });

  describe.each(Object.values(SURFACES))('creation on $name', (surface) => {
    it.each(CREATE_CASES)('%s -> 400 on %s, nothing created or charged', async (_name, field, change) => {
      const body = taskBody(t, { location: { latitude: 31.2, longitude: 121.4 } });
      change(body, t);
      const res = await surface.create(t).set('Authorization', agent.key).send(body);
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual(
        expect.arrayContaining([{ field, message: expect.any(String) }]),
      );
      expect(await taskCount()).toBe(0);
      expect(await agentBalance(t, agent.id)).toBe(1_000_000);
    });

    it('the boundaries themselves are accepted (title 200, budget 1000 and 5,000,000, metadata 1 KB)', async () => {
      const rich = await createAgent(t, { balanceCents: 5_001_000 });
      const metadata = { note: 'x'.repeat(1024 - '{"note":""}'.length) };
      for (const over of [
        { title: 't'.repeat(200), budget_cents: 1000, metadata },
        { budget_cents: 5_000_000, max_workers: 1, requirements: { skills: [], min_reputation: 5 } },
      ]) {
        await surface.create(t).set('Authorization', rich.key).send(taskBody(t, over)).expect(201);
      }
      expect(await agentBalance(t, rich.id)).toBe(0);
      const ids: { id: string }[] = await t.db.query(`SELECT id FROM tasks WHERE agent_id = $1`, [rich.id]);
      for (const { id } of ids) await surface.cancel(t, id).set('Authorization', rich.key).expect(200);
    });
  });

  it('402 insufficient_balance with balance_cents and required_cents; nothing created', async () => {
    const poor = await createAgent(t, { balanceCents: 9000 });
    const res = await SURFACES.v1
      .create(t)
      .set('Authorization', poor.key)
      .send(taskBody(t, { max_workers: 2 }));
    expectError(res, 402, 'insufficient_balance');
    expect(res.body.error).toMatchObject({ balance_cents: 9000, required_cents: 10_000 });
    const rows: unknown[] = await t.db.query(`SELECT 1 FROM tasks WHERE agent_id = $1`, [poor.id]);
    expect(rows).toHaveLength(0);
    expect(await agentBalance(t, poor.id)).toBe(9000);
  });

  it('the fee follows the agent’s own rate when an operator set one (enterprise 8 %)', async () => {
    const enterprise = await createAgent(t, { balanceCents: 30_003 });
    await t.db.query(`UPDATE agents SET fee_bps = 800 WHERE id = $1`, [enterprise.id]);
    const res = await SURFACES.api
      .create(t)
      .set('Authorization', enterprise.key)
      .send(taskBody(t, { budget_cents: 10_001, max_workers: 3 }))
      .expect(201);
    // Per slot: fee = round_half_up(10001 * 0.08) = 800, payout 9201.
    expect(res.body.cost_breakdown).toEqual({
      worker_payout_cents: 27_603,
      platform_fee_cents: 2400,
      total_cents: 30_003,
    });
  });

  it('estimated_completion_at is created_at + the typical time for the type, capped by the deadline', async () => {
    const rich = await createAgent(t, { balanceCents: 10_000 });
    const far = await SURFACES.v1
      .create(t)
      .set('Authorization', rich.key)
      .send(taskBody(t, { task_type: 'photo' }))
      .expect(201);
    expect(Date.parse(far.body.estimated_completion_at) - Date.parse(far.body.created_at)).toBe(2 * HOUR);
    const soon = at(t, 30 * 60_000);
    const near = await SURFACES.v1
      .create(t)
      .set('Authorization', rich.key)
      .send(taskBody(t, { deadline_at: soon, task_type: 'data_collection' }))
      .expect(201);
    expect(near.body.estimated_completion_at).toBe(soon);
    for (const id of [far.body.task_id, near.body.task_id] as string[]) {
      await SURFACES.v1.cancel(t, id).set('Authorization', rich.key).expect(200);
    }
  });

  describe('feedback', () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['accept_result missing', 'accept_result', { accept_result: undefined }],
      ['accept_result not boolean', 'accept_result', { accept_result: 'yes' }],
      ['rating 0', 'rating', { rating: 0 }],
      ['rating 6', 'rating', { rating: 6 }],
      ['rating fractional', 'rating', { rating: 4.5 }],
      ['rating missing on acceptance', 'rating', { rating: undefined }],
      ['rating 0 on a rejection', 'rating', { accept_result: false, reason_code: 'other', rating: 0 }],
      ['quality_score above 5', 'quality_score', { quality_score: 5.5 }],
      ['quality_score below 0', 'quality_score', { quality_score: -1 }],
      ['quality_score two decimals', 'quality_score', { quality_score: 4.25 }],
      ['quality_score missing on acceptance', 'quality_score', { quality_score: undefined }],
      ['reason_code unknown', 'reason_code', { accept_result: false, reason_code: 'late' }],
      ['reason_code on an acceptance', 'reason_code', { reason_code: 'other' }],
      ['feedback_text over 500', 'feedback_text', { feedback_text: 'x'.repeat(501) }],
      ['assignment_id not a uuid', 'assignment_id', { assignment_id: 'abc' }],
      ['unknown field', 'tip_cents', { tip_cents: 100 }],
    ];
    it.each(cases)('%s -> 400 on %s, nothing reviewed', async (_n, field, over) => {
      const a = await createAgent(t, { balanceCents: 5000 });
      const w = await createWorker(t);
      const taskId = await createTask(t, a);
      const assignmentId = await accept(t, w, taskId);
      await t.http
        .post(`/v1/worker/assignments/${assignmentId}/submit`)
        .set('Authorization', w.bearer)
        .send({ result_data: { ok: true } })
        .expect(200);
      for (const surface of Object.values(SURFACES)) {
        const res = await t.http
          .post(`${surface.base}/${taskId}/feedback`)
          .set('Authorization', a.key)
          .send({ accept_result: true, rating: 5, quality_score: 4, ...over });
        expectError(res, 400, 'validation_error');
        expect(res.body.error.details).toEqual(
          expect.arrayContaining([{ field, message: expect.any(String) }]),
        );
      }
      const [{ status }]: { status: string }[] = await t.db.query(
        `SELECT status FROM assignments WHERE id = $1`,
        [assignmentId],
      );
      expect(status).toBe('submitted');
      await t.http
        .post(`/v1/tasks/${taskId}/feedback`)
        .set('Authorization', a.key)
        .send({ accept_result: false, reason_code: 'other', rating: 1, quality_score: 0 })
        .expect(200);
    });
  });

  describe('submission', () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['result_data missing', 'result_data', {}],
      ['result_data an array', 'result_data', { result_data: [1] }],
      ['result_data over 16 KB', 'result_data', { result_data: { blob: 'x'.repeat(16 * 1024) } }],
      ['worker_notes over 2000', 'worker_notes', { result_data: {}, worker_notes: 'x'.repeat(2001) }],
      [
        'more than 5 photos',
        'photo_urls',
        { result_data: {}, photo_urls: ['/a', '/b', '/c', '/d', '/e', '/f'] },
      ],
      ['photo url not a string', 'photo_urls', { result_data: {}, photo_urls: [12] }],
      ['unknown field', 'gps', { result_data: {}, gps: [1, 2] }],
    ];
    it.each(cases)('%s -> 400 on %s, nothing submitted', async (_n, field, body) => {
      const a = await createAgent(t, { balanceCents: 5000 });
      const w = await createWorker(t);
      const taskId = await createTask(t, a);
      const assignmentId = await accept(t, w, taskId);
      const res = await t.http
        .post(`/v1/worker/assignments/${assignmentId}/submit`)
        .set('Authorization', w.bearer)
        .send(body);
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual(
        expect.arrayContaining([{ field, message: expect.any(String) }]),
      );
      const [{ status }]: { status: string }[] = await t.db.query(
        `SELECT status FROM assignments WHERE id = $1`,
        [assignmentId],
      );
      expect(status).toBe('accepted');
      await SURFACES.v1.cancel(t, taskId).set('Authorization', a.key).expect(200);
    });
  });

  describe('query parameters', () => {
    const cases: [string, string, string][] = [
      ['/v1/worker/tasks/available?latitude=31.2', 'longitude', 'worker'],
      ['/v1/worker/tasks/available?longitude=121.4', 'latitude', 'worker'],
      ['/v1/worker/tasks/available?latitude=95&longitude=121', 'latitude', 'worker'],
      ['/v1/worker/tasks/available?latitude=31&longitude=-200', 'longitude', 'worker'],
      ['/v1/worker/tasks/available?max_distance_km=0', 'max_distance_km', 'worker'],
      ['/v1/worker/tasks/available?max_distance_km=51', 'max_distance_km', 'worker'],
      ['/v1/worker/tasks/available?sort_by=rating', 'sort_by', 'worker'],
      ['/v1/worker/tasks/available?min_payment_cents=0', 'min_payment_cents', 'worker'],
      ['/v1/worker/tasks/available?limit=101', 'limit', 'worker'],
      ['/v1/worker/tasks/available?limit=abc', 'limit', 'worker'],
      ['/v1/worker/tasks/my-tasks?status=approved', 'status', 'worker'],
      ['/v1/worker/tasks/my-tasks?limit=0', 'limit', 'worker'],
      ['/v1/worker/tasks/my-tasks?offset=-1', 'offset', 'worker'],
      ['/v1/tasks?limit=101', 'limit', 'agent'],
      ['/api/v1/tasks?limit=0', 'limit', 'agent'],
      ['/v1/tasks?status=done', 'status', 'agent'],
      ['/v1/tasks?starting_after=nope', 'starting_after', 'agent'],
      ['/v1/tasks?starting_after=00000000-0000-4000-8000-000000000000', 'starting_after', 'agent'],
      ['/v1/tasks/not-a-uuid', 'task_id', 'agent'],
      ['/api/v1/tasks/not-a-uuid/result', 'task_id', 'agent'],
    ];
    it.each(cases)('GET %s -> 400 on %s', async (path, field, who) => {
      const auth = who === 'agent' ? agent.key : (await createWorker(t)).bearer;
      const res = await t.http.get(path).set('Authorization', auth);
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual(
        expect.arrayContaining([{ field, message: expect.any(String) }]),
      );
    });
  });
});
