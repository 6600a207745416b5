import { PaymentProviders } from '../../src/payment/providers/payment-providers';
import { PaymentReconciliation } from '../../src/payment/services/payment-reconciliation';
import { RefundSettlement } from '../../src/payment/services/refund-settlement';
import { createAgent, createWorker, type TestAgent } from '../support/actors';
import { createAdmin } from '../support/admins';
import { agentBalance } from '../support/balances';
import { expectError } from '../support/errors';
import {
  cashier,
  journalsOf,
  openAlipayUrl,
  orderEventsOf,
  type PaymentRig,
  type ProviderName,
  referenceAuth,
  startPaymentRig,
} from '../support/payment-rig';
import { accept, createTask, feedback, submit } from '../support/tasks';
import { waitFor, waitForOrder } from '../support/waiters';

/**
 * Refunds back to the payer: partial then full then refused, never more than the order (also when requested
 * concurrently), only from balance the agent still has, through the provider, with the ledger, the order and the
 * events agreeing at every step.
 */
jest.setTimeout(30000);

describe('refunds', () => {
  let rig: PaymentRig;
  beforeAll(async () => {
    rig = await startPaymentRig();
  });
  afterAll(() => rig.close());

  async function paidOrder(agent: TestAgent, provider: ProviderName, amount: number): Promise<string> {
    const res = await rig.t.http
      .post('/v1/payment/create')
      .set('Authorization', agent.key)
      .send({
        amount_cents: amount,
        payment_method: provider,
        payment_type: provider === 'alipay' ? 'qr' : 'native',
      });
    await cashier(res.body.qr_code_url, 'pay');
    await waitForOrder(rig.t, res.body.order_id, 'completed');
    return res.body.order_id as string;
  }

  const refundV1 = (agent: TestAgent, body: Record<string, unknown>) =>
    rig.t.http.post('/v1/payment/refund').set('Authorization', agent.key).send(body);
  const refundRef = (agent: TestAgent, body: Record<string, unknown>) =>
    rig.t.http.post('/api/v1/payment/refund').set(referenceAuth(agent)).send(body);

  it('reference surface: a partial then a full refund of a task payment, and a third is already_refunded', async () => {
    const agent = await createAgent(rig.t, { balanceCents: 5000 });
    const taskId = await createTask(rig.t, agent, { budget_cents: 5000 });
    const created = await rig.t.http.post('/api/v1/payment/create').set(referenceAuth(agent)).send({
      task_id: taskId,
      amount: 5000,
      currency: 'CNY',
      payment_method: 'alipay',
      return_url: 'https://agent.example/done',
    });
    expect(created.status).toBe(201);
    const orderId = created.body.order_id as string;
    await cashier(await openAlipayUrl(created.body.payment_url, rig.sandbox), 'pay');
    await waitForOrder(rig.t, orderId, 'completed');
    expect(await agentBalance(rig.t, agent.id)).toBe(5000);

    const partial = await refundRef(agent, { order_id: orderId, amount: 2000, reason: 'quality_issue' });
    expect(partial.status).toBe(200);
    expect(partial.body).toEqual({
      refund_id: expect.stringMatching(/^rfd_/),
      order_id: orderId,
      amount: 2000,
      currency: 'CNY',
      status: 'completed',
      refund_method: 'original',
      reason: 'quality_issue',
      reason_code: 'quality_issue',
      estimated_arrival: expect.any(String),
      created_at: expect.any(String),
    });
    expect(await agentBalance(rig.t, agent.id)).toBe(3000);
    const query = () =>
      rig.t.http.get('/api/v1/payment/query').query({ order_id: orderId }).set(referenceAuth(agent));
    expect((await query()).body).toMatchObject({ status: 'completed', refunded_amount: 2000 });

    const full = await refundRef(agent, { order_id: orderId, reason: 'The photos were of the wrong street' });
    expect(full.body).toMatchObject({ amount: 3000, status: 'completed', reason_code: 'other' });
    expect(await agentBalance(rig.t, agent.id)).toBe(0);
    expect((await query()).body).toMatchObject({ status: 'refunded', refunded_amount: 5000 });

    const third = await refundRef(agent, { order_id: orderId, amount: 1, reason: 'other' });
    expectError(third, 400, 'already_refunded');
    expect(third.body.error).toMatchObject({
      refund_id: full.body.refund_id,
      refunded_at: expect.any(String),
    });

    expect((await journalsOf(rig.t, orderId)).map((j) => j.kind)).toEqual([
      'deposit',
      'payer_refund',
      'payer_refund',
    ]);
    expect((await orderEventsOf(rig.t, orderId)).map((e) => e.name).sort()).toEqual(
      [
        'payment.created',
        'payment.completed',
        'refund.created',
        'refund.completed',
        'refund.created',
        'refund.completed',
      ].sort(),
    );
    const sandboxOrder = await rig.api<{ refunded_cents: number }>(
      'alipay',
      'GET',
      `/__sandbox/orders/${orderId}`,
    );
    expect(sandboxOrder.refunded_cents).toBe(5000);
  });

  it('concurrent refunds never exceed the order', async () => {
    const agent = await createAgent(rig.t);
    const orderId = await paidOrder(agent, 'alipay', 1000);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        refundV1(agent, { order_id: orderId, refund_amount_cents: 300, refund_reason: 'other' }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 400, 'validation_error');
    expect(await agentBalance(rig.t, agent.id)).toBe(100);
    const rest = await refundV1(agent, {
      order_id: orderId,
      refund_amount_cents: 100,
      refund_reason: 'other',
    });
    expect(rest.body).toMatchObject({ status: 'completed', order_refunded_cents: 1000 });
    expectError(
      await refundV1(agent, { order_id: orderId, refund_amount_cents: 1, refund_reason: 'other' }),
      400,
      'already_refunded',
    );
  });

  it('the available balance must cover the refund (402), and nothing is reserved then', async () => {
    const agent = await createAgent(rig.t);
    const orderId = await paidOrder(agent, 'wechat', 5000);
    await createTask(rig.t, agent, { budget_cents: 4000 });
    const res = await refundV1(agent, {
      order_id: orderId,
      refund_amount_cents: 2000,
      refund_reason: 'task_cancelled',
    });
    expectError(res, 402, 'insufficient_balance');
    expect(res.body.error).toMatchObject({ balance_cents: 1000, required_cents: 2000 });
    const q = await rig.t.http
      .get(`/v1/payment/query/${orderId}`)
      .query({ payment_method: 'wechat' })
      .set('Authorization', agent.key);
    expect(q.body).toMatchObject({ status: 'completed', refunded_cents: 0 });
    expect(await rig.t.db.query(`SELECT 1 FROM payment_refunds WHERE order_id = $1`, [orderId])).toEqual([]);
  });

  it('a refund keeps what open and still-disputable rejections could cost (product-decisions §19)', async () => {
    const t = rig.t;
    const agent = await createAgent(t);
    const orderId = await paidOrder(agent, 'wechat', 10_000);
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent, { budget_cents: 5000 });
    const assignmentId = await accept(t, worker, taskId);
    await submit(t, worker, assignmentId).expect(200);
    await feedback(t, agent, taskId, { accept_result: false, reason_code: 'incomplete' }).expect(200);
    expect(await agentBalance(t, agent.id)).toBe(10_000);

    // The rejection may be disputed for 72 hours: 5,000 of the balance stay.
    const refused = await refundV1(agent, {
      order_id: orderId,
      refund_amount_cents: 6000,
      refund_reason: 'unused',
    });
    expectError(refused, 402, 'insufficient_balance');
    expect(refused.body.error).toMatchObject({
      balance_cents: 10_000,
      required_cents: 11_000,
      reserved_cents: 5000,
    });
    expect(await rig.t.db.query(`SELECT 1 FROM payment_refunds WHERE order_id = $1`, [orderId])).toEqual([]);
    expect(await agentBalance(t, agent.id)).toBe(10_000);
    await refundV1(agent, { order_id: orderId, refund_amount_cents: 5000, refund_reason: 'unused' }).expect(
      200,
    );

    // Disputed, it still counts until decided; decided (upheld), the rest may be refunded.
    const opened = await t.http
      .post(`/v1/worker/assignments/${assignmentId}/dispute`)
      .set('Authorization', worker.bearer)
      .send({ statement: 'It was complete.' })
      .expect(201);
    const disputeId = opened.body.dispute_id as string;
    expectError(
      await refundV1(agent, { order_id: orderId, refund_amount_cents: 1000, refund_reason: 'unused' }),
      402,
      'insufficient_balance',
    );
    await t.http
      .post(`/v1/tasks/${taskId}/disputes/${disputeId}/response`)
      .set('Authorization', agent.key)
      .send({ statement: 'Two photos were asked for, one came.' })
      .expect(200);
    const admin = await createAdmin(t);
    await t.http
      .post(`/v1/admin/disputes/${disputeId}/decision`)
      .set('Authorization', admin.bearer)
      .send({ outcome: 'upheld' })
      .expect(200);
    await refundV1(agent, { order_id: orderId, refund_amount_cents: 5000, refund_reason: 'unused' }).expect(
      200,
    );
    expect(await agentBalance(t, agent.id)).toBe(0);
  });

  it('wechat: the refund is processing until the provider reports it (REFUND.SUCCESS)', async () => {
    const agent = await createAgent(rig.t);
    const orderId = await paidOrder(agent, 'wechat', 3000);
    const res = await refundV1(agent, {
      order_id: orderId,
      refund_amount_cents: 1200,
      refund_reason: 'task_failed',
      payment_method: 'wechat',
    });
    expect(res.body).toMatchObject({
      status: 'processing',
      refund_amount_cents: 1200,
      order_refunded_cents: 1200,
    });
    expect(await agentBalance(rig.t, agent.id)).toBe(1800);
    await waitFor(async () => {
      const [r]: { status: string }[] = await rig.t.db.query(
        `SELECT status FROM payment_refunds WHERE id = $1`,
        [res.body.refund_id],
      );
      return r.status === 'completed' ? true : undefined;
    }, 'the refund to complete');
    const names = (await orderEventsOf(rig.t, orderId)).map((e) => e.name);
    expect(names.filter((n) => n.startsWith('refund.'))).toEqual(['refund.created', 'refund.completed']);
    expect(await agentBalance(rig.t, agent.id)).toBe(1800);
  });

  it('a refund the provider refuses fails and its amount returns to the balance and the order', async () => {
    const agent = await createAgent(rig.t);
    const orderId = await paidOrder(agent, 'alipay', 2000);
    // Someone refunded the whole payment in the Alipay console: Alipay refuses any further refund.
    await rig.t.app.get(PaymentProviders).find('alipay')!.refund({
      orderId,
      refundId: 'console-refund-1',
      amountCents: 2000,
      orderAmountCents: 2000,
      reason: 'console',
    });
    const res = await refundV1(agent, {
      order_id: orderId,
      refund_amount_cents: 500,
      refund_reason: 'other',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringContaining('refused'),
      order_refunded_cents: 0,
    });
    expect(await agentBalance(rig.t, agent.id)).toBe(2000);
    expect((await journalsOf(rig.t, orderId)).map((j) => j.kind)).toEqual([
      'deposit',
      'payer_refund',
      'payer_refund_reversal',
    ]);
    expect((await orderEventsOf(rig.t, orderId)).map((e) => e.name)).toContain('refund.failed');
    // Failing it again (a late report) changes nothing.
    expect(await rig.t.app.get(RefundSettlement).fail(res.body.refund_id, 'again')).toBe(false);
    expect(await agentBalance(rig.t, agent.id)).toBe(2000);
  });

  it('a refund whose request got no answer stays processing and reconciliation sends it again', async () => {
    const agent = await createAgent(rig.t);
    const orderId = await paidOrder(agent, 'alipay', 2600);
    await rig.api('alipay', 'POST', '/__sandbox/faults', {
      target: 'response',
      kind: 'server_error',
      match: 'alipay.trade.refund',
    });
    const res = await refundV1(agent, {
      order_id: orderId,
      refund_amount_cents: 600,
      refund_reason: 'other',
    });
    expect(res.body).toMatchObject({ status: 'processing' });
    expect(await agentBalance(rig.t, agent.id)).toBe(2000);
    const result = await rig.t.app.get(PaymentReconciliation).reconcile(0);
    expect(result.refunds).toBe(1);
    const [r]: { status: string }[] = await rig.t.db.query(
      `SELECT status FROM payment_refunds WHERE id = $1`,
      [res.body.refund_id],
    );
    expect(r.status).toBe('completed');
    expect(await agentBalance(rig.t, agent.id)).toBe(2000);
    expect(
      (await rig.api<{ refunded_cents: number }>('alipay', 'GET', `/__sandbox/orders/${orderId}`))
        .refunded_cents,
    ).toBe(600);
  });

  it('with an Idempotency-Key, on both surfaces: the answer commits with the refund before the provider is asked', async () => {
    for (const reference of [false, true]) {
      const agent = await createAgent(rig.t);
      const orderId = await paidOrder(agent, 'alipay', 3000);
      const key = `refund-${orderId}`;
      // The provider answers after a second: the request is between its commit and its final answer meanwhile.
      await rig.api('alipay', 'POST', '/__sandbox/faults', {
        target: 'response',
        kind: 'timeout',
        delay_ms: 1000,
        match: 'alipay.trade.refund',
      });
      const send = () =>
        (reference
          ? refundRef(agent, { order_id: orderId, amount: 1000, reason: 'other' })
          : refundV1(agent, { order_id: orderId, refund_amount_cents: 1000, refund_reason: 'other' })
        ).set('Idempotency-Key', key);
      const pending = send().then((r) => r);
      const stored = await waitFor(async () => {
        const rows: { status_code: number | null; response: { status: string; refund_id: string } }[] =
          await rig.t.db.query(
            `SELECT status_code, response FROM idempotency_keys WHERE agent_id = $1 AND key = $2`,
            [agent.id, key],
          );
        return rows[0]?.status_code ? rows[0] : undefined;
      }, 'the answer stored with the refund');
      expect(stored).toMatchObject({ status_code: 200, response: { status: 'processing' } });
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ refund_id: stored.response.refund_id, status: 'completed' });
      // A repeat replays the answer given (the final one), and refunds nothing more.
      const again = await send();
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(res.body);
      expect(await agentBalance(rig.t, agent.id)).toBe(2000);
      expect((await journalsOf(rig.t, orderId)).map((j) => j.kind)).toEqual(['deposit', 'payer_refund']);
    }
  });

  describe('refused refunds', () => {
    it('refund_method balance is refund_not_allowed; so is a refund of an unpaid order', async () => {
      const agent = await createAgent(rig.t);
      const orderId = await paidOrder(agent, 'alipay', 1000);
      const bal = await refundRef(agent, { order_id: orderId, reason: 'other', refund_method: 'balance' });
      expectError(bal, 400, 'refund_not_allowed');
      const open = await rig.t.http
        .post('/v1/payment/create')
        .set('Authorization', agent.key)
        .send({ amount_cents: 1000, payment_method: 'wechat' });
      const res = await refundV1(agent, {
        order_id: open.body.order_id,
        refund_amount_cents: 100,
        refund_reason: 'other',
      });
      expectError(res, 400, 'refund_not_allowed');
    });

    it('more than is left, a mismatched payment_method and bad bodies are validation errors', async () => {
      const agent = await createAgent(rig.t);
      const orderId = await paidOrder(agent, 'alipay', 1000);
      const cases: [Record<string, unknown>, string][] = [
        [{ order_id: orderId, refund_amount_cents: 1001, refund_reason: 'other' }, 'refund_amount_cents'],
        [
          { order_id: orderId, refund_amount_cents: 10, refund_reason: 'other', payment_method: 'wechat' },
          'payment_method',
        ],
        [{ order_id: orderId, refund_amount_cents: 10 }, 'refund_reason'],
        [{ order_id: orderId, refund_amount_cents: 10, refund_reason: ' ' }, 'refund_reason'],
        [{ order_id: orderId, refund_amount_cents: 10, refund_reason: 'x'.repeat(501) }, 'refund_reason'],
        [{ order_id: orderId, refund_amount_cents: 0, refund_reason: 'other' }, 'refund_amount_cents'],
      ];
      for (const [body, field] of cases) {
        const res = await refundV1(agent, body);
        expectError(res, 400, 'validation_error');
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      }
      expectError(
        await refundRef(agent, { order_id: orderId, amount: 1001, reason: 'other' }),
        400,
        'validation_error',
      );
    });

    it("an unknown order or another agent's order is 404 order_not_found", async () => {
      const [agent, other] = [await createAgent(rig.t), await createAgent(rig.t, { balanceCents: 10000 })];
      const orderId = await paidOrder(agent, 'alipay', 1000);
      expectError(
        await refundV1(other, { order_id: orderId, refund_amount_cents: 100, refund_reason: 'other' }),
        404,
        'order_not_found',
      );
      expectError(await refundRef(other, { order_id: orderId, reason: 'other' }), 404, 'order_not_found');
      expectError(
        await refundV1(agent, { order_id: 'pay_nothing', refund_amount_cents: 100, refund_reason: 'other' }),
        404,
        'order_not_found',
      );
    });
  });
});
