import { fxRateMicros, usdCentsFor, usdToCnyCents } from '../../src/payment/payment-rules';
import { PaymentExpiry } from '../../src/payment/services/payment-expiry';
import { createAgent, type TestAgent } from '../support/actors';
import { createAdmin } from '../support/admins';
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
import { createTask } from '../support/tasks';
import { orderStatus, waitForOrder } from '../support/waiters';

/**
 * The reference payment surface: an order pays for one task, with the X-API-Secret header. Amount checked against the
 * task, one open or completed order per task, currencies, the four payment methods, limits.
 */
jest.setTimeout(30000);

describe('reference payment orders', () => {
  let rig: PaymentRig;
  beforeAll(async () => {
    rig = await startPaymentRig({ FX_USD_CNY: '7.1' });
  });
  afterAll(() => rig.close());

  const RETURN = 'https://agent.example/paid';

  async function taskOf(agent: TestAgent, budget = 5000, workers = 1): Promise<string> {
    return createTask(rig.t, agent, { budget_cents: budget, max_workers: workers });
  }

  const create = (agent: TestAgent, body: Record<string, unknown>, headers = referenceAuth(agent)) =>
    rig.t.http.post('/api/v1/payment/create').set(headers).send(body);
  const query = (agent: TestAgent, orderId: string) =>
    rig.t.http.get('/api/v1/payment/query').query({ order_id: orderId }).set(referenceAuth(agent));

  it('creates an order for a task; paid, it credits the cost as a deposit carrying the task id', async () => {
    const agent = await createAgent(rig.t, { balanceCents: 10_000 });
    const taskId = await taskOf(agent, 5000, 2);
    const res = await create(agent, {
      task_id: taskId,
      amount: 10_000,
      currency: 'CNY',
      payment_method: 'wechat',
      return_url: RETURN,
      callback_url: 'http://127.0.0.1:9/hooks/payments',
      metadata: { invoice: 'INV-7' },
      expires_in_seconds: 600,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      order_id: expect.stringMatching(/^pay_/),
      task_id: taskId,
      payment_url: null,
      qr_code_url: expect.stringMatching(new RegExp(`^${rig.sandbox.wechatBaseUrl}/cashier/`)),
      amount: 10_000,
      currency: 'CNY',
      cny_amount: 10_000,
      payment_method: 'wechat',
      status: 'pending',
      expires_at: expect.any(String),
      created_at: expect.any(String),
    });
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(600_000);
    await cashier(res.body.qr_code_url, 'pay');
    await waitForOrder(rig.t, res.body.order_id, 'completed');
    expect(await agentBalance(rig.t, agent.id)).toBe(10_000);
    const [journal]: { kind: string; task_id: string }[] = await rig.t.db.query(
      `SELECT kind, task_id FROM ledger_journals WHERE order_id = $1`,
      [res.body.order_id],
    );
    expect(journal).toEqual({ kind: 'deposit', task_id: taskId });
    const q = await query(agent, res.body.order_id);
    expect(q.body).toMatchObject({
      order_id: res.body.order_id,
      task_id: taskId,
      amount: 10_000,
      currency: 'CNY',
      payment_method: 'wechat',
      status: 'completed',
      transaction_id: expect.any(String),
      paid_at: expect.any(String),
      cost_breakdown: { worker_payout_cents: 9000, platform_fee_cents: 1000, total_cents: 10_000 },
    });
    const events = await orderEventsOf(rig.t, res.body.order_id);
    expect(events.map((e) => e.name)).toEqual(['payment.created', 'payment.completed']);
    expect(events[1].data).toMatchObject({
      task_id: taskId,
      callback_url: 'http://127.0.0.1:9/hooks/payments',
    });
  });

  it('400 amount_mismatch when the amount is not the task cost', async () => {
    const agent = await createAgent(rig.t, { balanceCents: 5000 });
    const taskId = await taskOf(agent);
    const res = await create(agent, {
      task_id: taskId,
      amount: 4999,
      currency: 'CNY',
      payment_method: 'alipay',
      return_url: RETURN,
    });
    expectError(res, 400, 'amount_mismatch');
    expect(res.body.error).toMatchObject({ expected_amount: 5000, provided_amount: 4999 });
  });

  it('409 duplicate_order while an order is open or completed, also under concurrency; a new one after expiry', async () => {
    const agent = await createAgent(rig.t, { balanceCents: 5000 });
    const taskId = await taskOf(agent);
    const body = {
      task_id: taskId,
      amount: 5000,
      currency: 'CNY',
      payment_method: 'alipay',
      return_url: RETURN,
    };
    const results = await Promise.all(Array.from({ length: 4 }, () => create(agent, body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expectError(r, 409, 'duplicate_order');
    const first = results.find((r) => r.status === 201)!.body.order_id as string;
    rig.t.clock.advance(16 * 60_000);
    await rig.t.app.get(PaymentExpiry).expireDue();
    expect(await orderStatus(rig.t, first)).toBe('expired');
    const second = await create(agent, body);
    expect(second.status).toBe(201);
    await cashier(await openAlipayUrl(second.body.payment_url, rig.sandbox), 'pay');
    await waitForOrder(rig.t, second.body.order_id, 'completed');
    expectError(await create(agent, body), 409, 'duplicate_order');
  });

  it('USD: the amount is the smallest USD cents covering the cost; the converted CNY amount is charged and credited', async () => {
    const agent = await createAgent(rig.t, { balanceCents: 5000 });
    const taskId = await taskOf(agent);
    const rate = fxRateMicros(7.1);
    const usd = usdCentsFor(5000, rate);
    expect(usd).toBe(705);
    const wrong = await create(agent, {
      task_id: taskId,
      amount: 5000,
      currency: 'USD',
      payment_method: 'alipay',
      return_url: RETURN,
    });
    expectError(wrong, 400, 'amount_mismatch');
    expect(wrong.body.error).toMatchObject({ expected_amount: 705, provided_amount: 5000, currency: 'USD' });
    const res = await create(agent, {
      task_id: taskId,
      amount: usd,
      currency: 'USD',
      payment_method: 'alipay',
      return_url: RETURN,
    });
    expect(res.body).toMatchObject({ amount: 705, currency: 'USD', cny_amount: usdToCnyCents(705, rate) });
    await cashier(await openAlipayUrl(res.body.payment_url, rig.sandbox), 'pay');
    await waitForOrder(rig.t, res.body.order_id, 'completed');
    expect(await agentBalance(rig.t, agent.id)).toBe(5006);
  });

  it('card: the provider-A cashier takes the test cards (4242 pays, 0002 is declined)', async () => {
    const agent = await createAgent(rig.t, { balanceCents: 10_000 });
    const declinedTask = await taskOf(agent);
    const paidTask = await taskOf(agent);
    const body = (taskId: string) => ({
      task_id: taskId,
      amount: 5000,
      currency: 'CNY',
      payment_method: 'card',
      return_url: RETURN,
    });
    const declined = await create(agent, body(declinedTask));
    await cashier(await openAlipayUrl(declined.body.payment_url, rig.sandbox), 'pay', '4000000000000002');
    await waitForOrder(rig.t, declined.body.order_id, 'failed');
    const paid = await create(agent, body(paidTask));
    expect(paid.body).toMatchObject({ payment_method: 'card', payment_url: expect.any(String) });
    await cashier(await openAlipayUrl(paid.body.payment_url, rig.sandbox), 'pay', '4242424242424242');
    await waitForOrder(rig.t, paid.body.order_id, 'completed');
    expect(await agentBalance(rig.t, agent.id)).toBe(5000);
    expect(await journalsOf(rig.t, declined.body.order_id)).toEqual([]);
  });

  it('bank_transfer: enterprise agents only, from 100000 cents; an operator confirms receipt and the order completes once', async () => {
    const agent = await createAgent(rig.t, { balanceCents: 205_000 });
    const taskId = await taskOf(agent, 100_000, 2);
    const body = {
      task_id: taskId,
      amount: 200_000,
      currency: 'CNY',
      payment_method: 'bank_transfer',
      return_url: RETURN,
    };
    expectError(await create(agent, body), 400, 'payment_method_unavailable');
    await rig.t.db.query(`UPDATE agents SET tier = 'enterprise' WHERE id = $1`, [agent.id]);
    const small = await createTask(rig.t, agent, { budget_cents: 5000 });
    expectError(await create(agent, { ...body, task_id: small, amount: 5000 }), 400, 'validation_error');
    const res = await create(agent, body);
    expect(res.body).toMatchObject({
      status: 'pending',
      payment_url: null,
      qr_code_url: null,
      payment_method: 'bank_transfer',
    });
    const admin = await createAdmin(rig.t);
    const confirm = () =>
      rig.t.http
        .post(`/v1/admin/payments/${res.body.order_id}/confirm-bank-transfer`)
        .set('Authorization', admin.bearer)
        .send({ bank_reference: `BANK-${res.body.order_id}` });
    const done = await confirm();
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', transaction_id: `BANK-${res.body.order_id}` });
    expect(await agentBalance(rig.t, agent.id)).toBe(200_000);
    expectError(await confirm(), 409, 'invalid_state');
    const [{ code }]: { code: string }[] = await rig.t.db.query(
      `SELECT a.code FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
         JOIN ledger_journals j ON j.id = p.journal_id WHERE j.order_id = $1 AND p.amount < 0`,
      [res.body.order_id],
    );
    expect(code).toBe('provider:bank:clearing');
  });

  it('daily totals by tier are counted race-safely: concurrent orders cannot pass the limit together', async () => {
    const agent = await createAgent(rig.t);
    // Standard tier: 10,000,000 cents a day. Two orders of 4,000,000 fit, a third does not, whichever comes first.
    const results = await Promise.all(
      Array.from({ length: 3 }, () =>
        rig.t.http
          .post('/v1/payment/create')
          .set('Authorization', agent.key)
          .send({ amount_cents: 4_000_000, payment_method: 'wechat' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 400]);
    const refused = results.find((r) => r.status === 400)!;
    expectError(refused, 400, 'daily_limit_exceeded');
    expect(refused.body.error).toMatchObject({
      daily_limit_cents: 10_000_000,
      used_today_cents: 8_000_000,
      requested_cents: 4_000_000,
    });
    // A verified agent has a higher limit (50,000,000).
    await rig.t.db.query(`UPDATE agents SET tier = 'verified' WHERE id = $1`, [agent.id]);
    const more = await rig.t.http
      .post('/v1/payment/create')
      .set('Authorization', agent.key)
      .send({ amount_cents: 4_000_000, payment_method: 'wechat' });
    expect(more.status).toBe(200);
  });

  it('X-API-Secret: missing or wrong is 401 invalid_credentials on every reference payment route', async () => {
    const agent = await createAgent(rig.t);
    const other = await createAgent(rig.t);
    const calls = [
      (h: Record<string, string>) => rig.t.http.post('/api/v1/payment/create').set(h).send({}),
      (h: Record<string, string>) =>
        rig.t.http.get('/api/v1/payment/query').query({ order_id: 'pay_x' }).set(h),
      (h: Record<string, string>) => rig.t.http.post('/api/v1/payment/refund').set(h).send({}),
    ];
    for (const call of calls) {
      expectError(await call({ Authorization: agent.key }), 401, 'invalid_credentials');
      expectError(
        await call({ Authorization: agent.key, 'X-API-Secret': other.apiSecret }),
        401,
        'invalid_credentials',
      );
      expectError(
        await call({ Authorization: agent.bearer, 'X-API-Secret': 'wrong' }),
        401,
        'invalid_credentials',
      );
      expectError(await call({ 'X-API-Secret': agent.apiSecret }), 401, 'authentication_required');
    }
  });

  it('validation: required fields, currencies, methods, URLs, metadata size and link lifetime', async () => {
    const agent = await createAgent(rig.t, { balanceCents: 5000 });
    const taskId = await taskOf(agent);
    const ok = {
      task_id: taskId,
      amount: 5000,
      currency: 'CNY',
      payment_method: 'alipay',
      return_url: RETURN,
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, task_id: 'nope' }, 'task_id'],
      [{ ...ok, currency: 'EUR' }, 'currency'],
      [{ ...ok, payment_method: 'paypal' }, 'payment_method'],
      [{ ...ok, return_url: undefined }, 'return_url'],
      [{ ...ok, return_url: 'ftp://x.example' }, 'return_url'],
      [{ ...ok, callback_url: 'not a url' }, 'callback_url'],
      [{ ...ok, metadata: { blob: 'x'.repeat(1100) } }, 'metadata'],
      [{ ...ok, metadata: 'text' }, 'metadata'],
      [{ ...ok, expires_in_seconds: 299 }, 'expires_in_seconds'],
      [{ ...ok, expires_in_seconds: 86_401 }, 'expires_in_seconds'],
      [{ ...ok, amount: 50.5 }, 'amount'],
    ];
    for (const [body, field] of cases) {
      const res = await create(agent, body);
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const missing = await create(agent, { ...ok, task_id: '7d6f5d0e-5a4b-4c3d-9e2f-1a0b9c8d7e6f' });
    expectError(missing, 404, 'task_not_found');
    const stranger = await createAgent(rig.t);
    expectError(await create(stranger, ok), 404, 'task_not_found');
  });

  it("query: another agent's order or an unknown id is 404 order_not_found", async () => {
    const agent = await createAgent(rig.t, { balanceCents: 5000 });
    const other = await createAgent(rig.t);
    const taskId = await taskOf(agent);
    const res = await create(agent, {
      task_id: taskId,
      amount: 5000,
      currency: 'CNY',
      payment_method: 'alipay',
      return_url: RETURN,
    });
    expectError(await query(other, res.body.order_id), 404, 'order_not_found');
    expectError(await query(agent, 'pay_unknown'), 404, 'order_not_found');
    expectError(
      await rig.t.http.get('/api/v1/payment/query').set(referenceAuth(agent)),
      400,
      'validation_error',
    );
  });
});
