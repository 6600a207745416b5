import { createAgent, createWorker, type TestAgent } from '../support/actors';
import type { TestApp } from '../support/app';
import { createUploadTestApp, jpeg, spot, submitWithPhoto } from '../support/photos';
import { expectError } from '../support/errors';
import { accept, createTask } from '../support/tasks';

/**
 * JSON nested thousands of levels deep, sent without logging in or with a key: recursive code after the parser
 * (validation, the idempotency request hash) would overflow the stack. The body parser refuses a body nested more
 * than 32 levels with 400 invalid_body, and the multipart result_data (parsed by the service) gets the same limit,
 * so nothing changes and no answer is a 500.
 */
describe('deeply nested JSON', () => {
  let t: TestApp & { uploadDir: string };
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createUploadTestApp();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
  });
  afterAll(() => t.close());

  /** `{"a":{"a":...}}` nested `depth` levels: about 30 KB at 5,000 levels. */
  const deep = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
  const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  const taskCount = async () =>
    (await t.db.query(`SELECT count(*)::int AS n FROM tasks WHERE agent_id = $1`, [agent.id]))[0].n as number;

  const bodies = [
    ['objects', deep(5000)],
    ['arrays', deepArray(5000)],
  ] as const;

  it.each(bodies)('of %s on a public route is 400 invalid_body', async (_kind, body) => {
    const res = await t.http.post('/v1/agent/register').set('content-type', 'application/json').send(body);
    expectError(res, 400, 'invalid_body');
    expect(res.body.error.request_id).toEqual(expect.any(String));
  });

  it.each(bodies)(
    'of %s in a task creation with an Idempotency-Key is 400 and creates nothing',
    async (_kind, inner) => {
      const body = `{"title":"Deep","description":"x","extra":${inner}}`;
      for (const path of ['/v1/tasks/create', '/api/v1/tasks']) {
        const res = await t.http
          .post(path)
          .set('Authorization', agent.key)
          .set('Idempotency-Key', `deep-${Math.random()}`)
          .set('content-type', 'application/json')
          .send(body);
        expectError(res, 400, 'invalid_body');
      }
      expect(await taskCount()).toBe(0);
    },
  );

  it('as multipart result_data with a photo is 400 validation_error on result_data, nothing changed', async () => {
    const here = spot();
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent, { location: here });
    const id = await accept(t, worker, taskId);
    const res = await submitWithPhoto(t, worker, id, await jpeg({ gps: here }), {
      resultData: deep(5000),
    });
    expectError(res, 400, 'validation_error');
    expect(res.body.error.details).toEqual([{ field: 'result_data', message: expect.any(String) }]);
    const [a] = await t.db.query(`SELECT status, result_data FROM assignments WHERE id = $1`, [id]);
    expect(a).toEqual({ status: 'accepted', result_data: null });
  });

  it('a body nested 33 levels is refused, 32 levels is accepted', async () => {
    const here = spot();
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent, { location: here });
    const id = await accept(t, worker, taskId);
    // The body itself adds one level: result_data nested 31 levels is 32 in all, the most accepted.
    const send = (depth: number) =>
      t.http
        .post(`/v1/worker/assignments/${id}/submit`)
        .set('Authorization', worker.bearer)
        .set('content-type', 'application/json')
        .send(`{"result_data":${deep(depth)}}`);
    expectError(await send(32), 400, 'invalid_body');
    expect((await send(31)).status).toBe(200);
  });
});
