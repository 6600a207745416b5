import { createAgent, type TestAgent } from '../support/actors';
import { agentBalance } from '../support/balances';
import { expectError } from '../support/errors';
import {
  cashier,
  journalsOf,
  openAlipayUrl,
  orderEventsOf,
  type PaymentRig,
  referenceAuth,
  startPaymentRig,
} from '../support/payment-rig';
import { waitForNotification, waitForOrder } from '../support/waiters';

/**
 * Recharges on the machine-readable surface, end to end: the app creates the order at the provider sandbox, the
 * buyer pays the way each checkout works (opening the payment URL, scanning the QR code to the cashier page, or the
 * JSAPI call), the sandbox notifies the app over HTTP, and the balance is credited once.
 */
jest.setTimeout(30000);

describe('recharges', () => {
  let rig: PaymentRig;
  beforeAll(async () => {
    rig = await startPaymentRig();
  });
  afterAll(() => rig.close());

  async function create(agent: TestAgent, body: Record<string, unknown>, path = '/v1/payment/create') {
    return rig.t.http.post(path).set('Authorization', agent.key).send(body);
  }

  async function paid(agent: TestAgent, orderId: string, amount: number): Promise<void> {
    await waitForOrder(rig.t, orderId, 'completed');
    expect(await agentBalance(rig.t, agent.id)).toBe(amount);
    expect(await journalsOf(rig.t, orderId)).toEqual([{ kind: 'deposit', reference: `payment:${orderId}` }]);
  }

  describe('each provider and payment type ends completed with the balance credited', () => {
    it.each(['page', 'wap'] as const)(
      'alipay %s: the buyer opens the payment URL and pays on the cashier',
      async (type) => {
        const agent = await createAgent(rig.t);
        const res = await create(agent, { amount_cents: 1500, payment_method: 'alipay', payment_type: type });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          order_id: expect.stringMatching(/^pay_[0-9A-Za-z]{24}$/),
          amount_cents: 1500,
          status: 'pending',
          payment_method: 'alipay',
          payment_type: type,
          qr_code_url: null,
          jsapi_params: null,
        });
        expect(res.body.payment_url).toMatch(new RegExp(`^${rig.sandbox.alipayBaseUrl}/gateway.do\\?`));
        const cashierUrl = await openAlipayUrl(res.body.payment_url, rig.sandbox);
        await cashier(cashierUrl, 'pay');
        await paid(agent, res.body.order_id, 1500);
      },
    );

    it('alipay qr: the QR code opens the cashier', async () => {
      const agent = await createAgent(rig.t);
      const res = await create(agent, { amount_cents: 2000, payment_method: 'alipay', payment_type: 'qr' });
      expect(res.body.qr_code_url).toMatch(new RegExp(`^${rig.sandbox.alipayBaseUrl}/cashier/`));
      expect(res.body.payment_url).toBeNull();
      await cashier(res.body.qr_code_url, 'pay');
      await paid(agent, res.body.order_id, 2000);
    });

    it('wechat native and h5: the QR code or H5 URL opens the cashier', async () => {
      for (const [type, extra, field] of [
        ['native', {}, 'qr_code_url'],
        ['h5', { client_ip: '203.0.113.9' }, 'payment_url'],
      ] as const) {
        const agent = await createAgent(rig.t);
        const res = await create(agent, {
          amount_cents: 3000,
          payment_method: 'wechat',
          payment_type: type,
          ...extra,
        });
        expect(res.status).toBe(200);
        expect(res.body[field]).toMatch(new RegExp(`^${rig.sandbox.wechatBaseUrl}/cashier/`));
        await cashier(res.body[field], 'pay');
        await paid(agent, res.body.order_id, 3000);
      }
    });

    it('wechat jsapi: the app passes the signed parameters to wx.requestPayment', async () => {
      const agent = await createAgent(rig.t);
      const res = await create(agent, {
        amount_cents: 1200,
        payment_method: 'wechat',
        payment_type: 'jsapi',
        openid: 'o-sandbox-payer',
      });
      expect(res.body.jsapi_params).toMatchObject({
        signType: 'RSA',
        package: expect.stringMatching(/^prepay_id=/),
      });
      await rig.api('wechat', 'POST', '/__sandbox/jsapi/pay', res.body.jsapi_params);
      await paid(agent, res.body.order_id, 1200);
    });

    it('POST /v1/payment/recharge: an Alipay page payment from 100 cents', async () => {
      const agent = await createAgent(rig.t);
      const res = await create(agent, { amount_cents: 100 }, '/v1/payment/recharge');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ payment_method: 'alipay', payment_type: 'page', amount_cents: 100 });
      await cashier(await openAlipayUrl(res.body.payment_url, rig.sandbox), 'pay');
      await paid(agent, res.body.order_id, 100);
    });

    it('POST /v1/agent/payments/recharge: QR code for wechat and page payment for alipay by default', async () => {
      const agent = await createAgent(rig.t);
      const wx = await create(
        agent,
        { amount_cents: 1000, payment_method: 'wechat' },
        '/v1/agent/payments/recharge',
      );
      expect(wx.body).toMatchObject({ payment_type: 'native', qr_code_url: expect.any(String) });
      const ali = await create(
        agent,
        { amount_cents: 1000, payment_method: 'alipay' },
        '/v1/agent/payments/recharge',
      );
      expect(ali.body).toMatchObject({ payment_type: 'page', payment_url: expect.any(String) });
      await cashier(wx.body.qr_code_url, 'pay');
      await paid(agent, wx.body.order_id, 1000);
    });
  });

  describe('order status, events and transactions', () => {
    it('query asks the provider while the order is open, so a payment whose notifications never arrive completes', async () => {
      const agent = await createAgent(rig.t);
      const res = await create(agent, {
        amount_cents: 4000,
        payment_method: 'wechat',
        payment_type: 'native',
      });
      const orderId = res.body.order_id as string;
      const query = () =>
        rig.t.http
          .get(`/v1/payment/query/${orderId}`)
          .query({ payment_method: 'wechat' })
          .set('Authorization', agent.key);
      expect((await query()).body).toMatchObject({ status: 'pending', transaction_id: null, paid_at: null });
      await rig.api('wechat', 'POST', '/__sandbox/faults', {
        target: 'notification',
        kind: 'tampered_signature',
        match: orderId,
        all_attempts: true,
        count: 100,
      });
      await cashier(res.body.qr_code_url, 'pay');
      await waitForNotification(rig, 'wechat', orderId, (r) => r.deliveries.length >= 2);
      expect(await agentBalance(rig.t, agent.id)).toBe(0);
      const after = await query();
      expect(after.body).toMatchObject({
        status: 'completed',
        transaction_id: expect.any(String),
        refunded_cents: 0,
      });
      expect(await agentBalance(rig.t, agent.id)).toBe(4000);
      // Asking again changes nothing.
      await query();
      expect(await journalsOf(rig.t, orderId)).toHaveLength(1);
      await rig.api('wechat', 'DELETE', '/__sandbox/faults');
    });

    it('the wrong payment_method or another agent is 404 order_not_found', async () => {
      const [agent, other] = [await createAgent(rig.t), await createAgent(rig.t)];
      const res = await create(agent, { amount_cents: 1000, payment_method: 'alipay', payment_type: 'qr' });
      const path = `/v1/payment/query/${res.body.order_id}`;
      expectError(
        await rig.t.http.get(path).query({ payment_method: 'wechat' }).set('Authorization', agent.key),
        404,
        'order_not_found',
      );
      expectError(
        await rig.t.http.get(path).query({ payment_method: 'alipay' }).set('Authorization', other.key),
        404,
        'order_not_found',
      );
      expectError(
        await rig.t.http
          .get('/v1/payment/query/pay_nope')
          .query({ payment_method: 'alipay' })
          .set('Authorization', agent.key),
        404,
        'order_not_found',
      );
      expectError(await rig.t.http.get(path).set('Authorization', agent.key), 400, 'validation_error');
    });

    it('writes payment.created and payment.completed to the outbox with the order data', async () => {
      const agent = await createAgent(rig.t);
      const res = await create(agent, { amount_cents: 1100, payment_method: 'alipay', payment_type: 'qr' });
      await cashier(res.body.qr_code_url, 'pay');
      await waitForOrder(rig.t, res.body.order_id, 'completed');
      const events = await orderEventsOf(rig.t, res.body.order_id);
      expect(events.map((e) => e.name)).toEqual(['payment.created', 'payment.completed']);
      expect(events[1].data).toEqual({
        order_id: res.body.order_id,
        task_id: null,
        amount: 1100,
        currency: 'CNY',
        payment_method: 'alipay',
        status: 'completed',
        transaction_id: expect.any(String),
      });
    });

    it('a declined payment fails the order (payment.failed); transactions list it as failed, open ones as pending', async () => {
      const agent = await createAgent(rig.t);
      const declined = await create(agent, {
        amount_cents: 1300,
        payment_method: 'alipay',
        payment_type: 'qr',
      });
      const open = await create(agent, {
        amount_cents: 1400,
        payment_method: 'wechat',
        payment_type: 'native',
      });
      await cashier(declined.body.qr_code_url, 'decline');
      await waitForOrder(rig.t, declined.body.order_id, 'failed');
      expect((await orderEventsOf(rig.t, declined.body.order_id)).map((e) => e.name)).toEqual([
        'payment.created',
        'payment.failed',
      ]);
      const list = await rig.t.http.get('/api/v1/payment/transactions').set(referenceAuth(agent)).expect(200);
      expect(list.body.data).toEqual([
        expect.objectContaining({
          transaction_id: `txn_${open.body.order_id}`,
          order_id: open.body.order_id,
          type: 'deposit',
          direction: 'credit',
          amount: 1400,
          status: 'pending',
        }),
        expect.objectContaining({
          order_id: declined.body.order_id,
          type: 'deposit',
          amount: 1300,
          status: 'failed',
        }),
      ]);
      const pending = await rig.t.http
        .get('/api/v1/payment/transactions')
        .query({ status: 'pending' })
        .set(referenceAuth(agent));
      expect(pending.body.data.map((r: { order_id: string }) => r.order_id)).toEqual([open.body.order_id]);
      // The order row is a valid cursor.
      const next = await rig.t.http
        .get('/api/v1/payment/transactions')
        .query({ starting_after: `txn_${open.body.order_id}` })
        .set(referenceAuth(agent))
        .expect(200);
      expect(next.body.data.map((r: { order_id: string }) => r.order_id)).toEqual([declined.body.order_id]);
      await cashier(open.body.qr_code_url, 'pay');
      await waitForOrder(rig.t, open.body.order_id, 'completed');
      const done = await rig.t.http
        .get('/v1/agent/transactions')
        .set('Authorization', agent.bearer)
        .expect(200);
      expect(done.body.data[0]).toMatchObject({
        order_id: open.body.order_id,
        type: 'deposit',
        status: 'completed',
      });
      expect(done.body.total).toBe(2);
    });
  });

  it('an Idempotency-Key makes a repeated create return the same order instead of a second one', async () => {
    const agent = await createAgent(rig.t);
    const send = () =>
      rig.t.http
        .post('/v1/payment/create')
        .set('Authorization', agent.key)
        .set('Idempotency-Key', 'recharge-1')
        .send({ amount_cents: 1000, payment_method: 'wechat' });
    const [a, b] = [await send(), await send()];
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body.order_id).toBe(a.body.order_id);
    const rows: unknown[] = await rig.t.db.query(`SELECT 1 FROM payment_orders WHERE agent_id = $1`, [
      agent.id,
    ]);
    expect(rows).toHaveLength(1);
  });

  describe('validation', () => {
    it.each([
      [{ amount_cents: 999, payment_method: 'alipay' }, 'amount_cents'],
      [{ amount_cents: 5_000_001, payment_method: 'alipay' }, 'amount_cents'],
      [{ amount_cents: 1000, payment_method: 'card' }, 'payment_method'],
      [{ amount_cents: 1000, payment_method: 'alipay', payment_type: 'native' }, 'payment_type'],
      [{ amount_cents: 1000, payment_method: 'wechat', payment_type: 'page' }, 'payment_type'],
      [{ amount_cents: 1000, payment_method: 'wechat', payment_type: 'jsapi' }, 'openid'],
      [{ amount_cents: 1000, payment_method: 'wechat', payment_type: 'h5' }, 'client_ip'],
      [{ amount_cents: 1000, payment_method: 'wechat', payment_type: 'h5', client_ip: 'nope' }, 'client_ip'],
      [{ amount_cents: 1000, payment_method: 'alipay', extra: 1 }, 'extra'],
      [{ amount_cents: '1000', payment_method: 'alipay' }, 'amount_cents'],
    ])('%j is 400 validation_error on %s', async (body, field) => {
      const agent = await createAgent(rig.t);
      const res = await create(agent, body);
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('recharge: 100 cents is the minimum there', async () => {
      const agent = await createAgent(rig.t);
      expectError(await create(agent, { amount_cents: 99 }, '/v1/payment/recharge'), 400, 'validation_error');
    });
  });
});
