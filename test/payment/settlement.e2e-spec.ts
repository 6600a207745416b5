import { findOrder } from '../../src/payment/payment.repository';
import { OrderSettlement } from '../../src/payment/services/order-settlement';
import { PaymentExpiry } from '../../src/payment/services/payment-expiry';
import { PaymentReconciliation } from '../../src/payment/services/payment-reconciliation';
import { createAgent, createWorker, type TestAgent } from '../support/actors';
import { createAdmin } from '../support/admins';
import { agentBalance, clearing } from '../support/balances';
import {
  cashier,
  journalsOf,
  openAlipayUrl,
  orderEventsOf,
  type PaymentRig,
  type ProviderName,
  startPaymentRig,
} from '../support/payment-rig';
import { accept, createTask, feedback, submit } from '../support/tasks';
import { orderStatus, waitFor, waitForNotification, waitForOrder } from '../support/waiters';

/**
 * Time and reconciliation: unpaid orders expire (closed at the provider first), lost notifications are made good by
 * asking the provider, and the ledger's provider clearing accounts agree with the sandbox's own record of the money
 * it moved.
 */
jest.setTimeout(40000);

describe('expiry, reconciliation and clearing', () => {
  let rig: PaymentRig;
  let expiry: PaymentExpiry;
  let reconciliation: PaymentReconciliation;
  beforeAll(async () => {
    rig = await startPaymentRig();
    expiry = rig.t.app.get(PaymentExpiry);
    reconciliation = rig.t.app.get(PaymentReconciliation);
  });
  afterAll(() => rig.close());

  const TYPE: Record<ProviderName, string> = { alipay: 'qr', wechat: 'native' };

  async function order(agent: TestAgent, provider: ProviderName, amount: number, type = TYPE[provider]) {
    const res = await rig.t.http
      .post('/v1/payment/create')
      .set('Authorization', agent.key)
      .send({ amount_cents: amount, payment_method: provider, payment_type: type });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return res.body as { order_id: string; qr_code_url: string; payment_url: string; expires_at: string };
  }

  /** Every delivery of this order's notifications is forged, as if they were lost: only asking the provider helps. */
  const loseNotifications = (provider: ProviderName, orderId: string) =>
    rig.api(provider, 'POST', '/__sandbox/faults', {
      target: 'notification',
      kind: 'tampered_signature',
      match: orderId,
      all_attempts: true,
    });

  describe('expiry', () => {
    it.each(['alipay', 'wechat'] as const)(
      '%s: an unpaid order expires after 15 minutes and is closed at the provider',
      async (provider) => {
        const agent = await createAgent(rig.t);
        const o = await order(agent, provider, 1000);
        expect(Date.parse(o.expires_at) - rig.t.clock.now().getTime()).toBeGreaterThan(14 * 60_000);
        await expiry.expireDue();
        expect(await orderStatus(rig.t, o.order_id)).toBe('pending');
        rig.t.clock.advance(15 * 60_000 + 1000);
        await expiry.expireDue();
        expect(await orderStatus(rig.t, o.order_id)).toBe('expired');
        expect((await orderEventsOf(rig.t, o.order_id)).map((e) => e.name)).toEqual([
          'payment.created',
          'payment.expired',
        ]);
        const atProvider = await rig.api<{ state: string }>(
          provider,
          'GET',
          `/__sandbox/orders/${o.order_id}`,
        );
        expect(atProvider.state).toBe('closed');
        // The buyer can no longer pay it.
        const late = await rig.apiRaw(provider, 'POST', `/__sandbox/orders/${o.order_id}/pay`, {});
        expect(late.status).toBe(409);
        expect(await agentBalance(rig.t, agent.id)).toBe(0);
      },
    );

    it('an Alipay page order the buyer never opened expires too (the provider never knew it)', async () => {
      const agent = await createAgent(rig.t);
      const o = await order(agent, 'alipay', 1000, 'page');
      rig.t.clock.advance(15 * 60_000 + 1000);
      await expiry.expireDue();
      expect(await orderStatus(rig.t, o.order_id)).toBe('expired');
    });

    it('an order paid at the provider before it could be closed is completed, not expired', async () => {
      const agent = await createAgent(rig.t);
      const o = await order(agent, 'wechat', 1700);
      await loseNotifications('wechat', o.order_id);
      await cashier(o.qr_code_url, 'pay');
      rig.t.clock.advance(15 * 60_000 + 1000);
      await expiry.expireDue();
      expect(await orderStatus(rig.t, o.order_id)).toBe('completed');
      expect(await agentBalance(rig.t, agent.id)).toBe(1700);
    });
  });

  describe('reconciliation', () => {
    it.each(['alipay', 'wechat'] as const)(
      '%s: a payment whose notifications are lost is completed once by reconcile()',
      async (provider) => {
        const agent = await createAgent(rig.t);
        const o = await order(agent, provider, 2300);
        await loseNotifications(provider, o.order_id);
        await cashier(o.qr_code_url, 'pay');
        await waitForNotification(rig, provider, o.order_id, (r) => r.deliveries.length >= 2);
        expect(await orderStatus(rig.t, o.order_id)).toBe('pending');
        // Younger than the default minimum age: left alone.
        await reconciliation.reconcile();
        expect(await orderStatus(rig.t, o.order_id)).toBe('pending');
        rig.t.clock.advance(61_000);
        const first = await reconciliation.reconcile();
        expect(first.orders).toBeGreaterThanOrEqual(1);
        expect(await orderStatus(rig.t, o.order_id)).toBe('completed');
        await Promise.all([reconciliation.reconcile(0), reconciliation.reconcile(0)]);
        expect(await agentBalance(rig.t, agent.id)).toBe(2300);
        expect(await journalsOf(rig.t, o.order_id)).toHaveLength(1);
      },
    );

    it('a paid report of another amount credits nothing, whichever path brings it', async () => {
      const agent = await createAgent(rig.t);
      const o = await order(agent, 'alipay', 2100);
      await loseNotifications('alipay', o.order_id);
      await cashier(o.qr_code_url, 'pay');
      await waitForNotification(rig, 'alipay', o.order_id, (r) => r.deliveries.length >= 2);
      // A query answer (the path of syncFromProvider and reconcile) and a direct report, both a cent off.
      const settlement = rig.t.app.get(OrderSettlement);
      const row = (await findOrder(rig.t.db, o.order_id))!;
      const forged = { orderId: o.order_id, providerTxnId: 'forged', paidAt: null, refunded: false };
      await settlement.apply(row, { ...forged, status: 'paid', amountCents: 2099 });
      expect(await settlement.complete(o.order_id, { ...forged, amountCents: 2101 })).toBe(false);
      expect(await orderStatus(rig.t, o.order_id)).toBe('pending');
      expect(await agentBalance(rig.t, agent.id)).toBe(0);
      // The provider's own answer, with the right amount, completes it once.
      await reconciliation.reconcile(0);
      expect(await orderStatus(rig.t, o.order_id)).toBe('completed');
      expect(await agentBalance(rig.t, agent.id)).toBe(2100);
      expect(await journalsOf(rig.t, o.order_id)).toHaveLength(1);
    });

    it('a WeChat payment that failed (WeChat sends no notification for it) is failed by reconcile()', async () => {
      const agent = await createAgent(rig.t);
      const o = await order(agent, 'wechat', 1000);
      await cashier(o.qr_code_url, 'pay', '4000000000009995');
      await reconciliation.reconcile(0);
      expect(await orderStatus(rig.t, o.order_id)).toBe('failed');
      expect((await orderEventsOf(rig.t, o.order_id)).map((e) => e.name)).toEqual([
        'payment.created',
        'payment.failed',
      ]);
    });
  });

  it('provider clearing accounts reconcile to the money the sandbox moved', async () => {
    // Money in on both providers (one with duplicated notifications), refunds, and a payout.
    const agent = await createAgent(rig.t, { balanceCents: 100_000 });
    const ali = await order(agent, 'alipay', 12_345, 'page');
    await cashier(await openAlipayUrl(ali.payment_url, rig.sandbox), 'pay');
    const wx = await order(agent, 'wechat', 23_456);
    await rig.api('wechat', 'POST', '/__sandbox/faults', {
      target: 'notification',
      kind: 'duplicate',
      copies: 4,
      concurrent: 2,
      match: wx.order_id,
    });
    await cashier(wx.qr_code_url, 'pay');
    await waitForOrder(rig.t, ali.order_id, 'completed');
    await waitForOrder(rig.t, wx.order_id, 'completed');
    const refund = (orderId: string, cents: number) =>
      rig.t.http
        .post('/v1/payment/refund')
        .set('Authorization', agent.key)
        .send({ order_id: orderId, refund_amount_cents: cents, refund_reason: 'other' })
        .expect(200);
    await refund(ali.order_id, 2345);
    const wxRefund = await refund(wx.order_id, 3456);
    await waitFor(async () => {
      const [r]: { status: string }[] = await rig.t.db.query(
        `SELECT status FROM payment_refunds WHERE id = $1`,
        [wxRefund.body.refund_id],
      );
      return r.status === 'completed' ? true : undefined;
    }, 'the WeChat refund to complete');

    const worker = await createWorker(rig.t);
    const taskId = await createTask(rig.t, agent, { budget_cents: 20_000 });
    const assignmentId = await accept(rig.t, worker, taskId);
    await submit(rig.t, worker, assignmentId).expect(200);
    await feedback(rig.t, agent, taskId, { accept_result: true }).expect(200);
    const w = await rig.t.http
      .post('/v1/payment/withdraw')
      .set('Authorization', worker.bearer)
      .send({ amount_cents: 15_000, alipay_account: '2088000000000042' })
      .expect(200);
    const admin = await createAdmin(rig.t);
    await rig.t.http
      .post(`/v1/admin/withdrawals/${w.body.withdrawal_id}/approve`)
      .set('Authorization', admin.bearer)
      .expect(200);

    // Everything this file did at either provider has settled: the books must agree to the cent.
    await reconciliation.reconcile(0);
    for (const provider of ['alipay', 'wechat'] as const) {
      const book = await rig.api<{
        paid_cents: number;
        refunded_cents: number;
        transferred_cents: number;
        net_cents: number;
      }>(provider, 'GET', '/__sandbox/ledger');
      expect(book.net_cents).toBe(book.paid_cents - book.refunded_cents - book.transferred_cents);
      // Clearing mirrors the provider from our side: money in is negative, refunds and payouts bring it back.
      expect(await clearing(rig.t, provider)).toBe(-book.net_cents);
      expect(book.paid_cents).toBeGreaterThan(0);
    }
    const alipayBook = await rig.api<{ transferred_cents: number }>('alipay', 'GET', '/__sandbox/ledger');
    expect(alipayBook.transferred_cents).toBe(15_000);
  });
});
