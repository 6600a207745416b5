import { Accounts } from '../../src/escrow/accounts';
import { PaymentReconciliation } from '../../src/payment/services/payment-reconciliation';
import { createAgent, createWorker, type TestWorker } from '../support/actors';
import { createAdmin } from '../support/admins';
import { balanceOf, clearing, workerBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { type PaymentRig, startPaymentRig } from '../support/payment-rig';
import { accept, createTask, feedback, submit } from '../support/tasks';

/**
 * Worker withdrawals to Alipay: funds move to `withdrawing` at once; first withdrawals and large amounts wait for an
 * operator; the transfer goes through the provider sandbox; failures, rejections and unknown outcomes end with the
 * money either paid out or back in the worker's balance, never both and never neither.
 */
jest.setTimeout(30000);

describe('withdrawals', () => {
  let rig: PaymentRig;
  let admin: { id: string; bearer: string };
  beforeAll(async () => {
    rig = await startPaymentRig({ PAYMENT_PROVIDER_TIMEOUT_MS: '800' });
    admin = await createAdmin(rig.t);
  });
  afterAll(() => rig.close());

  /** A worker who earned `budget` minus the 10 % fee by doing an approved task. */
  async function earner(budget: number): Promise<TestWorker> {
    const agent = await createAgent(rig.t, { balanceCents: budget });
    const worker = await createWorker(rig.t);
    const taskId = await createTask(rig.t, agent, { budget_cents: budget });
    const assignmentId = await accept(rig.t, worker, taskId);
    await submit(rig.t, worker, assignmentId).expect(200);
    await feedback(rig.t, agent, taskId, { accept_result: true }).expect(200);
    return worker;
  }

  const withdraw = (worker: TestWorker, body: Record<string, unknown>) =>
    rig.t.http.post('/v1/payment/withdraw').set('Authorization', worker.bearer).send(body);
  const withdrawing = (workerId: string) => balanceOf(rig.t, Accounts.workerWithdrawing(workerId).code);
  const account = { alipay_account: 'worker@example.com', real_name: '张三' };

  /** A worker whose first withdrawal was reviewed and paid, so later small ones go straight through. */
  async function trustedEarner(budget: number): Promise<TestWorker> {
    const worker = await earner(budget);
    const first = await withdraw(worker, { amount_cents: 1000, ...account });
    await rig.t.http
      .post(`/v1/admin/withdrawals/${first.body.withdrawal_id}/approve`)
      .set('Authorization', admin.bearer)
      .expect(200);
    return worker;
  }

  it('a first withdrawal waits for review; approved, it is transferred and completed', async () => {
    const worker = await earner(100_000);
    expect(await workerBalance(rig.t, worker.id)).toBe(90_000);
    const clearingBefore = await clearing(rig.t, 'alipay');
    const res = await withdraw(worker, { amount_cents: 20_000, ...account });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      withdrawal_id: expect.stringMatching(/^wd[0-9A-Za-z]{24}$/),
      amount_cents: 20_000,
      status: 'pending_review',
      review_reason: 'first_withdrawal',
      alipay_account: 'worker@example.com',
      real_name: '张三',
    });
    expect(await workerBalance(rig.t, worker.id)).toBe(70_000);
    expect(await withdrawing(worker.id)).toBe(20_000);
    const queue = await rig.t.http
      .get('/v1/admin/withdrawals')
      .query({ status: 'pending_review' })
      .set('Authorization', admin.bearer);
    expect(queue.body.items.map((w: { withdrawal_id: string }) => w.withdrawal_id)).toContain(
      res.body.withdrawal_id,
    );

    const approved = await rig.t.http
      .post(`/v1/admin/withdrawals/${res.body.withdrawal_id}/approve`)
      .set('Authorization', admin.bearer);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'completed',
      reviewed_by: admin.id,
      provider_transfer_id: expect.any(String),
      completed_at: expect.any(String),
    });
    expect(await withdrawing(worker.id)).toBe(0);
    expect(await workerBalance(rig.t, worker.id)).toBe(70_000);
    expect((await clearing(rig.t, 'alipay')) - clearingBefore).toBe(20_000);
    const { data } = await rig.api<{ data: { out_bill_no: string; state: string; payee_name: string }[] }>(
      'alipay',
      'GET',
      '/__sandbox/transfers',
    );
    expect(data.find((t) => t.out_bill_no === res.body.withdrawal_id)).toMatchObject({
      state: 'succeeded',
      payee_name: '张三',
    });

    const again = await rig.t.http
      .post(`/v1/admin/withdrawals/${res.body.withdrawal_id}/approve`)
      .set('Authorization', admin.bearer);
    expectError(again, 409, 'invalid_state');
    expect(again.body.error.current_status).toBe('completed');

    // With a completed withdrawal behind it, a small one goes straight to the provider.
    const next = await withdraw(worker, { amount_cents: 5000, ...account });
    expect(next.body).toMatchObject({ status: 'completed', review_reason: null });
    expect(await workerBalance(rig.t, worker.id)).toBe(65_000);
  });

  it('50000 cents or more waits for review; rejected, the funds return', async () => {
    const worker = await trustedEarner(100_000);
    const res = await withdraw(worker, { amount_cents: 50_000, ...account });
    expect(res.body).toMatchObject({ status: 'pending_review', review_reason: 'large_amount' });
    expect(await workerBalance(rig.t, worker.id)).toBe(39_000);
    const rejected = await rig.t.http
      .post(`/v1/admin/withdrawals/${res.body.withdrawal_id}/reject`)
      .set('Authorization', admin.bearer)
      .send({ reason: 'Account name does not match the worker' });
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Account name does not match the worker',
    });
    expect(await workerBalance(rig.t, worker.id)).toBe(89_000);
    expect(await withdrawing(worker.id)).toBe(0);
    const twice = await rig.t.http
      .post(`/v1/admin/withdrawals/${res.body.withdrawal_id}/reject`)
      .set('Authorization', admin.bearer)
      .send({ reason: 'again' });
    expectError(twice, 409, 'invalid_state');
  });

  it('a transfer the provider refuses fails and returns the funds', async () => {
    const worker = await trustedEarner(20_000);
    await rig.api('alipay', 'POST', '/__sandbox/transfers/fail-next', { reason: 'PAYEE_NOT_EXIST' });
    const res = await withdraw(worker, {
      amount_cents: 3000,
      alipay_account: 'nobody@example.com',
      real_name: 'Li Si',
    });
    expect(res.body).toMatchObject({ status: 'failed', failure_reason: 'PAYEE_NOT_EXIST' });
    expect(await workerBalance(rig.t, worker.id)).toBe(17_000);
    expect(await withdrawing(worker.id)).toBe(0);
  });

  it('no answer from the provider: the withdrawal stays processing and reconciliation settles it once', async () => {
    const worker = await trustedEarner(20_000);
    await rig.api('alipay', 'POST', '/__sandbox/faults', {
      target: 'response',
      kind: 'timeout',
      delay_ms: 1500,
      match: 'alipay.fund.trans.uni.transfer',
    });
    const res = await withdraw(worker, { amount_cents: 4000, alipay_account: '2088000000000001' });
    expect(res.body).toMatchObject({ status: 'processing' });
    expect(await withdrawing(worker.id)).toBe(4000);
    await new Promise((r) => setTimeout(r, 1600));
    const reconciliation = rig.t.app.get(PaymentReconciliation);
    expect((await reconciliation.reconcile(0)).withdrawals).toBe(1);
    expect(await withdrawing(worker.id)).toBe(0);
    expect(await workerBalance(rig.t, worker.id)).toBe(13_000);
    expect((await reconciliation.reconcile(0)).withdrawals).toBe(0);
    const list = await rig.t.http
      .get('/v1/admin/withdrawals')
      .query({ status: 'completed', limit: 100 })
      .set('Authorization', admin.bearer);
    expect(list.body.items.map((w: { withdrawal_id: string }) => w.withdrawal_id)).toContain(
      res.body.withdrawal_id,
    );
  });

  it('concurrent withdrawals never overdraw: the balance covers one of them (402 for the other)', async () => {
    const worker = await trustedEarner(10_000);
    const results = await Promise.all([
      withdraw(worker, { amount_cents: 5000, ...account }),
      withdraw(worker, { amount_cents: 5000, ...account }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 402]);
    expectError(
      results.find((r) => r.status === 402)!,
      402,
      'insufficient_balance',
    );
    expect(await workerBalance(rig.t, worker.id)).toBe(3000);
  });

  it('validation: minimum 1000 cents; a login id needs the real name; unknown fields are refused', async () => {
    const worker = await createWorker(rig.t);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount_cents: 999, ...account }, 'amount_cents'],
      [{ amount_cents: 1000, alipay_account: 'worker@example.com' }, 'real_name'],
      [{ amount_cents: 1000, alipay_account: ' ', real_name: 'x' }, 'alipay_account'],
      [{ amount_cents: 1000, ...account, bank: 'x' }, 'bank'],
    ];
    for (const [body, field] of cases) {
      const res = await withdraw(worker, body);
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expectError(await withdraw(worker, { amount_cents: 1000, ...account }), 402, 'insufficient_balance');
  });

  it('operator routes: admin only; unknown withdrawal 404; bad status filter 400', async () => {
    const worker = await createWorker(rig.t);
    const agent = await createAgent(rig.t);
    expectError(
      await rig.t.http.get('/v1/admin/withdrawals').set('Authorization', worker.bearer),
      403,
      'forbidden',
    );
    expectError(
      await rig.t.http.get('/v1/admin/withdrawals').set('Authorization', agent.bearer),
      403,
      'forbidden',
    );
    expectError(
      await rig.t.http.post('/v1/admin/withdrawals/wdNOPE/approve').set('Authorization', admin.bearer),
      404,
      'not_found',
    );
    expectError(
      await rig.t.http
        .post('/v1/admin/withdrawals/wdNOPE/reject')
        .set('Authorization', admin.bearer)
        .send({}),
      400,
      'validation_error',
    );
    expectError(
      await rig.t.http.get('/v1/admin/withdrawals').query({ status: 'x' }).set('Authorization', admin.bearer),
      400,
      'validation_error',
    );
  });

  describe('GET /v1/worker/withdrawals', () => {
    const history = (worker: TestWorker, query: Record<string, unknown> = {}, prefix = '/v1') =>
      rig.t.http.get(`${prefix}/worker/withdrawals`).query(query).set('Authorization', worker.bearer);

    it('lists only your own, newest first, with states, the rejection reason, a masked account and cursor pages', async () => {
      const worker = await earner(100_000);
      const other = await earner(100_000);
      const ids: string[] = [];
      for (const amount_cents of [1000, 2000, 3000]) {
        ids.push((await withdraw(worker, { amount_cents, ...account }).expect(200)).body.withdrawal_id);
      }
      await withdraw(other, { amount_cents: 1500, ...account }).expect(200);
      await rig.t.http
        .post(`/v1/admin/withdrawals/${ids[0]}/reject`)
        .set('Authorization', admin.bearer)
        .send({ reason: 'Payout account does not match the worker.' })
        .expect(200);
      await rig.t.http
        .post(`/v1/admin/withdrawals/${ids[1]}/approve`)
        .set('Authorization', admin.bearer)
        .expect(200);

      const first = (await history(worker, { limit: 2 }).expect(200)).body;
      expect(first.data.map((w: { withdrawal_id: string }) => w.withdrawal_id)).toEqual([ids[2], ids[1]]);
      expect(first).toMatchObject({ has_more: true, next_cursor: ids[1] });
      expect(first.data[0]).toEqual({
        withdrawal_id: ids[2],
        amount_cents: 3000,
        status: 'pending_review',
        alipay_account: 'w***@example.com',
        review_reason: 'first_withdrawal',
        rejection_reason: null,
        failure_reason: null,
        created_at: expect.any(String),
        reviewed_at: null,
        completed_at: null,
        updated_at: expect.any(String),
      });
      expect(first.data[1]).toMatchObject({
        status: 'completed',
        reviewed_at: expect.any(String),
        completed_at: expect.any(String),
      });
      expect(JSON.stringify(first)).not.toContain('worker@example.com');

      const rest = (await history(worker, { starting_after: first.next_cursor }, '/api/v1').expect(200)).body;
      expect(rest).toEqual({
        data: [
          expect.objectContaining({
            withdrawal_id: ids[0],
            status: 'rejected',
            rejection_reason: 'Payout account does not match the worker.',
          }),
        ],
        has_more: false,
        next_cursor: null,
      });

      // Another worker sees only their own, and cannot page from someone else's withdrawal.
      const theirs = (await history(other).expect(200)).body.data;
      expect(theirs.map((w: { amount_cents: number }) => w.amount_cents)).toEqual([1500]);
      const foreign = await history(other, { starting_after: ids[0] });
      expectError(foreign, 400, 'validation_error');
      expect(foreign.body.error.details[0].field).toBe('starting_after');
    });

    it('a worker with none gets an empty page; bad paging is 400; agents and anonymous callers are refused', async () => {
      const worker = await createWorker(rig.t);
      const agent = await createAgent(rig.t);
      expect((await history(worker).expect(200)).body).toEqual({
        data: [],
        has_more: false,
        next_cursor: null,
      });
      for (const query of [{ limit: 0 }, { limit: 101 }, { starting_after: 'nope' }]) {
        expectError(await history(worker, query), 400, 'validation_error');
      }
      expectError(
        await rig.t.http.get('/v1/worker/withdrawals').set('Authorization', agent.bearer),
        403,
        'forbidden',
      );
      expectError(await rig.t.http.get('/v1/worker/withdrawals'), 401, 'authentication_required');
    });
  });
});
