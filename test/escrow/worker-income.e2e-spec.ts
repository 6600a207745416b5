import { Accounts } from '../../src/escrow/accounts';
import { createAgent, createWorker, type TestAgent, type TestWorker } from '../support/actors';
import { createAdmin } from '../support/admins';
import { balanceOf, platformFees, workerBalance } from '../support/balances';
import { parseCsv } from '../support/csv';
import { expectError } from '../support/errors';
import { type PaymentRig, startPaymentRig } from '../support/payment-rig';
import { accept, createTask, feedback, relogin, submit } from '../support/tasks';

/**
 * The quarterly worker-income file (product-decisions §19): per worker paid in the quarter, gross, fees, net,
 * withdrawn and tasks paid, from the ledger, with the quarter drawn in Asia/Shanghai time. The money here moves
 * through the real routes (create, accept, submit, approve, could-not-do-it, withdraw and the operator's review).
 */
jest.setTimeout(60000);

const HEADER = [
  'worker_id',
  'period_start',
  'period_end',
  'gross_cents',
  'gross_rmb',
  'fees_cents',
  'fees_rmb',
  'net_cents',
  'net_rmb',
  'withdrawn_cents',
  'withdrawn_rmb',
  'tasks_paid',
];

describe('GET /v1/admin/reports/worker-income', () => {
  let rig: PaymentRig;
  let admin: { id: string; bearer: string };
  beforeAll(async () => {
    rig = await startPaymentRig();
    admin = await createAdmin(rig.t);
  });
  afterAll(() => rig.close());

  const report = (quarter: string | undefined, auth: string | null = admin.bearer) => {
    const req = rig.t.http.get('/v1/admin/reports/worker-income');
    if (quarter !== undefined) req.query({ quarter });
    return auth === null ? req : req.set('Authorization', auth);
  };

  /** The China-time quarter the test clock is in now. */
  const currentQuarter = () => {
    const china = new Date(rig.t.clock.now().getTime() + 8 * 3_600_000);
    return `${china.getUTCFullYear()}-Q${Math.floor(china.getUTCMonth() / 3) + 1}`;
  };

  async function rowsOf(quarter: string): Promise<Record<string, string>[]> {
    const res = await report(quarter).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="worker-income-${quarter}.csv"`);
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual(HEADER);
    return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
  }

  async function approved(agent: TestAgent, worker: TestWorker, budget: number): Promise<void> {
    const taskId = await createTask(rig.t, agent, { budget_cents: budget });
    const assignmentId = await accept(rig.t, worker, taskId);
    await submit(rig.t, worker, assignmentId).expect(200);
    await feedback(rig.t, agent, taskId, { accept_result: true }).expect(200);
  }

  const withdraw = (worker: TestWorker, amount: number) =>
    rig.t.http
      .post('/v1/payment/withdraw')
      .set('Authorization', worker.bearer)
      .send({ amount_cents: amount, alipay_account: 'worker@example.com', real_name: '张三' })
      .expect(200);

  it('validates the quarter: the format, and none that has not begun', async () => {
    for (const bad of ['2026Q3', '2026-Q5', '2026-Q0', '26-Q1', '2026-q3', '=1+1'])
      expectError(await report(bad), 400, 'validation_error');
    expectError(await report(undefined), 400, 'validation_error');
    const now = rig.t.clock.now();
    const next = `${now.getUTCFullYear() + 1}-Q2`;
    const res = await report(next);
    expectError(res, 400, 'validation_error');
    expect(res.body.error.details).toEqual([
      { field: 'quarter', message: expect.stringContaining('Asia/Shanghai') },
    ]);
  });

  it('operators only: agents (key or JWT) and workers are 403, no credential is 401', async () => {
    const agent = await createAgent(rig.t);
    const worker = await createWorker(rig.t);
    for (const auth of [agent.key, agent.bearer, worker.bearer])
      expectError(await report('2026-Q3', auth), 403, 'forbidden');
    expectError(await report('2026-Q3', null), 401, 'authentication_required');
  });

  it('sums each worker’s earnings, fees, withdrawals and tasks from the ledger', async () => {
    const agent = await createAgent(rig.t, { balanceCents: 100_000 });
    const feesBefore = await platformFees(rig.t);
    const a = await createWorker(rig.t);
    const b = await createWorker(rig.t);
    const rejected = await createWorker(rig.t);
    const unable = await createWorker(rig.t);

    // a: two approvals (5,000 and 3,000 at the 10 % fee), and a withdrawal the operator approves (completed).
    await approved(agent, a, 5000);
    await approved(agent, a, 3000);
    const wa = await withdraw(a, 2000);
    await rig.t.http
      .post(`/v1/admin/withdrawals/${wa.body.withdrawal_id}/approve`)
      .set('Authorization', admin.bearer)
      .expect(200);
    // b: one approval, and a withdrawal the operator rejects (the money comes back: not withdrawn).
    await approved(agent, b, 4000);
    const wb = await withdraw(b, 1000);
    await rig.t.http
      .post(`/v1/admin/withdrawals/${wb.body.withdrawal_id}/reject`)
      .set('Authorization', admin.bearer)
      .send({ reason: 'Name does not match the account' })
      .expect(200);
    // rejected: paid nothing, so no row.
    const rejectedTask = await createTask(rig.t, agent, { budget_cents: 2000 });
    const ra = await accept(rig.t, rejected, rejectedTask);
    await submit(rig.t, rejected, ra).expect(200);
    await feedback(rig.t, agent, rejectedTask, { accept_result: false, reason_code: 'other' }).expect(200);
    // unable: "could not do it" accepted on 5,000 at the default 20 %: share 1,000, fee 100, worker 900.
    const unableTask = await createTask(rig.t, agent, { budget_cents: 5000 });
    const ua = await accept(rig.t, unable, unableTask);
    await rig.t.http
      .post(`/v1/worker/assignments/${ua}/unable`)
      .set('Authorization', unable.bearer)
      .send({ reason: 'closed', note: 'Shutters down' })
      .expect(200);
    await feedback(rig.t, agent, unableTask, { accept_result: true }).expect(200);

    const quarter = currentQuarter();
    const rows = await rowsOf(quarter);
    const year = Number(quarter.slice(0, 4));
    const q = Number(quarter.slice(6));
    const month = (m: number) => String(m).padStart(2, '0');
    const period = {
      period_start: `${year}-${month((q - 1) * 3 + 1)}-01T00:00:00+08:00`,
      period_end:
        q === 4 ? `${year + 1}-01-01T00:00:00+08:00` : `${year}-${month(q * 3 + 1)}-01T00:00:00+08:00`,
    };
    const expected = [
      {
        worker_id: a.id,
        ...period,
        gross_cents: '8000',
        gross_rmb: '80.00',
        fees_cents: '800',
        fees_rmb: '8.00',
        net_cents: '7200',
        net_rmb: '72.00',
        withdrawn_cents: '2000',
        withdrawn_rmb: '20.00',
        tasks_paid: '2',
      },
      {
        worker_id: b.id,
        ...period,
        gross_cents: '4000',
        gross_rmb: '40.00',
        fees_cents: '400',
        fees_rmb: '4.00',
        net_cents: '3600',
        net_rmb: '36.00',
        withdrawn_cents: '0',
        withdrawn_rmb: '0.00',
        tasks_paid: '1',
      },
      {
        worker_id: unable.id,
        ...period,
        gross_cents: '1000',
        gross_rmb: '10.00',
        fees_cents: '100',
        fees_rmb: '1.00',
        net_cents: '900',
        net_rmb: '9.00',
        withdrawn_cents: '0',
        withdrawn_rmb: '0.00',
        tasks_paid: '1',
      },
    ].sort((x, y) => (x.worker_id < y.worker_id ? -1 : 1));
    expect(rows).toEqual(expected);
    expect(rows.map((r) => r.worker_id)).not.toContain(rejected.id);

    // The same sums, read back from the ledger's balances: what a worker netted is what they hold, in the
    // balance or on its way out, plus what left; the fees are what the platform's fee account gained.
    for (const [w, row] of [
      [a, rows.find((r) => r.worker_id === a.id)!],
      [b, rows.find((r) => r.worker_id === b.id)!],
      [unable, rows.find((r) => r.worker_id === unable.id)!],
    ] as const) {
      const held =
        (await workerBalance(rig.t, w.id)) + (await balanceOf(rig.t, Accounts.workerWithdrawing(w.id).code));
      expect(Number(row.net_cents) - Number(row.withdrawn_cents)).toBe(held);
    }
    expect(rows.reduce((s, r) => s + Number(r.fees_cents), 0)).toBe((await platformFees(rig.t)) - feesBefore);

    // The quarter before holds none of it.
    const before = q === 1 ? `${year - 1}-Q4` : `${year}-Q${q - 1}`;
    expect(await rowsOf(before)).toEqual([]);
  });

  it('draws the quarter in China time: a payment at 00:30 on 1 January UTC+8 is in Q1, though still 31 December in UTC', async () => {
    const now = rig.t.clock.now();
    // 16:30 UTC on 31 December of the current (or, after it, next) year: 00:30 on 1 January in Shanghai.
    let target = Date.UTC(now.getUTCFullYear(), 11, 31, 16, 30);
    if (target <= now.getTime()) target = Date.UTC(now.getUTCFullYear() + 1, 11, 31, 16, 30);
    rig.t.clock.advance(target - now.getTime());
    const year = new Date(target).getUTCFullYear();
    admin = await createAdmin(rig.t);
    const agent = await createAgent(rig.t, { balanceCents: 10_000 });
    const worker = await createWorker(rig.t);
    await relogin(rig.t, worker);
    await approved(agent, worker, 6000);

    const q1 = await rowsOf(`${year + 1}-Q1`);
    expect(q1).toEqual([
      expect.objectContaining({
        worker_id: worker.id,
        period_start: `${year + 1}-01-01T00:00:00+08:00`,
        period_end: `${year + 1}-04-01T00:00:00+08:00`,
        gross_cents: '6000',
        net_cents: '5400',
        fees_cents: '600',
        tasks_paid: '1',
      }),
    ]);
    const q4 = await rowsOf(`${year}-Q4`);
    expect(q4.map((r) => r.worker_id)).not.toContain(worker.id);
  });
});
