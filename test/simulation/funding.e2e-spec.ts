import { createAgent, type TestAgent } from '../support/actors';
import { journalsOf, referenceAuth, type PaymentRig, startPaymentRig } from '../support/payment-rig';
import { agentBalance, clearing } from '../support/balances';
import { waitFor, orderStatus, waitForOrder } from '../support/waiters';
import { expectError } from '../support/errors';

/**
 * Sandbox money without a human (product-decisions §12): every sandbox order pays itself 5 seconds after creation, Alipay page
 * and wap orders included (the service plays the buyer's browser, so the provider sandbox sees the order at all), and
 * POST /v1/sandbox/balance credits at once through the provider sandbox's own path. The provider sandbox runs with
 * its real 5-second automatic completion here.
 */
interface SandboxOrderView {
  state: string;
  channel: string;
  paid_at: string | null;
}

describe('sandbox funding', () => {
  let rig: PaymentRig;

  beforeAll(async () => {
    rig = await startPaymentRig({}, { autoCompleteMs: 5000 });
  });
  afterAll(() => rig.close());

  const balance = async (agent: TestAgent): Promise<number> =>
    (await rig.t.http.get('/v1/payment/balance').set('Authorization', agent.key).expect(200)).body
      .balance_cents as number;

  it('a recharge by Alipay page pays itself without anyone opening the URL', async () => {
    const agent = await createAgent(rig.t);
    const started = Date.now();
    const res = await rig.t.http
      .post('/v1/payment/recharge')
      .set('Authorization', agent.key)
      .send({ amount_cents: 12_345 });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pending');
    const orderId = res.body.order_id as string;
    // The provider knows the trade although nobody opened the payment URL.
    const atProvider = await rig.api<SandboxOrderView>('alipay', 'GET', `/__sandbox/orders/${orderId}`);
    expect(atProvider).toMatchObject({ state: 'pending', channel: 'page' });

    await waitFor(async () => ((await balance(agent)) === 12_345 ? true : undefined), 'the credit', 15_000);
    console.log(`page recharge credited ${Date.now() - started} ms after creation`);
    expect(await orderStatus(rig.t, orderId)).toBe('completed');
    expect((await rig.api<SandboxOrderView>('alipay', 'GET', `/__sandbox/orders/${orderId}`)).state).toBe(
      'paid',
    );
    expect(await journalsOf(rig.t, orderId)).toHaveLength(1);
  });

  it('wap orders pay themselves too; a declined order never does, one paid by hand is credited once', async () => {
    const agent = await createAgent(rig.t);
    const create = (type: string) =>
      rig.t.http
        .post('/v1/payment/create')
        .set('Authorization', agent.key)
        .send({ amount_cents: 2_000, payment_method: 'alipay', payment_type: type });
    const [wap, declined, byHand] = await Promise.all([create('wap'), create('page'), create('page')]);
    for (const r of [wap, declined, byHand]) expect(r.status).toBe(200);
    await rig.api('alipay', 'POST', `/__sandbox/orders/${declined.body.order_id}/decline`, {});
    await rig.api('alipay', 'POST', `/__sandbox/orders/${byHand.body.order_id}/pay`, {});
    await waitForOrder(rig.t, byHand.body.order_id, 'completed');
    await waitForOrder(rig.t, declined.body.order_id, 'failed');
    await waitFor(
      async () => ((await orderStatus(rig.t, wap.body.order_id)) === 'completed' ? true : undefined),
      'the wap order to pay itself',
      15_000,
    );
    // Past the 5 seconds of every order: the declined one stayed declined, the one paid by hand was not paid twice.
    expect(
      (await rig.api<SandboxOrderView>('alipay', 'GET', `/__sandbox/orders/${declined.body.order_id}`)).state,
    ).toBe('declined');
    expect(await orderStatus(rig.t, declined.body.order_id)).toBe('failed');
    expect(await journalsOf(rig.t, byHand.body.order_id)).toHaveLength(1);
    expect(await agentBalance(rig.t, agent.id)).toBe(4_000);
  });

  describe('POST /v1/sandbox/balance', () => {
    it('credits at once on both surfaces, as a normal recharge through the provider', async () => {
      const agent = await createAgent(rig.t);
      const clearingBefore = await clearing(rig.t, 'alipay');
      const res = await rig.t.http
        .post('/v1/sandbox/balance')
        .set('Authorization', agent.key)
        .send({ amount_cents: 500_000 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ amount_cents: 500_000, status: 'completed', balance_cents: 500_000 });
      expect(res.body.balance_rmb).toBe(5000);
      // Answered after the credit: the balance shows it at once.
      expect(await balance(agent)).toBe(500_000);
      const orderId = res.body.order_id as string;
      expect(await journalsOf(rig.t, orderId)).toEqual([expect.objectContaining({ kind: 'deposit' })]);
      expect((await rig.api<SandboxOrderView>('alipay', 'GET', `/__sandbox/orders/${orderId}`)).state).toBe(
        'paid',
      );
      expect(await clearing(rig.t, 'alipay')).toBe(clearingBefore - 500_000);

      const again = await rig.t.http
        .post('/api/v1/sandbox/balance')
        .set('Authorization', agent.bearer)
        .send({ amount_cents: 100 });
      expect(again.status).toBe(200);
      expect(again.body.balance_cents).toBe(500_100);
      const tx = await rig.t.http.get('/api/v1/payment/transactions').set(referenceAuth(agent)).expect(200);
      expect(tx.body.data.filter((d: { type: string }) => d.type === 'deposit')).toHaveLength(2);
    });

    it('refuses bad input and callers without payment:write, changing nothing', async () => {
      const agent = await createAgent(rig.t);
      const reader = await createAgent(rig.t, { permissions: ['task:read', 'payment:read'] });
      const post = (auth: string | null, body: unknown) => {
        const req = rig.t.http.post('/v1/sandbox/balance');
        return (auth ? req.set('Authorization', auth) : req).send(body as object);
      };
      expectError(await post(agent.key, { amount_cents: 99 }), 400, 'validation_error');
      expectError(await post(agent.key, { amount_cents: 5_000_001 }), 400, 'validation_error');
      expectError(await post(agent.key, { amount_cents: '1000' }), 400, 'validation_error');
      expectError(await post(agent.key, { amount_cents: 1000, note: 'x' }), 400, 'validation_error');
      expectError(await post(agent.key, {}), 400, 'validation_error');
      expectError(await post(null, { amount_cents: 1000 }), 401, 'authentication_required');
      const denied = await post(reader.key, { amount_cents: 1000 });
      expectError(denied, 403, 'insufficient_permissions');
      expect(denied.body.error.required_permission).toBe('payment:write');
      expect(await agentBalance(rig.t, agent.id)).toBe(0);
      expect(await agentBalance(rig.t, reader.id)).toBe(0);
      const orders: unknown[] = await rig.t.db.query(
        `SELECT 1 FROM payment_orders WHERE agent_id = ANY($1)`,
        [[agent.id, reader.id]],
      );
      expect(orders).toHaveLength(0);
    });
  });
});
