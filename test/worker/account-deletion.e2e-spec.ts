import { createAgent, type TestWorker } from '../support/actors';
import { createAdmin } from '../support/admins';
import { expectError } from '../support/errors';
import { type PaymentRig, startPaymentRig } from '../support/payment-rig';
import { jpeg, spot, uploadProof } from '../support/photos';
import { accept, act, createTask, feedback, submit } from '../support/tasks';
import { registerWorker } from './worker-helpers';

jest.setTimeout(60_000);

/**
 * POST /v1/worker/delete-account (PIPL art. 47; product-decisions §19): refused while assignments or withdrawals are
 * open; afterwards the phone number is nowhere in the database, positions and photos' locations are gone, the ledger
 * and the delivered work stay under the pseudonymous id, the withdrawal's payee is held hidden, and the worker
 * cannot sign in. The ledger check after the file proves the ledger was left whole.
 */
describe('account deletion', () => {
  let rig: PaymentRig;
  let admin: { id: string; bearer: string };
  beforeAll(async () => {
    rig = await startPaymentRig({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
    admin = await createAdmin(rig.t);
  });
  afterAll(() => rig.close());

  /** A worker registered through the API (a real password), with consent to go on call. */
  async function person() {
    const r = await registerWorker(rig.t, { display_name: 'Wang Fang', skills: ['photography'] });
    const worker: TestWorker = {
      id: r.workerId,
      phone: r.phone,
      jwt: r.accessToken,
      bearer: `Bearer ${r.accessToken}`,
    };
    await rig.t.http
      .post('/v1/worker/consents')
      .set('Authorization', worker.bearer)
      .send({ kind: 'precise_location' })
      .expect(200);
    return { ...r, worker };
  }
  const del = (w: TestWorker, password: string, prefix = '/v1') =>
    rig.t.http.post(`${prefix}/worker/delete-account`).set('Authorization', w.bearer).send({ password });

  /** Every text-like column of every table of the schema that holds `needle` (table.column). */
  async function columnsHolding(needle: string): Promise<string[]> {
    const cols: { table_name: string; column_name: string }[] = await rig.t.db.query(
      `SELECT c.table_name, c.column_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
          AND c.data_type IN ('text', 'character varying', 'character', 'jsonb', 'json', 'ARRAY')`,
    );
    const found: string[] = [];
    for (const c of cols) {
      const rows: unknown[] = await rig.t.db.query(
        `SELECT 1 FROM "${c.table_name}" WHERE "${c.column_name}"::text LIKE '%' || $1 || '%' LIMIT 1`,
        [needle],
      );
      if (rows.length > 0) found.push(`${c.table_name}.${c.column_name}`);
    }
    return found;
  }

  it('refuses while an assignment or a withdrawal is open, then erases the person and keeps the ledger', async () => {
    const { worker, phone, password } = await person();
    const at = spot();
    const agent = await createAgent(rig.t, { balanceCents: 100_000 });
    await rig.t.http
      .put('/v1/worker/availability')
      .set('Authorization', worker.bearer)
      .send({ online: true, ...at })
      .expect(200);
    const taskId = await createTask(rig.t, agent, {
      budget_cents: 50_000,
      location: { ...at, address: 'X' },
    });
    const assignmentId = await accept(rig.t, worker, taskId);

    // A task taken and not finished: refused, and nothing changed.
    expectError(await del(worker, password), 409, 'open_assignments');
    await act(rig.t, worker, assignmentId, 'start').expect(200);
    const photo = await uploadProof(rig.t, worker, await jpeg({ gps: at }));
    expect(photo.status).toBe(201);
    await submit(rig.t, worker, assignmentId, {
      result_data: { storefront: 'open' },
      device_location: { ...at, accuracy_m: 10, captured_at: rig.t.clock.now().toISOString() },
      photo_urls: [photo.body.url],
    }).expect(200);
    expectError(await del(worker, password), 409, 'open_assignments');
    await feedback(rig.t, agent, taskId, { accept_result: true }).expect(200);
    await rig.t.http
      .post(`/v1/worker/assignments/${assignmentId}/messages`)
      .set('Authorization', worker.bearer)
      .send({ body: 'Thanks, the shop was open' })
      .expect(201);

    // A withdrawal under review: refused; once the operator rejects it, deletion goes ahead.
    const wd = await rig.t.http
      .post('/v1/payment/withdraw')
      .set('Authorization', worker.bearer)
      .send({ amount_cents: 10_000, alipay_account: 'fang@example.com', real_name: '王芳' })
      .expect(200);
    expectError(await del(worker, password), 409, 'open_withdrawals');
    await rig.t.http
      .post(`/v1/admin/withdrawals/${wd.body.withdrawal_id}/reject`)
      .set('Authorization', admin.bearer)
      .send({ reason: 'Name does not match the account' })
      .expect(200);

    // A wrong password is refused and deletes nothing.
    expectError(await del(worker, 'not-my-password'), 401, 'invalid_credentials');
    // Before: the number is in the account and in the SMS records of its registration.
    expect(await columnsHolding(phone)).toEqual(
      expect.arrayContaining(['workers.phone_number', 'sms_codes.phone_number']),
    );

    const res = await del(worker, password, '/api/v1');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'deleted', deleted_at: expect.any(String) });

    // The phone number is nowhere in the database; nor are the name, the payee or the message's text.
    expect(await columnsHolding(phone)).toEqual([]);
    for (const gone of ['Wang Fang', 'Thanks, the shop was open'])
      expect(await columnsHolding(gone)).toEqual([]);
    // The payee is only in the hold, which no route reads (checked below).
    expect(await columnsHolding('fang@example.com')).toEqual(['withdrawal_identity_holds.payee_account']);
    const [w]: { account_status: string; display_name: string | null; deleted_at: Date | null }[] =
      await rig.t.db.query(`SELECT account_status, display_name, deleted_at FROM workers WHERE id = $1`, [
        worker.id,
      ]);
    expect(w).toMatchObject({ account_status: 'closed', display_name: null });
    expect(w.deleted_at).not.toBeNull();
    const counts = async (sql: string) => {
      const rows: unknown[] = await rig.t.db.query(sql, [worker.id]);
      return rows.length;
    };
    expect(await counts(`SELECT 1 FROM position_reports WHERE worker_id = $1`)).toBe(0);
    expect(await counts(`SELECT 1 FROM worker_availability WHERE worker_id = $1`)).toBe(0);
    expect(
      await counts(
        `SELECT 1 FROM uploads WHERE worker_id = $1 AND (latitude IS NOT NULL OR exif IS NOT NULL)`,
      ),
    ).toBe(0);
    expect(
      await counts(`SELECT 1 FROM assignments WHERE worker_id = $1 AND device_location IS NOT NULL`),
    ).toBe(0);
    expect(await counts(`SELECT 1 FROM worker_consents WHERE worker_id = $1 AND withdrawn_at IS NULL`)).toBe(
      0,
    );

    // Kept: the delivered work and the ledger under the id; the payee held hidden for the statutory period.
    const [a]: { status: string; result_data: unknown }[] = await rig.t.db.query(
      `SELECT status, result_data FROM assignments WHERE id = $1`,
      [assignmentId],
    );
    expect(a).toEqual({ status: 'approved', result_data: { storefront: 'open' } });
    const [hold]: { payee_name: string; years: number }[] = await rig.t.db.query(
      `SELECT h.payee_name, extract(year FROM age(h.held_until, w.created_at))::int AS years
         FROM withdrawal_identity_holds h JOIN withdrawals w ON w.id = h.withdrawal_id WHERE w.id = $1`,
      [wd.body.withdrawal_id],
    );
    expect(hold).toEqual({ payee_name: '王芳', years: 30 });
    const agentView = await rig.t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    expect(JSON.stringify(agentView.body)).not.toContain(phone);

    // The worker cannot sign in, and the session's tokens are refused.
    expectError(
      await rig.t.http.post('/v1/worker/login').send({ phone_number: phone, password }),
      401,
      'invalid_credentials',
    );
    expectError(
      await rig.t.http.get('/v1/worker/profile').set('Authorization', worker.bearer),
      403,
      'account_disabled',
    );
  });

  it('refuses while a dispute of the worker is undecided; erases its statement once decided, and the worker’s report of the task', async () => {
    const { worker, password } = await person();
    const at = spot();
    await rig.t.http
      .put('/v1/worker/availability')
      .set('Authorization', worker.bearer)
      .send({ online: true, ...at })
      .expect(200);
    const agent = await createAgent(rig.t, { balanceCents: 100_000 });
    const taskId = await createTask(rig.t, agent, {
      budget_cents: 20_000,
      location: { ...at, address: 'X' },
    });
    const assignmentId = await accept(rig.t, worker, taskId);
    await act(rig.t, worker, assignmentId, 'start').expect(200);
    await submit(rig.t, worker, assignmentId).expect(200);
    await feedback(rig.t, agent, taskId, {
      accept_result: false,
      reason_code: 'wrong_location',
      feedback_text: 'Not the shop',
    }).expect(200);
    const statement = 'The sign above the door reads 302, as the brief says.';
    const opened = await rig.t.http
      .post(`/v1/worker/assignments/${assignmentId}/dispute`)
      .set('Authorization', worker.bearer)
      .send({ statement })
      .expect(201);

    expectError(await del(worker, password), 409, 'open_disputes');
    await rig.t.http
      .post(`/v1/tasks/${taskId}/disputes/${opened.body.dispute_id}/response`)
      .set('Authorization', agent.key)
      .send({ statement: 'The brief says 300.' })
      .expect(200);
    await rig.t.http
      .post(`/v1/admin/disputes/${opened.body.dispute_id}/decision`)
      .set('Authorization', admin.bearer)
      .send({ outcome: 'upheld', note: 'The photo shows 300.' })
      .expect(200);

    // A report of the task, in the worker's words: erased with the account too.
    const report = 'The brief asks me to photograph people inside their homes.';
    await rig.t.http
      .post(`/v1/worker/tasks/${taskId}/report`)
      .set('Authorization', worker.bearer)
      .send({ reason: 'unsafe', note: report })
      .expect(201);

    expect(await columnsHolding(statement)).toEqual(['disputes.statement']);
    expect(await columnsHolding(report)).toEqual(['task_reports.note']);
    expect((await del(worker, password)).status).toBe(202);
    expect(await columnsHolding(statement)).toEqual([]);
    expect(await columnsHolding(report)).toEqual([]);
  });

  it('answers only the worker, with the right password, and validates the body', async () => {
    const { worker } = await person();
    const agent = await createAgent(rig.t);
    expectError(await del(worker, ''), 400, 'validation_error');
    expectError(
      await rig.t.http.post('/v1/worker/delete-account').set('Authorization', worker.bearer).send({}),
      400,
      'validation_error',
    );
    expectError(
      await rig.t.http
        .post('/v1/worker/delete-account')
        .set('Authorization', agent.key)
        .send({ password: 'x' }),
      403,
      'forbidden',
    );
    expectError(
      await rig.t.http.post('/v1/worker/delete-account').send({ password: 'x' }),
      401,
      'authentication_required',
    );
    // Still there: nothing of the refused requests deleted anything.
    await rig.t.http.get('/v1/worker/profile').set('Authorization', worker.bearer).expect(200);
  });
});
