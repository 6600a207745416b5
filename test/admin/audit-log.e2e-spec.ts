import { adminCreate } from '../../src/admin/admin-create.cli';
import { parseAdminCreateArgs } from '../../src/admin/admin-accounts';
import { Logger } from '../../src/common/logging/logger';
import { createAgent, createWorker, type TestAgent, type TestWorker } from '../support/actors';
import { createOperator, OPERATOR_PASSWORD, totpCode } from '../support/admins';
import { bearer } from '../support/agents';
import { databaseUrl } from '../support/databases';
import { expectError } from '../support/errors';
import { type PaymentRig, referenceAuth, startPaymentRig } from '../support/payment-rig';
import { accept, createTask, feedback, submit } from '../support/tasks';

/**
 * The operator audit log (product-decisions §16): every operator action appears exactly once with its before and
 * after, in the transaction of the action (a refused action leaves none); the database refuses to change or remove
 * an entry; the log reads back filtered and cursor paged; only operators read it.
 */
jest.setTimeout(60_000);

interface Entry {
  id: string;
  source: string;
  operator: { admin_id: string; email: string } | null;
  session_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string | null;
  ip: string | null;
}

describe('operator audit log', () => {
  let rig: PaymentRig;
  beforeAll(async () => {
    rig = await startPaymentRig({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => rig.close());
  const http = () => rig.t.http;

  async function signIn(email: string): Promise<{ access: string; refresh: string }> {
    const res = await http().post('/v1/admin/login').send({ email, password: OPERATOR_PASSWORD }).expect(200);
    return { access: res.body.access_token, refresh: res.body.refresh_token };
  }

  /** Every entry matching the query, all pages read through the cursor. */
  async function log(access: string, query: Record<string, string> = {}): Promise<Entry[]> {
    const all: Entry[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: Entry[]; next_cursor: string | null } } = await http()
        .get('/v1/admin/audit-log')
        .query({ ...query, limit: '100', ...(cursor ? { starting_after: cursor } : {}) })
        .set(bearer(access))
        .expect(200);
      all.push(...res.body.data);
      cursor = res.body.next_cursor;
    } while (cursor);
    return all;
  }

  /** A worker who earned 9,000 cents through an approved task. */
  async function earner(): Promise<TestWorker> {
    const agent = await createAgent(rig.t, { balanceCents: 10_000 });
    const worker = await createWorker(rig.t);
    const taskId = await createTask(rig.t, agent, { budget_cents: 10_000 });
    const assignmentId = await accept(rig.t, worker, taskId);
    await submit(rig.t, worker, assignmentId).expect(200);
    await feedback(rig.t, agent, taskId, { accept_result: true }).expect(200);
    return worker;
  }
  const withdraw = async (worker: TestWorker, cents: number): Promise<string> => {
    const res = await http()
      .post('/v1/payment/withdraw')
      .set('Authorization', worker.bearer)
      .send({ amount_cents: cents, alipay_account: 'worker@example.com', real_name: '张三' })
      .expect(200);
    expect(res.body.status).toBe('pending_review');
    return res.body.withdrawal_id as string;
  };

  /** An open bank-transfer order of an enterprise agent. */
  async function bankOrder(agent: TestAgent): Promise<string> {
    await rig.t.db.query(`UPDATE agents SET tier = 'enterprise' WHERE id = $1`, [agent.id]);
    const taskId = await createTask(rig.t, agent, { budget_cents: 100_000 });
    const res = await http()
      .post('/api/v1/payment/create')
      .set(referenceAuth(agent))
      .send({
        task_id: taskId,
        amount: 100_000,
        currency: 'CNY',
        payment_method: 'bank_transfer',
        return_url: 'https://agent.example/paid',
      })
      .expect(201);
    return res.body.order_id as string;
  }

  it('records each operator action exactly once, with who, what, target, before, after and request id', async () => {
    const op = await createOperator(rig.t);
    const session = await signIn(op.email);
    const auth = bearer(session.access);
    const agent = await createAgent(rig.t, { balanceCents: 110_000 });

    const patched = await http().patch(`/v1/admin/agents/${agent.id}`).set(auth).send({ tier: 'verified' });
    expect(patched.status).toBe(200);
    const credit = () =>
      http()
        .post(`/v1/admin/agents/${agent.id}/credit`)
        .set(auth)
        .set('Idempotency-Key', 'bank-ref-77')
        .send({ amount_cents: 5000, reason: 'bank transfer 77' });
    expect((await credit()).status).toBe(201);
    const replay = await credit();
    expect(replay.headers['idempotent-replayed']).toBe('true');

    const approvedId = await withdraw(await earner(), 2000);
    await http().post(`/v1/admin/withdrawals/${approvedId}/approve`).set(auth).expect(200);
    expectError(
      await http().post(`/v1/admin/withdrawals/${approvedId}/approve`).set(auth),
      409,
      'invalid_state',
    );
    const rejectedId = await withdraw(await earner(), 3000);
    await http()
      .post(`/v1/admin/withdrawals/${rejectedId}/reject`)
      .set(auth)
      .send({ reason: 'name mismatch' })
      .expect(200);
    const orderId = await bankOrder(agent);
    await http()
      .post(`/v1/admin/payments/${orderId}/confirm-bank-transfer`)
      .set(auth)
      .send({ bank_reference: `BANK-${orderId}` })
      .expect(200);
    expectError(
      await http()
        .patch('/v1/admin/agents/00000000-0000-4000-8000-000000000000')
        .set(auth)
        .send({ tier: 'verified' }),
      404,
      'not_found',
    );
    await http().post('/v1/admin/logout').send({ refresh_token: session.refresh }).expect(204);

    const reader = await signIn(op.email);
    const mine = (await log(reader.access, { operator_id: op.id })).reverse();
    expect(mine.map((e) => e.action)).toEqual([
      'operator.signed_in',
      'agent.updated',
      'agent.credited',
      'withdrawal.approved',
      'withdrawal.rejected',
      'payment_order.bank_transfer_confirmed',
      'operator.signed_out',
      'operator.signed_in',
    ]);
    const [signedIn, updated, credited, approved, rejected, confirmed, signedOut] = mine;
    const sessionId = signedIn.session_id;
    expect(signedIn).toMatchObject({
      source: 'api',
      operator: { admin_id: op.id, email: op.email },
      target_type: 'operator',
      target_id: op.id,
      before: null,
      after: { method: 'password' },
      ip: expect.stringMatching(/127\.0\.0\.1|::1/),
    });
    for (const e of [updated, credited, approved, rejected, confirmed, signedOut]) {
      expect(e.session_id).toBe(sessionId);
      expect(e.ip).toBeNull();
    }
    expect(updated).toMatchObject({
      target_type: 'agent',
      target_id: agent.id,
      request_id: patched.headers['x-request-id'],
      before: { tier: 'standard', rate_limit_per_minute: 100000, fee_bps: null, account_status: 'active' },
      after: {
        tier: 'verified',
        rate_limit_per_minute: 1000,
        rate_limit_per_day: 100000,
        account_status: 'active',
      },
    });
    expect(credited).toMatchObject({
      target_id: agent.id,
      before: { balance_cents: 110_000 },
      after: {
        balance_cents: 115_000,
        amount_cents: 5000,
        reason: 'bank transfer 77',
        idempotency_key: 'bank-ref-77',
      },
    });
    expect(approved).toMatchObject({
      target_type: 'withdrawal',
      target_id: approvedId,
      before: { status: 'pending_review' },
      after: { status: 'processing', amount_cents: 2000, review_reason: 'first_withdrawal' },
    });
    expect(rejected).toMatchObject({
      target_id: rejectedId,
      before: { status: 'pending_review' },
      after: { status: 'rejected', rejection_reason: 'name mismatch', amount_cents: 3000 },
    });
    expect(confirmed).toMatchObject({
      target_type: 'payment_order',
      target_id: orderId,
      before: { status: 'pending' },
      after: {
        status: 'completed',
        agent_id: agent.id,
        amount_cents: 100_000,
        bank_reference: `BANK-${orderId}`,
      },
    });
    expect(signedOut).toMatchObject({ target_id: op.id, before: null, after: null });
  });

  it('records two-factor events and admin:create runs (from the command line, naming no operator)', async () => {
    const run = (args: string[]) =>
      adminCreate(databaseUrl(rig.t.databaseName), parseAdminCreateArgs(args), new Logger('silent'));
    const email = `cli-${Date.now()}@example.com`;
    const created = await run(['--email', email, '--password', OPERATOR_PASSWORD]);
    await run(['--email', email, '--require-totp']);
    const reader = await createOperator(rig.t);
    const { access } = await signIn(reader.email);
    const cli = await log(access, { target_type: 'operator', target_id: created.id });
    expect(cli.reverse().map((e) => [e.action, e.source, e.operator, e.before, e.after])).toEqual([
      ['operator.created', 'cli', null, null, { email, totp_required: false, totp_enabled: false }],
      [
        'operator.updated',
        'cli',
        null,
        { email, totp_required: false, totp_enabled: false },
        { email, totp_required: true, totp_enabled: false, password_replaced: false },
      ],
    ]);

    const challenge = await http()
      .post('/v1/admin/login')
      .send({ email, password: OPERATOR_PASSWORD })
      .expect(200);
    const secret = challenge.body.totp_setup.secret as string;
    await http()
      .post('/v1/admin/login/totp')
      .send({ challenge_token: challenge.body.challenge_token, code: '000000' })
      .expect(401);
    await http()
      .post('/v1/admin/login/totp')
      .send({ challenge_token: challenge.body.challenge_token, code: totpCode(secret, rig.t.clock.now()) })
      .expect(200);
    const own = (await log(access, { operator_id: created.id })).reverse();
    expect(own.map((e) => [e.action, e.after])).toEqual([
      ['operator.sign_in_failed', { step: 'totp' }],
      ['operator.totp_enrolled', { totp_enabled: true, recovery_codes_left: 10 }],
      ['operator.signed_in', { method: 'totp' }],
    ]);
    expect(own[0].ip).toEqual(own[2].ip);
  });

  it('is append-only in the database: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const op = await createOperator(rig.t);
    await signIn(op.email);
    const [{ id }] = await rig.t.db.query(`SELECT id FROM operator_audit_log WHERE admin_id = $1`, [op.id]);
    await expect(
      rig.t.db.query(`UPDATE operator_audit_log SET action = 'agent.updated' WHERE id = $1`, [id]),
    ).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(rig.t.db.query(`DELETE FROM operator_audit_log WHERE id = $1`, [id])).rejects.toThrow(
      /append-only: DELETE refused/,
    );
    await expect(rig.t.db.query(`TRUNCATE operator_audit_log`)).rejects.toThrow(
      /append-only: TRUNCATE refused/,
    );
    const [row] = await rig.t.db.query(`SELECT action FROM operator_audit_log WHERE id = $1`, [id]);
    expect(row.action).toBe('operator.signed_in');
  });

  it('reads back by action and target, newest first, paged by a cursor without gaps or repeats', async () => {
    const op = await createOperator(rig.t);
    const { access } = await signIn(op.email);
    const agent = await createAgent(rig.t);
    for (const tier of ['verified', 'enterprise', 'standard', 'verified', 'enterprise']) {
      await http().patch(`/v1/admin/agents/${agent.id}`).set(bearer(access)).send({ tier }).expect(200);
    }
    const pages: Entry[][] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await http()
        .get('/v1/admin/audit-log')
        .query({
          target_type: 'agent',
          target_id: agent.id,
          limit: 2,
          ...(cursor ? { starting_after: cursor } : {}),
        })
        .set(bearer(access))
        .expect(200);
      pages.push(res.body.data);
      if (!res.body.has_more) {
        expect(res.body.next_cursor).toBeNull();
        break;
      }
      cursor = res.body.next_cursor;
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    const tiers = pages.flat().map((e) => e.after!.tier);
    expect(tiers).toEqual(['enterprise', 'verified', 'standard', 'enterprise', 'verified']);
    const ids = pages.flat().map((e) => Number(e.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const byAction = await log(access, { action: 'agent.updated', operator_id: op.id });
    expect(byAction).toHaveLength(5);
    for (const query of [
      { action: 'agent.deleted' },
      { target_type: 'worker' },
      { operator_id: 'nope' },
      { starting_after: 'abc' },
      { limit: '0' },
      { limit: '101' },
    ]) {
      const res = await http().get('/v1/admin/audit-log').query(query).set(bearer(access));
      expectError(res, 400, 'validation_error');
    }
  });

  it('is for operators only: 401 without credentials, 403 for agents and workers, on every new route', async () => {
    const agent = await createAgent(rig.t);
    const worker = await createWorker(rig.t);
    const routes: [string, string][] = [
      ['get', '/v1/admin/audit-log'],
      ['get', '/v1/admin/me'],
      ['post', '/v1/admin/me/totp'],
      ['post', '/v1/admin/me/totp/confirm'],
      ['post', '/v1/admin/me/recovery-codes'],
      ['get', '/v1/admin/operators'],
      ['post', `/v1/admin/operators/${agent.id}/totp/reset`],
    ];
    for (const [method, path] of routes) {
      const call = () => (method === 'get' ? http().get(path) : http().post(path).send({ code: '123456' }));
      expectError(await call(), 401, 'authentication_required');
      for (const credential of [agent.key, agent.bearer, worker.bearer]) {
        expectError(await call().set('Authorization', credential), 403, 'forbidden');
      }
    }
  });
});
