import { createAgent, type TestAgent } from '../support/actors';
import { agentBalance } from '../support/balances';
import {
  alipayPaidNotification,
  cashier,
  journalsOf,
  orderEventsOf,
  type PaymentRig,
  type ProviderName,
  sandboxTradeNo,
  startPaymentRig,
  wechatPaidNotification,
  createQrOrder,
} from '../support/payment-rig';
import {
  orderStatus,
  type SandboxNotificationRecord,
  waitForNotification,
  waitForOrder,
} from '../support/waiters';

/**
 * Provider notifications as the providers send them, delivered by the sandbox over HTTP to the app's callback
 * routes: duplicates credit once, and every forgery the sandbox can produce credits nothing and gets the provider's
 * failure answer, so the provider delivers again.
 */
jest.setTimeout(30000);

describe('provider notifications', () => {
  let rig: PaymentRig;
  beforeAll(async () => {
    rig = await startPaymentRig();
  });
  afterAll(() => rig.close());

  const order = (agent: TestAgent, provider: ProviderName, cents: number) =>
    createQrOrder(rig, agent, provider, cents);

  function fault(provider: ProviderName, body: Record<string, unknown>) {
    return rig.api(provider, 'POST', '/__sandbox/faults', { target: 'notification', ...body });
  }

  const completedEvents = async (orderId: string) =>
    (await orderEventsOf(rig.t, orderId)).filter((e) => e.name === 'payment.completed').length;

  describe.each(['alipay', 'wechat'] as const)('%s', (provider) => {
    it('the same notification delivered 8 times, 4 of them at once, credits once', async () => {
      const agent = await createAgent(rig.t);
      const o = await order(agent, provider, 2500);
      await fault(provider, { kind: 'duplicate', copies: 8, concurrent: 4, match: o.id });
      await cashier(o.qr, 'pay');
      const record = await waitForNotification(
        rig,
        provider,
        o.id,
        (r) => r.deliveries.length === 8 && r.deliveries.every((d) => d.acknowledged),
      );
      await waitForOrder(rig.t, o.id, 'completed');
      expect(record.deliveries.every((d) => d.acknowledged)).toBe(true);
      expect(await agentBalance(rig.t, agent.id)).toBe(2500);
      expect(await journalsOf(rig.t, o.id)).toHaveLength(1);
      expect(await completedEvents(o.id)).toBe(1);
    });

    const forgeries =
      provider === 'alipay'
        ? ['tampered_signature', 'wrong_amount', 'wrong_app']
        : ['tampered_signature', 'wrong_amount', 'wrong_app', 'stale_timestamp', 'signtest_probe'];

    it.each(forgeries)(
      '%s: credits nothing and gets the failure answer, every time it is sent',
      async (kind) => {
        const agent = await createAgent(rig.t);
        const o = await order(agent, provider, 1800);
        await fault(provider, { kind, match: o.id, all_attempts: true });
        await cashier(o.qr, 'pay');
        const record = await waitForNotification(rig, provider, o.id, (r) => r.deliveries.length >= 3);
        expect(record.deliveries.some((d) => d.acknowledged)).toBe(false);
        for (const d of record.deliveries.filter((x) => x.status !== null))
          expectFailureAnswer(provider, kind, d);
        expect(await orderStatus(rig.t, o.id)).toBe('pending');
        expect(await agentBalance(rig.t, agent.id)).toBe(0);
        expect(await journalsOf(rig.t, o.id)).toEqual([]);
        // The provider still says paid: asking it (as reconciliation does) settles the order once.
        await rig.t.http
          .get(`/v1/payment/query/${o.id}`)
          .query({ payment_method: provider })
          .set('Authorization', agent.key);
        expect(await orderStatus(rig.t, o.id)).toBe('completed');
        expect(await agentBalance(rig.t, agent.id)).toBe(1800);
      },
    );

    it('a forged first delivery is refused and the genuine redelivery credits once', async () => {
      const agent = await createAgent(rig.t);
      const o = await order(agent, provider, 1900);
      await fault(provider, { kind: 'wrong_amount', match: o.id, amount_delta_cents: -900 });
      await cashier(o.qr, 'pay');
      const record = await waitForNotification(rig, provider, o.id, (r) => r.state === 'acknowledged');
      expect(record.deliveries.map((d) => d.acknowledged)).toEqual([false, true]);
      await waitForOrder(rig.t, o.id, 'completed');
      expect(await agentBalance(rig.t, agent.id)).toBe(1900);
      expect(await completedEvents(o.id)).toBe(1);
    });
  });

  function expectFailureAnswer(
    provider: ProviderName,
    kind: string,
    d: SandboxNotificationRecord['deliveries'][0],
  ) {
    if (provider === 'alipay') {
      expect({ status: d.status, body: d.body }).toEqual({ status: 200, body: 'failure' });
      return;
    }
    const authFailure = ['tampered_signature', 'stale_timestamp', 'signtest_probe'].includes(kind);
    expect(d.status).toBe(authFailure ? 401 : 400);
    expect(JSON.parse(d.body)).toEqual({ code: 'FAIL', message: expect.any(String) });
  }

  it.each([
    ['/v1/payment/alipay/callback', 'alipay'],
    ['/api/webhooks/alipay', 'alipay'],
    ['/webhooks/alipay', 'alipay'],
    ['/api/webhooks/wechat', 'wechat'],
    ['/webhooks/wechat', 'wechat'],
  ])('POST %s without a valid signature answers the provider failure form', async (path, provider) => {
    const form = rig.t.http
      .post(path)
      .type('form')
      .send('app_id=1&out_trade_no=pay_x&trade_status=TRADE_SUCCESS&total_amount=1.00&sign=AAAA&trade_no=1');
    const res =
      provider === 'alipay' ? await form : await rig.t.http.post(path).send({ id: 'x', resource: {} });
    if (provider === 'alipay') {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toBe('failure');
    } else {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'FAIL', message: expect.any(String) });
    }
  });

  const tradeNo = (provider: ProviderName, orderId: string) => sandboxTradeNo(rig, provider, orderId);

  /** A genuine Alipay notification (signed with the sandbox's platform key), sent now unless dated. */
  const alipayNotification = (orderId: string, trade: string, amountYuan: string, notifyTime?: Date) =>
    alipayPaidNotification(rig, { orderId, tradeNo: trade, amountYuan, notifyTime }).body;

  /** A genuine WeChat Pay TRANSACTION.SUCCESS, signed now; the event created now unless dated. */
  const wechatNotification = (orderId: string, trade: string, cents: number, createTime?: Date) => {
    const n = wechatPaidNotification(rig, { orderId, tradeNo: trade, cents, createTime });
    return { body: n.body, headers: n.headers };
  };

  it.each([
    ['alipay', ['/v1/payment/alipay/callback', '/api/webhooks/alipay', '/webhooks/alipay']],
    ['wechat', ['/api/webhooks/wechat', '/webhooks/wechat']],
  ] as const)(
    '%s: every callback path accepts a genuine notification; together they credit once',
    async (provider, paths) => {
      const agent = await createAgent(rig.t);
      const o = await order(agent, provider, 2100);
      // The sandbox's own deliveries are all forged, so only the hand-delivered messages below are genuine.
      await fault(provider, { kind: 'tampered_signature', match: o.id, all_attempts: true });
      await cashier(o.qr, 'pay');
      await waitForNotification(rig, provider, o.id, (r) => r.deliveries.length >= 1);
      const trade = await tradeNo(provider, o.id);
      for (const path of paths) {
        if (provider === 'alipay') {
          const res = await rig.t.http
            .post(path)
            .type('form')
            .send(alipayNotification(o.id, trade, '21.00'));
          expect(res.text).toBe('success');
        } else {
          const n = wechatNotification(o.id, trade, 2100);
          const res = await rig.t.http
            .post(path)
            .set(n.headers)
            .set('content-type', 'application/json')
            .send(n.body);
          expect({ status: res.status, body: res.body }).toEqual({
            status: 200,
            body: { code: 'SUCCESS', message: expect.any(String) },
          });
        }
        expect(await orderStatus(rig.t, o.id)).toBe('completed');
        expect(await agentBalance(rig.t, agent.id)).toBe(2100);
      }
      expect(await journalsOf(rig.t, o.id)).toHaveLength(1);
      expect(await completedEvents(o.id)).toBe(1);
    },
  );

  it('a genuine notification about an unknown order or with another amount credits nothing', async () => {
    const agent = await createAgent(rig.t);
    const o = await order(agent, 'alipay', 2200);
    const unknown = await rig.t.http
      .post('/webhooks/alipay')
      .type('form')
      .send(alipayNotification('pay_unknown0001', 'T1', '22.00'));
    expect(unknown.text).toBe('failure');
    const wrong = await rig.t.http
      .post('/webhooks/alipay')
      .type('form')
      .send(alipayNotification(o.id, 'T2', '22.01'));
    expect(wrong.text).toBe('failure');
    expect(await orderStatus(rig.t, o.id)).toBe('pending');
    expect(await agentBalance(rig.t, agent.id)).toBe(0);
  });
  /**
   * Freshness: a notification dated well beyond the provider's own retry window (Alipay about 25 h, WeChat Pay about
   * 24 h) cannot be a delivery or a retry; it is a captured message replayed. Refused with the failure answer,
   * nothing changed. Inside the window (a retry a day later) it is still accepted.
   */
  describe('a notification older than the retry window', () => {
    const HOUR = 3_600_000;

    /** An order paid at the sandbox whose own notifications are all forged, so only hand-delivered ones count. */
    async function paidOrder(agent: TestAgent, provider: ProviderName, cents: number) {
      const o = await order(agent, provider, cents);
      await fault(provider, { kind: 'tampered_signature', match: o.id, all_attempts: true });
      await cashier(o.qr, 'pay');
      await waitForNotification(rig, provider, o.id, (r) => r.deliveries.length >= 1);
      return { ...o, trade: await tradeNo(provider, o.id) };
    }

    async function expectNothingChanged(agent: TestAgent, orderId: string) {
      expect(await orderStatus(rig.t, orderId)).toBe('pending');
      expect(await agentBalance(rig.t, agent.id)).toBe(0);
      expect(await journalsOf(rig.t, orderId)).toEqual([]);
      expect(await completedEvents(orderId)).toBe(0);
    }

    it.each([
      ['dated 2024', new Date('2024-03-01T08:00:00Z')],
      ['sent 49 hours ago', new Date(Date.now() - 49 * HOUR)],
    ])('alipay: a genuine notification %s is refused', async (_label, sent) => {
      const agent = await createAgent(rig.t);
      const o = await paidOrder(agent, 'alipay', 2600);
      const res = await rig.t.http
        .post('/webhooks/alipay')
        .type('form')
        .send(alipayNotification(o.id, o.trade, '26.00', sent));
      expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: 'failure' });
      await expectNothingChanged(agent, o.id);
    });

    it('alipay: a retry sent 30 hours after the payment is still accepted', async () => {
      const agent = await createAgent(rig.t);
      const o = await paidOrder(agent, 'alipay', 2700);
      const res = await rig.t.http
        .post('/webhooks/alipay')
        .type('form')
        .send(alipayNotification(o.id, o.trade, '27.00', new Date(Date.now() - 30 * HOUR)));
      expect(res.text).toBe('success');
      expect(await agentBalance(rig.t, agent.id)).toBe(2700);
    });

    it.each([
      ['created 2024', new Date('2024-03-01T08:00:00Z')],
      ['created 49 hours ago', new Date(Date.now() - 49 * HOUR)],
    ])('wechat: a genuine, freshly signed notification %s is refused', async (_label, created) => {
      const agent = await createAgent(rig.t);
      const o = await paidOrder(agent, 'wechat', 2800);
      const n = wechatNotification(o.id, o.trade, 2800, created);
      const res = await rig.t.http.post('/webhooks/wechat').set(n.headers).send(n.body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'FAIL', message: expect.stringMatching(/older than/) });
      await expectNothingChanged(agent, o.id);
    });

    it('wechat: an event created 30 hours ago (a late retry) is still accepted', async () => {
      const agent = await createAgent(rig.t);
      const o = await paidOrder(agent, 'wechat', 2900);
      const n = wechatNotification(o.id, o.trade, 2900, new Date(Date.now() - 30 * HOUR));
      const res = await rig.t.http.post('/webhooks/wechat').set(n.headers).send(n.body);
      expect(res.status).toBe(200);
      expect(await agentBalance(rig.t, agent.id)).toBe(2900);
    });
  });
});
