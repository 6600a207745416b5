import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, TEST_ENV, TestApp } from '../support/app';
import { databaseUrl } from '../support/databases';
import { createAgent, createWorker, TestAgent, uniqueKey } from '../support/actors';
import { createAdmin, TestAdmin } from '../support/admins';
import { taskBody } from '../support/tasks';
import { IdempotencyStore } from '../../src/idempotency/idempotency.store';

const run = promisify(execFile);

/**
 * Runs a TypeScript entry point in a child node process, transpiled on load as ts-jest does (no type check,
 * CommonJS, decorators), so the CLI is tested from its source without a build.
 */
function nodeTs(entry: string): string[] {
  const hook = `
    const fs = require('node:fs');
    const ts = require('typescript');
    require.extensions['.ts'] = (module, filename) => {
      const out = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
        fileName: filename,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true,
                           experimentalDecorators: true, emitDecoratorMetadata: true },
      });
      module._compile(out.outputText, filename);
    };
    require(${JSON.stringify(entry)});`;
  return ['-e', hook];
}

describe('operator credits and the ledger report', () => {
  let t: TestApp;
  let admin: TestAdmin;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
  });
  afterAll(() => t.close());

  const credit = (agentId: string, body: object, key?: string) => {
    const req = t.http.post(`/v1/admin/agents/${agentId}/credit`).set('Authorization', admin.bearer);
    if (key !== undefined) req.set('Idempotency-Key', key);
    return req.send(body);
  };
  const balanceOf = async (agent: TestAgent): Promise<number> =>
    (await t.http.get('/v1/payment/balance').set('Authorization', agent.key).expect(200)).body.balance_cents;
  const depositsOf = async (agent: TestAgent) =>
    (
      await t.http.get('/v1/agent/transactions').set('Authorization', agent.bearer).expect(200)
    ).body.data.filter((r: { type: string }) => r.type === 'deposit');

  it('credits the balance as a deposit transaction and records the operator', async () => {
    const agent = await createAgent(t, { balanceCents: 1000 });
    const res = await credit(agent.id, { amount_cents: 250000, reason: 'Bank transfer ref 42' }).expect(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.body).toEqual({
      transaction_id: expect.stringMatching(/^txn_\d+$/),
      agent_id: agent.id,
      amount_cents: 250000,
      reason: 'Bank transfer ref 42',
      balance_cents: 251000,
      balance_rmb: 2510,
      credited_by: admin.id,
      created_at: expect.any(String),
    });
    expect(await balanceOf(agent)).toBe(251000);
    const [latest] = await depositsOf(agent);
    expect(latest).toMatchObject({
      transaction_id: res.body.transaction_id,
      type: 'deposit',
      direction: 'credit',
      amount: 250000,
      status: 'completed',
      description: 'Manual credit: Bank transfer ref 42',
    });
    const audit = await t.db.query(`SELECT admin_id, reason FROM admin_credits WHERE agent_id = $1`, [
      agent.id,
    ]);
    expect(audit).toEqual([{ admin_id: admin.id, reason: 'Bank transfer ref 42' }]);
  });

  it.each([
    ['amount 0', { amount_cents: 0, reason: 'x' }, 'amount_cents'],
    ['amount over 100,000,000', { amount_cents: 100_000_001, reason: 'x' }, 'amount_cents'],
    ['a fractional amount', { amount_cents: 10.5, reason: 'x' }, 'amount_cents'],
    ['an amount as a string', { amount_cents: '100', reason: 'x' }, 'amount_cents'],
    ['no amount', { reason: 'x' }, 'amount_cents'],
    ['no reason', { amount_cents: 100 }, 'reason'],
    ['an empty reason', { amount_cents: 100, reason: '' }, 'reason'],
    ['a blank reason', { amount_cents: 100, reason: '   ' }, 'reason'],
    ['a 501-character reason', { amount_cents: 100, reason: 'x'.repeat(501) }, 'reason'],
    ['an unknown field', { amount_cents: 100, reason: 'x', currency: 'USD' }, 'currency'],
  ])('refuses %s with 400 validation_error', async (_label, body, field) => {
    const agent = await createAgent(t);
    const res = await credit(agent.id, body).expect(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await balanceOf(agent)).toBe(0);
  });

  it('accepts the bounds 1 and 100,000,000 and a 500-character reason', async () => {
    const agent = await createAgent(t);
    await credit(agent.id, { amount_cents: 1, reason: 'r'.repeat(500) }).expect(201);
    await credit(agent.id, { amount_cents: 100_000_000, reason: 'max' }).expect(201);
    expect(await balanceOf(agent)).toBe(100_000_001);
  });

  it('an unknown agent is 404 not_found; a malformed id is 400', async () => {
    const res = await credit(randomUUID(), { amount_cents: 100, reason: 'x' }).expect(404);
    expect(res.body.error.code).toBe('not_found');
    const bad = await credit('not-a-uuid', { amount_cents: 100, reason: 'x' }).expect(400);
    expect(bad.body.error.details[0].field).toBe('id');
  });

  it('only operators may credit: agents and workers get 403, no credential 401', async () => {
    const agent = await createAgent(t);
    const worker = await createWorker(t);
    for (const auth of [agent.bearer, agent.key, worker.bearer]) {
      const res = await t.http
        .post(`/v1/admin/agents/${agent.id}/credit`)
        .set('Authorization', auth)
        .send({ amount_cents: 100, reason: 'self-service' })
        .expect(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    await t.http
      .post(`/v1/admin/agents/${agent.id}/credit`)
      .send({ amount_cents: 100, reason: 'x' })
      .expect(401);
    expect(await balanceOf(agent)).toBe(0);
  });

  it('10 concurrent requests with one Idempotency-Key credit once and all answer the same body', async () => {
    const agent = await createAgent(t);
    const key = uniqueKey();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => credit(agent.id, { amount_cents: 7000, reason: 'wire' }, key)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    for (const r of results) expect(r.body).toEqual(results[0].body);
    expect(results[0].body.balance_cents).toBe(7000);
    expect(await balanceOf(agent)).toBe(7000);
    expect(await depositsOf(agent)).toHaveLength(1);

    // A later repeat replays too; the same key with another amount is a conflict.
    const again = await credit(agent.id, { amount_cents: 7000, reason: 'wire' }, key).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(results[0].body);
    const conflict = await credit(agent.id, { amount_cents: 7001, reason: 'wire' }, key).expect(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
    expect(await balanceOf(agent)).toBe(7000);
  });

  it('without a key every call is a new credit; a key is scoped to the agent', async () => {
    const a = await createAgent(t);
    const b = await createAgent(t);
    await credit(a.id, { amount_cents: 100, reason: 'x' }).expect(201);
    await credit(a.id, { amount_cents: 100, reason: 'x' }).expect(201);
    expect(await balanceOf(a)).toBe(200);
    const key = uniqueKey();
    await credit(a.id, { amount_cents: 300, reason: 'y' }, key).expect(201);
    await credit(b.id, { amount_cents: 300, reason: 'y' }, key).expect(201);
    expect(await balanceOf(a)).toBe(500);
    expect(await balanceOf(b)).toBe(300);
  });

  it("a credit's key is kept for good and is not one of the agent's own Idempotency-Keys", async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const key = uniqueKey();
    const first = await credit(agent.id, { amount_cents: 400, reason: 'wire 7' }, key).expect(201);
    // The agent's own request with the same key string is its own key: it runs.
    await t.http
      .post('/v1/tasks/create')
      .set('Authorization', agent.key)
      .set('Idempotency-Key', key)
      .send(taskBody(t))
      .expect(201);
    // Past the 24 hours of request keys, and after their purge, the credit still replays.
    t.clock.advance(25 * 3_600_000);
    try {
      await t.app.get(IdempotencyStore).purgeExpired();
      const operator = await createAdmin(t);
      const again = await t.http
        .post(`/v1/admin/agents/${agent.id}/credit`)
        .set('Authorization', operator.bearer)
        .set('Idempotency-Key', key)
        .send({ amount_cents: 400, reason: 'wire 7' })
        .expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
    } finally {
      t.clock.advance(-25 * 3_600_000);
    }
    expect(await balanceOf(agent)).toBe(400);
  });

  it('refuses an Idempotency-Key over 255 characters', async () => {
    const agent = await createAgent(t);
    const res = await credit(agent.id, { amount_cents: 100, reason: 'x' }, 'k'.repeat(256)).expect(400);
    expect(res.body.error.details[0].field).toBe('Idempotency-Key');
  });

  it('GET /v1/admin/ledger/check reports the invariants, and a corruption while it lasts', async () => {
    const ok = await t.http.get('/v1/admin/ledger/check').set('Authorization', admin.bearer).expect(200);
    expect(ok.body).toEqual({
      ok: true,
      checked_at: expect.any(String),
      accounts: expect.any(Number),
      journals: expect.any(Number),
      violations: [],
    });
    expect(ok.body.journals).toBeGreaterThan(0);

    const agent = await createAgent(t, { balanceCents: 500 });
    const code = `agent:${agent.id}:available`;
    await t.db.query(`UPDATE ledger_accounts SET balance = balance + 1 WHERE code = $1`, [code]);
    try {
      const bad = await t.http.get('/v1/admin/ledger/check').set('Authorization', admin.bearer).expect(200);
      expect(bad.body.ok).toBe(false);
      expect(bad.body.violations).toEqual(
        expect.arrayContaining([
          {
            invariant: 'cached balance equals the sum of postings',
            detail: `${code}: cached 501, postings 500`,
          },
        ]),
      );
    } finally {
      await t.db.query(`UPDATE ledger_accounts SET balance = balance - 1 WHERE code = $1`, [code]);
    }
    const agentTry = await t.http
      .get('/v1/admin/ledger/check')
      .set('Authorization', agent.bearer)
      .expect(403);
    expect(agentTry.body.error.code).toBe('forbidden');
  });

  it('npm run ledger:check (the CLI) prints the report: exit 0 on a sound ledger, 1 on a violation', async () => {
    const root = join(__dirname, '..', '..');
    const cli = () =>
      run(process.execPath, nodeTs(join(root, 'src/escrow/ledger-check.cli.ts')), {
        cwd: root,
        env: { ...process.env, ...TEST_ENV, DATABASE_URL: databaseUrl(t.databaseName) },
      });
    const agent = await createAgent(t, { balanceCents: 500 });
    const { stdout } = await cli();
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ ok: true, violations: [] });
    expect(report.journals).toBeGreaterThan(0);

    const code = `agent:${agent.id}:available`;
    await t.db.query(`UPDATE ledger_accounts SET balance = balance - 1 WHERE code = $1`, [code]);
    try {
      const failed = await cli().then(
        () => null,
        (err: { code: number; stdout: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(JSON.parse(failed!.stdout).ok).toBe(false);
    } finally {
      await t.db.query(`UPDATE ledger_accounts SET balance = balance + 1 WHERE code = $1`, [code]);
    }
  });
});
