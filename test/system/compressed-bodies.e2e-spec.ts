import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createAgent, type TestAgent } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { expectError } from '../support/errors';

/**
 * Compressed bodies (Content-Encoding gzip, br, deflate) whose bytes do not inflate, on public routes, agent routes
 * and a provider callback: 400 invalid_body in the error envelope, nothing created. A genuine compressed body is
 * still read.
 */
describe('corrupt compressed bodies', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
  });
  afterAll(() => t.close());

  const taskCount = async () =>
    (await t.db.query(`SELECT count(*)::int AS n FROM tasks WHERE agent_id = $1`, [agent.id]))[0].n as number;

  // superagent would JSON-encode a Buffer sent as application/json: send the bytes as they are.
  const raw = (bytes: unknown) => bytes as string;
  const valid = JSON.stringify({ email: 'x@example.com', password: 'long enough password' });
  const corrupt: [string, Buffer][] = [
    ['gzip', Buffer.concat([gzipSync(valid).subarray(0, 10), Buffer.from('not deflate data at all')])],
    ['gzip', Buffer.from('plainly not gzip')],
    ['br', Buffer.from('plainly not brotli, just bytes')],
    ['br', brotliCompressSync(valid).subarray(0, 5)],
    ['deflate', Buffer.from('not zlib')],
  ];

  it.each(corrupt)(
    'Content-Encoding %s with bytes that do not inflate is 400 invalid_body',
    async (enc, bytes) => {
      for (const [path, auth] of [
        ['/v1/agent/register', null],
        ['/v1/agent/login', null],
        ['/v1/tasks/create', agent.key],
        ['/api/v1/tasks', agent.key],
      ] as const) {
        let req = t.http.post(path).set('content-type', 'application/json').set('content-encoding', enc);
        if (auth) req = req.set('Authorization', auth);
        const res = await req.serialize(raw).send(bytes);
        expectError(res, 400, 'invalid_body');
        expect(res.body.error.details).toBe('the body does not decompress with its Content-Encoding');
      }
      expect(await taskCount()).toBe(0);
    },
  );

  it('a corrupt gzip form body on a provider callback is 400 invalid_body', async () => {
    const res = await t.http
      .post('/webhooks/alipay')
      .set('content-type', 'application/x-www-form-urlencoded')
      .set('content-encoding', 'gzip')
      .serialize(raw)
      .send(Buffer.from('not gzip'));
    expectError(res, 400, 'invalid_body');
  });

  it('a genuine gzip body is still read', async () => {
    const res = await t.http
      .post('/v1/agent/login')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .serialize(raw)
      .send(gzipSync(valid));
    expectError(res, 401, 'invalid_credentials');
  });
});
