import { Legwork, LegworkAPIError, type LastResponse } from './index';
import { Resource } from './resource';
import { envelope, json, serve } from './testing/local-server';

const client = (baseUrl: string) =>
  new Legwork({ apiKey: 'lw_test_x', baseUrl, retry: { initialDelayMs: 5, maxDelayMs: 50 } });

describe('the method table', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('every result carries lastResponse (status, request id, Idempotent-Replayed, key), invisible to JSON and equality', async () => {
    const s = await serve([
      json(201, { task_id: 't1' }, { 'x-request-id': 'req_9', 'idempotent-replayed': 'true' }),
      json(200, { task_id: 't1', status: 'pending' }, { 'x-request-id': 'req_10' }),
    ]);
    stop = s.close;
    const c = client(s.baseUrl);
    const created = await c.tasks.cancel('t1', { idempotencyKey: 'k-1' });
    expect(created.lastResponse).toEqual<LastResponse>({
      status: 201,
      requestId: 'req_9',
      idempotentReplayed: true,
      idempotencyKey: 'k-1',
      headers: expect.any(Headers) as Headers,
    });
    expect(created).toEqual({ task_id: 't1' });
    expect(JSON.stringify(created)).toBe('{"task_id":"t1"}');
    expect({ ...created }).toEqual({ task_id: 't1' });

    const read = await c.tasks.get('t1');
    expect(read.lastResponse).toMatchObject({
      status: 200,
      requestId: 'req_10',
      idempotentReplayed: false,
      idempotencyKey: undefined,
    });
  });

  it('a page carries its lastResponse; an answer without a body (204) is an empty object carrying it', async () => {
    const s = await serve([
      json(200, { data: [], has_more: false, next_cursor: null }, { 'x-request-id': 'req_p' }),
      (_req, res) => {
        res.writeHead(204, { 'x-request-id': 'req_d' });
        res.end();
      },
    ]);
    stop = s.close;
    const c = client(s.baseUrl);
    const page = await c.events.list({ limit: 2 });
    expect([page.data, page.lastResponse.requestId]).toEqual([[], 'req_p']);
    const removed = await c.webhooks.remove('w1');
    expect(removed).toEqual({});
    expect(removed.lastResponse).toMatchObject({ status: 204, requestId: 'req_d' });
    expect(removed.lastResponse.idempotencyKey).toBe(s.seen[1].headers['idempotency-key']);
  });

  it('puts the path id, the body or query and the options where the table says; writes get a key from the verb', async () => {
    const s = await serve([json(200, { ok: true })]);
    stop = s.close;
    const c = client(s.baseUrl);
    await c.tasks.review(
      't 1',
      { accept_result: false, reason_code: 'incomplete' },
      { idempotencyKey: 'rv' },
    );
    await c.payments.retrieve('o1', 'wechat');
    await c.sandbox.clocks.create();
    await c.tasks.cancel('t2', { idempotencyKey: 'cx' });
    await c.sandbox.workers.update('w1', { name: 'Li' });
    await c.webhooks.deliveries('h1', { status: 'failed' });
    const sent = s.seen.map((r) => [r.method, r.url, r.body, r.headers['idempotency-key'] ?? null]);
    expect(sent).toEqual([
      ['POST', '/v1/tasks/t%201/feedback', '{"accept_result":false,"reason_code":"incomplete"}', 'rv'],
      ['GET', '/v1/payment/query/o1?payment_method=wechat', '', null],
      ['POST', '/v1/sandbox/clocks', '{}', expect.stringMatching(/^[0-9a-f-]{36}$/)],
      ['POST', '/v1/tasks/t2/cancel', '', 'cx'],
      ['PATCH', '/v1/sandbox/workers/w1', '{"name":"Li"}', expect.stringMatching(/^[0-9a-f-]{36}$/)],
      ['GET', '/v1/agent/webhooks/h1/deliveries?status=failed', '', null],
    ]);
  });
});

describe('Legwork.register', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });
  const registered = { agent_id: 'a1', api_key: 'lw_test_new', api_secret: 'sec', access_token: 'jwt' };

  it('registers without a key and answers the API key, with no Authorization or Idempotency-Key sent', async () => {
    const s = await serve([json(201, registered, { 'x-request-id': 'req_r' })]);
    stop = s.close;
    const reg = await Legwork.register(
      { email: 'ops@example.com', password: 'a long one' },
      { baseUrl: s.baseUrl },
    );
    const key: string = reg.api_key;
    expect(key).toBe('lw_test_new');
    expect(reg.lastResponse).toMatchObject({ status: 201, requestId: 'req_r', idempotencyKey: undefined });
    const [req] = s.seen;
    expect([req.method, req.url, req.headers.authorization, req.headers['idempotency-key']]).toEqual([
      'POST',
      '/v1/agent/register',
      undefined,
      undefined,
    ]);
    expect(JSON.parse(req.body)).toEqual({ email: 'ops@example.com', password: 'a long one' });
  });

  it('is sent once by default (a lost answer must not become "email taken"); maxRetries opts in', async () => {
    const s = await serve([json(503, envelope('service_unavailable'), { 'retry-after': '0' })]);
    stop = s.close;
    const body = { email: 'ops@example.com', password: 'a long one' };
    await expect(Legwork.register(body, { baseUrl: s.baseUrl })).rejects.toBeInstanceOf(LegworkAPIError);
    expect(s.seen).toHaveLength(1);
    await expect(Legwork.register(body, { baseUrl: s.baseUrl, maxRetries: 1 })).rejects.toBeInstanceOf(
      LegworkAPIError,
    );
    expect(s.seen).toHaveLength(3);
  });
});

/**
 * Compiled by `npm run typecheck`, never run: the table's types come from the API's document, so what it does not
 * take fails to compile.
 */
export function typeChecks(c: Legwork) {
  // @ts-expect-error quote takes the creation body
  void c.tasks.quote();
  const location = { latitude: 0, longitude: 0 };
  const selfie = {
    title: 't',
    description: 'd',
    location,
    budget_cents: 1000,
    deadline_at: 'x',
    task_type: 'selfie',
  };
  // @ts-expect-error task_type is the API's enum
  void c.tasks.create(selfie);
  // @ts-expect-error cancel takes no body: its second argument is the options
  void c.tasks.cancel('t', { reason: 'x' });
  class Drifted extends Resource {
    // @ts-expect-error the operation takes a body, and the declaration must say so
    readonly create = this.method({ verb: 'POST', path: '/v1/tasks/create' });
    // @ts-expect-error no GET on this path
    readonly get = this.method({ verb: 'GET', path: '/v1/tasks/create' });
    // @ts-expect-error cancel takes no body
    readonly cancel = this.method({ verb: 'POST', path: '/v1/tasks/{task_id}/cancel', body: true });
  }
  return Drifted;
}
