import { randomUUID } from 'node:crypto';
import { generateApiKey } from '../../src/auth/api-keys';
import { inTransaction } from '../../src/database/transaction';
import { Ledger } from '../../src/escrow/services/ledger';
import { createTestApp, TestApp } from '../support/app';
import { createAgent, createWorker, TestAgent } from '../support/actors';
import { createAdmin } from '../support/admins';
import { seedTask } from '../support/seed-tasks';
import { AuthCache } from '../../src/auth/auth-cache';

describe('balances on each surface', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const reference = (agent: TestAgent, auth = agent.key, secret: string | null = agent.apiSecret) => {
    const req = t.http.get('/api/v1/payment/balance').set('Authorization', auth);
    return secret === null ? req : req.set('X-API-Secret', secret);
  };

  describe('GET /v1/payment/balance (short form)', () => {
    it('answers the available balance in cents and RMB, with the API key or the JWT', async () => {
      const agent = await createAgent(t, { balanceCents: 12345 });
      await seedTask(t, agent.id, { budgetCents: 2000 });
      for (const auth of [agent.key, agent.bearer]) {
        const res = await t.http.get('/v1/payment/balance').set('Authorization', auth).expect(200);
        expect(res.body).toEqual({ balance_cents: 10345, balance_rmb: 103.45, owed_cents: 0 });
      }
    });

    it('a key without payment:read is 403 insufficient_permissions naming it', async () => {
      const agent = await createAgent(t, { permissions: ['task:read', 'task:create'] });
      const res = await t.http.get('/v1/payment/balance').set('Authorization', agent.key).expect(403);
      expect(res.body.error).toMatchObject({
        code: 'insufficient_permissions',
        required_permission: 'payment:read',
      });
    });

    it('workers and operators are 403, no credential is 401', async () => {
      const worker = await createWorker(t);
      const admin = await createAdmin(t);
      for (const auth of [worker.bearer, admin.bearer]) {
        const res = await t.http.get('/v1/payment/balance').set('Authorization', auth).expect(403);
        expect(res.body.error.code).toBe('forbidden');
      }
      const res = await t.http.get('/v1/payment/balance').expect(401);
      expect(res.body.error.code).toBe('authentication_required');
    });
  });

  describe('GET /api/v1/payment/balance (reference form, X-API-Secret)', () => {
    it('reports balance, escrow and lifetime spending from the ledger', async () => {
      const agent = await createAgent(t, { balanceCents: 100000 });
      const pending = await seedTask(t, agent.id, { status: 'pending', budgetCents: 3000, maxWorkers: 2 });
      const live = await seedTask(t, agent.id, { status: 'in_progress', budgetCents: 1500 });
      const done = await seedTask(t, agent.id, { status: 'completed', budgetCents: 5000, maxWorkers: 2 });
      const cancelled = await seedTask(t, agent.id, { status: 'cancelled', budgetCents: 2000 });
      const failed = await seedTask(t, agent.id, { status: 'failed', budgetCents: 4000 });
      const escrow = pending.totalCents + live.totalCents;
      const spent = done.spentCents + cancelled.spentCents;
      expect(spent).toBe(10000 + 600);
      const available =
        100000 - escrow - done.totalCents - cancelled.totalCents + (2000 - 600) - failed.totalCents + 4000;

      const res = await reference(agent).expect(200);
      expect(res.body).toEqual({
        balance_cents: available,
        balance_rmb: available / 100,
        owed_cents: 0,
        currency: 'CNY',
        escrow_cents: escrow,
        escrow_rmb: escrow / 100,
        lifetime_spent_cents: spent,
        lifetime_spent_rmb: spent / 100,
        last_updated: expect.any(String),
      });
      const [{ latest }]: { latest: Date }[] = await t.db.query(
        `SELECT max(created_at) AS latest FROM ledger_journals WHERE agent_id = $1`,
        [agent.id],
      );
      expect(res.body.last_updated).toBe(latest.toISOString());
      // The JWT works as the bearer too, with the same secret.
      expect((await reference(agent, agent.bearer).expect(200)).body).toEqual(res.body);
    });

    it('a new agent has zeros and last_updated at sign-up', async () => {
      const agent = await createAgent(t);
      const res = await reference(agent).expect(200);
      const [{ created_at }]: { created_at: Date }[] = await t.db.query(
        `SELECT created_at FROM agents WHERE id = $1`,
        [agent.id],
      );
      expect(res.body).toMatchObject({ balance_cents: 0, escrow_cents: 0, lifetime_spent_cents: 0 });
      expect(res.body.last_updated).toBe(created_at.toISOString());
    });

    it('a missing, wrong or foreign X-API-Secret is 401 invalid_credentials, with a key or a JWT', async () => {
      const agent = await createAgent(t, { balanceCents: 100 });
      const other = await createAgent(t);
      for (const auth of [agent.key, agent.bearer]) {
        for (const secret of [null, '', 'lws_wrong', other.apiSecret, agent.apiKey, `${agent.apiSecret}x`]) {
          const res = await reference(agent, auth, secret).expect(401);
          expect(res.body.error.code).toBe('invalid_credentials');
        }
      }
      // The machine-readable surface does not ask for a secret.
      await t.http.get('/v1/payment/balance').set('Authorization', agent.key).expect(200);
    });

    it('a wrong bearer stays invalid_api_key; a disabled or rotated key takes its secret with it', async () => {
      const agent = await createAgent(t);
      const bad = await reference(agent, 'Bearer lw_test_nope').expect(401);
      expect(bad.body.error.code).toBe('invalid_api_key');

      await t.db.query(`UPDATE api_keys SET is_active = false WHERE id = $1`, [agent.keyId]);
      // Plain SQL, not the API: wait until the credential cache has the trigger's notification.
      await t.app.get(AuthCache).settled();
      const disabled = await reference(agent, agent.bearer).expect(401);
      expect(disabled.body.error.code).toBe('invalid_credentials');

      const rotated = generateApiKey(t.config.apiKeyPrefix);
      await t.db.query(
        `UPDATE api_keys SET key_hash = $2, secret_hash = $3, prefix = $4, is_active = true WHERE id = $1`,
        [agent.keyId, rotated.keyHash, rotated.secretHash, rotated.prefix],
      );
      expect((await reference(agent, agent.bearer).expect(401)).body.error.code).toBe('invalid_credentials');
      await reference(agent, agent.bearer, rotated.apiSecret).expect(200);
      await reference(agent, `Bearer ${rotated.apiKey}`, rotated.apiSecret).expect(200);
    });

    it('a key without payment:read is 403 even with the right secret; workers are 403', async () => {
      const agent = await createAgent(t, { permissions: ['task:read'] });
      const res = await reference(agent).expect(403);
      expect(res.body.error).toMatchObject({
        code: 'insufficient_permissions',
        required_permission: 'payment:read',
      });
      const worker = await createWorker(t);
      const w = await t.http.get('/api/v1/payment/balance').set('Authorization', worker.bearer).expect(403);
      expect(w.body.error.code).toBe('forbidden');
    });
  });

  describe('GET /v1/worker/balance', () => {
    it('shows earnings and the amount being withdrawn', async () => {
      const worker = await createWorker(t);
      const agent = await createAgent(t, { balanceCents: 50000 });
      const done = await seedTask(t, agent.id, {
        status: 'completed',
        budgetCents: 5000,
        maxWorkers: 2,
        workerId: worker.id,
      });
      const payout = (done.budgetCents - 500) * 2;
      const empty = await t.http.get('/v1/worker/balance').set('Authorization', worker.bearer).expect(200);
      expect(empty.body).toEqual({
        balance_cents: payout,
        balance_rmb: payout / 100,
        withdrawing_cents: 0,
        withdrawing_rmb: 0,
        currency: 'CNY',
      });

      const ledger = t.app.get(Ledger);
      await inTransaction(t.db, (em) =>
        ledger.startWithdrawal(em, {
          workerId: worker.id,
          withdrawalId: `wd_${randomUUID()}`,
          amountCents: 1234,
          description: 'test withdrawal',
        }),
      );
      const res = await t.http.get('/v1/worker/balance').set('Authorization', worker.bearer).expect(200);
      const api = await t.http.get('/api/v1/worker/balance').set('Authorization', worker.bearer).expect(200);
      expect(api.body).toEqual(res.body);
      expect(res.body).toEqual({
        balance_cents: payout - 1234,
        balance_rmb: (payout - 1234) / 100,
        withdrawing_cents: 1234,
        withdrawing_rmb: 12.34,
        currency: 'CNY',
      });
    });

    it('a new worker has zero; agents and operators are 403', async () => {
      const worker = await createWorker(t);
      const res = await t.http.get('/v1/worker/balance').set('Authorization', worker.bearer).expect(200);
      expect(res.body).toMatchObject({ balance_cents: 0, withdrawing_cents: 0 });
      const agent = await createAgent(t);
      const admin = await createAdmin(t);
      for (const auth of [agent.key, agent.bearer, admin.bearer]) {
        const r = await t.http.get('/v1/worker/balance').set('Authorization', auth).expect(403);
        expect(r.body.error.code).toBe('forbidden');
      }
    });
  });
});
