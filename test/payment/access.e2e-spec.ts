import { HOST_RESOLVER, type HostResolver } from '../../src/events/url-safety/url-safety';
import { createAgent, createWorker } from '../support/actors';
import { createTestApp } from '../support/app';
import { liveTestEnv } from '../support/live-env';
import { createAdmin } from '../support/admins';
import { expectError } from '../support/errors';
import { type PaymentRig, referenceAuth, startPaymentRig } from '../support/payment-rig';

/**
 * Who may call which payment route, and the public information routes (providers, health with real probes).
 */
jest.setTimeout(30000);

describe('payment access and provider health', () => {
  let rig: PaymentRig;
  beforeAll(async () => {
    rig = await startPaymentRig();
  });
  afterAll(() => rig.close());

  type Call = [string, string, Record<string, unknown>?];
  const AGENT_ROUTES: Call[] = [
    ['POST', '/v1/payment/recharge', { amount_cents: 1000 }],
    ['POST', '/v1/payment/create', { amount_cents: 1000, payment_method: 'alipay' }],
    ['POST', '/v1/agent/payments/recharge', { amount_cents: 1000, payment_method: 'wechat' }],
    ['GET', '/v1/payment/query/pay_x?payment_method=alipay'],
    ['POST', '/v1/payment/refund', { order_id: 'pay_x', refund_amount_cents: 1, refund_reason: 'other' }],
    ['POST', '/api/v1/payment/create', {}],
    ['GET', '/api/v1/payment/query?order_id=pay_x'],
    ['POST', '/api/v1/payment/refund', {}],
  ];

  function call(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Record<string, unknown>,
  ) {
    const req = method === 'GET' ? rig.t.http.get(path) : rig.t.http.post(path).send(body ?? {});
    return req.set(headers);
  }

  it('agent payment routes: 401 without a credential, 403 for a worker or an operator', async () => {
    const worker = await createWorker(rig.t);
    const admin = await createAdmin(rig.t);
    for (const [method, path, body] of AGENT_ROUTES) {
      expectError(await call(method, path, {}, body), 401, 'authentication_required');
      expectError(
        await call(method, path, { Authorization: worker.bearer, 'X-API-Secret': 'x' }, body),
        403,
        'forbidden',
      );
      expectError(
        await call(method, path, { Authorization: admin.bearer, 'X-API-Secret': 'x' }, body),
        403,
        'forbidden',
      );
    }
  });

  it('withdraw is for workers: an agent or an operator gets 403', async () => {
    const agent = await createAgent(rig.t);
    const admin = await createAdmin(rig.t);
    const body = { amount_cents: 1000, alipay_account: '2088000000000001' };
    expectError(await rig.t.http.post('/v1/payment/withdraw').send(body), 401, 'authentication_required');
    expectError(
      await rig.t.http.post('/v1/payment/withdraw').set('Authorization', agent.key).send(body),
      403,
      'forbidden',
    );
    expectError(
      await rig.t.http.post('/v1/payment/withdraw').set('Authorization', agent.bearer).send(body),
      403,
      'forbidden',
    );
    expectError(
      await rig.t.http.post('/v1/payment/withdraw').set('Authorization', admin.bearer).send(body),
      403,
      'forbidden',
    );
  });

  it('API key permissions: writes need payment:write, reads payment:read', async () => {
    const reader = await createAgent(rig.t, { permissions: ['payment:read', 'task:read'] });
    const writer = await createAgent(rig.t, { permissions: ['payment:write'] });
    const create = await rig.t.http
      .post('/v1/payment/create')
      .set('Authorization', reader.key)
      .send({ amount_cents: 1000, payment_method: 'alipay' });
    expectError(create, 403, 'insufficient_permissions');
    expect(create.body.error.required_permission).toBe('payment:write');
    const refund = await rig.t.http.post('/api/v1/payment/refund').set(referenceAuth(reader)).send({});
    expectError(refund, 403, 'insufficient_permissions');
    const query = await rig.t.http
      .get('/api/v1/payment/query')
      .query({ order_id: 'pay_x' })
      .set(referenceAuth(writer));
    expectError(query, 403, 'insufficient_permissions');
    expect(query.body.error.required_permission).toBe('payment:read');
    // A login token (JWT) holds every permission.
    const ok = await rig.t.http
      .post('/v1/payment/create')
      .set('Authorization', reader.bearer)
      .send({ amount_cents: 1000, payment_method: 'wechat' });
    expect(ok.status).toBe(200);
  });

  it("another agent's order is 404 order_not_found on every route that names it", async () => {
    const owner = await createAgent(rig.t);
    const other = await createAgent(rig.t);
    const res = await rig.t.http
      .post('/v1/payment/create')
      .set('Authorization', owner.key)
      .send({ amount_cents: 1000, payment_method: 'wechat' });
    const id = res.body.order_id as string;
    const calls = [
      rig.t.http
        .get(`/v1/payment/query/${id}`)
        .query({ payment_method: 'wechat' })
        .set('Authorization', other.key),
      rig.t.http.get('/api/v1/payment/query').query({ order_id: id }).set(referenceAuth(other)),
      rig.t.http
        .post('/v1/payment/refund')
        .set('Authorization', other.key)
        .send({ order_id: id, refund_amount_cents: 1, refund_reason: 'other' }),
      rig.t.http
        .post('/api/v1/payment/refund')
        .set(referenceAuth(other))
        .send({ order_id: id, reason: 'other' }),
    ];
    for (const r of await Promise.all(calls)) expectError(r, 404, 'order_not_found');
  });

  it('operator payment routes refuse agents and workers', async () => {
    const agent = await createAgent(rig.t);
    const worker = await createWorker(rig.t);
    for (const auth of [agent.bearer, worker.bearer]) {
      expectError(
        await rig.t.http.get('/v1/admin/payments/health').set('Authorization', auth),
        403,
        'forbidden',
      );
      expectError(
        await rig.t.http
          .post('/v1/admin/payments/pay_x/confirm-bank-transfer')
          .set('Authorization', auth)
          .send({ bank_reference: 'x' }),
        403,
        'forbidden',
      );
    }
    const admin = await createAdmin(rig.t);
    const unknown = await rig.t.http
      .post('/v1/admin/payments/pay_unknown/confirm-bank-transfer')
      .set('Authorization', admin.bearer)
      .send({ bank_reference: 'x' });
    expectError(unknown, 404, 'order_not_found');
    const online = await rig.t.http
      .post('/v1/payment/create')
      .set('Authorization', agent.key)
      .send({ amount_cents: 1000, payment_method: 'wechat' });
    const wrongKind = await rig.t.http
      .post(`/v1/admin/payments/${online.body.order_id}/confirm-bank-transfer`)
      .set('Authorization', admin.bearer)
      .send({ bank_reference: 'x' });
    expectError(wrongKind, 409, 'invalid_state');
  });

  it('GET /v1/payment/providers is public: the enabled providers and the default', async () => {
    const res = await rig.t.http.get('/v1/payment/providers').expect(200);
    expect(res.body).toEqual({ providers: ['alipay', 'wechat'], default: 'alipay' });
  });

  it('health probes the providers for real: ok, then degraded when one fails (public view hides details)', async () => {
    const admin = await createAdmin(rig.t);
    const ok = await rig.t.http.get('/v1/payment/health').expect(200);
    expect(ok.body).toEqual({
      status: 'ok',
      providers: { alipay: { status: 'available' }, wechat: { status: 'available' } },
      available_providers: ['alipay', 'wechat'],
      total_providers: 2,
      available_count: 2,
      checked_at: expect.any(String),
    });
    await rig.api('alipay', 'POST', '/__sandbox/faults', {
      target: 'response',
      kind: 'server_error',
      status: 503,
      match: 'alipay.trade.query',
    });
    const ops = await rig.t.http
      .get('/v1/admin/payments/health')
      .set('Authorization', admin.bearer)
      .expect(200);
    expect(ops.body).toMatchObject({
      status: 'degraded',
      providers: {
        alipay: { status: 'unavailable', error: expect.any(String), latency_ms: expect.any(Number) },
        wechat: { status: 'available', latency_ms: expect.any(Number) },
      },
      available_providers: ['wechat'],
      total_providers: 2,
      available_count: 1,
    });
    // The public answer is cached for 15 s; after that it probes again.
    expect((await rig.t.http.get('/v1/payment/health')).body.status).toBe('ok');
    await rig.api('alipay', 'POST', '/__sandbox/faults', {
      target: 'response',
      kind: 'server_error',
      match: 'alipay.trade.query',
    });
    rig.t.clock.advance(16_000);
    const degraded = await rig.t.http.get('/v1/payment/health').expect(200);
    expect(degraded.body).toMatchObject({
      status: 'degraded',
      providers: { alipay: { status: 'unavailable', error: 'unreachable' }, wechat: { status: 'available' } },
      available_count: 1,
    });
  });

  it('a provider left out of PAYMENT_PROVIDERS is unavailable for payments', async () => {
    const only = await startPaymentRig({ PAYMENT_PROVIDERS: 'wechat' });
    try {
      const agent = await createAgent(only.t);
      const res = await only.t.http
        .post('/v1/payment/create')
        .set('Authorization', agent.key)
        .send({ amount_cents: 1000, payment_method: 'alipay' });
      expectError(res, 400, 'payment_method_unavailable');
      expect((await only.t.http.get('/v1/payment/providers')).body).toEqual({
        providers: ['wechat'],
        default: 'wechat',
      });
      const worker = await createWorker(only.t);
      const w = await only.t.http
        .post('/v1/payment/withdraw')
        .set('Authorization', worker.bearer)
        .send({ amount_cents: 1000, alipay_account: '2088000000000001' });
      expectError(w, 400, 'payment_method_unavailable');
      // Its notifications are refused in its own protocol, so it keeps them for when it is enabled: Alipay
      // redelivers on any body but `success`.
      const notice = await only.t.http
        .post('/webhooks/alipay')
        .type('form')
        .send({ notify_type: 'trade_status_sync', out_trade_no: 'pay_x' });
      expect({ status: notice.status, body: notice.text }).toEqual({ status: 200, body: 'failure' });
    } finally {
      await only.close();
    }
  });

  it('live mode: return_url must be https; callback_url follows the webhook address rules', async () => {
    const { DATABASE_URL: _unused, ...env } = liveTestEnv({ JOBS_IN_PROCESS: 'false' });
    // DNS for the test: no test depends on real name resolution.
    const dns: Record<string, string[]> = {
      'agent.example': ['93.184.216.34'],
      'internal.example': ['10.1.2.3'],
      'mixed.example': ['93.184.216.34', '10.0.0.1'],
    };
    const resolver: HostResolver = async (host) => {
      const found = dns[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
    };
    const live = await createTestApp(env, { overrides: [{ provide: HOST_RESOLVER, useValue: resolver }] });
    try {
      const agent = await createAgent(live);
      const body = {
        task_id: '7d6f5d0e-5a4b-4c3d-9e2f-1a0b9c8d7e6f',
        amount: 5000,
        currency: 'CNY',
        payment_method: 'alipay',
        return_url: 'https://agent.example/paid',
      };
      const post = (extra: Record<string, unknown>) =>
        live.http
          .post('/api/v1/payment/create')
          .set(referenceAuth(agent))
          .send({ ...body, ...extra });
      for (const [field, url] of [
        ['callback_url', 'http://agent.example/hook'],
        ['callback_url', 'https://127.0.0.1/hook'],
        ['callback_url', 'https://localhost/hook'],
        ['callback_url', 'https://[::ffff:127.0.0.1]/'],
        ['callback_url', 'https://[::1]/hook'],
        ['callback_url', 'https://10.0.0.1/hook'],
        ['callback_url', 'https://169.254.169.254/latest/meta-data'],
        ['callback_url', 'https://[64:ff9b::a00:1]/hook'],
        ['callback_url', 'https://internal.example/hook'],
        ['callback_url', 'https://mixed.example/hook'],
        ['callback_url', 'https://nowhere.example/hook'],
        ['callback_url', 'https://user:pass@agent.example/hook'],
        ['return_url', 'http://agent.example/paid'],
      ]) {
        const res = await post({ [field]: url });
        const refusedOn = res.status === 400 ? res.body.error.details?.[0]?.field : undefined;
        expect({ url, answer: `${res.status} ${res.body.error?.code} ${refusedOn}` }).toEqual({
          url,
          answer: `400 validation_error ${field}`,
        });
      }
      expect(await live.db.query(`SELECT id FROM payment_orders`)).toEqual([]);
      expectError(await post({ callback_url: 'https://agent.example/hook' }), 404, 'task_not_found');
    } finally {
      await live.close();
    }
  });
});
