import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { IdempotencyScopes1732200040000 } from '../../migrations/1732200040000-idempotency-scopes';
import { PERMISSIONS } from '../../src/common/actor';
import { generateApiKey } from '../../src/auth/api-keys';
import { requestHash } from '../../src/idempotency/canonical-json';
import { dataSourceOptions } from '../../src/database/data-source';
import { createAdmin } from '../support/admins';
import { expectError } from '../support/errors';
import { taskBody } from '../support/tasks';
import { createTestApp, TestApp } from '../support/app';
import { databaseUrl, dropDatabase, templateName, withServer } from '../support/databases';

/**
 * The migration that moved the body idempotency_key of task creation (tasks.idempotency_key) and an operator
 * credit's key (its journal reference) into the idempotency store: keys written before it must replay as they did,
 * through the API, and its down migration must give the tasks their keys back.
 */
describe('migration: idempotency key scopes', () => {
  const name = `${templateName()}_m${randomBytes(4).toString('hex')}`;
  const url = databaseUrl(name);
  const index = MIGRATIONS.indexOf(IdempotencyScopes1732200040000);
  let t: TestApp | undefined;

  const legacy = {
    agentId: '',
    apiKey: generateApiKey('lw_test_'),
    taskId: '',
    taskKey: `legacy-${randomUUID()}`,
    creditKey: `legacy-credit-${randomUUID()}`,
    journalId: '',
    adminId: '',
  };

  async function migrate(migrations: typeof MIGRATIONS): Promise<DataSource> {
    const ds = new DataSource({ ...dataSourceOptions(url, 2), migrations });
    await ds.initialize();
    await ds.runMigrations({ transaction: 'each' });
    return ds;
  }

  beforeAll(async () => {
    await withServer((c) => c.query(`CREATE DATABASE ${name}`));
    const old = await migrate(MIGRATIONS.slice(0, index));
    try {
      await seedLegacy(old);
    } finally {
      await old.destroy();
    }
    await (await migrate(MIGRATIONS)).destroy();
    t = await createTestApp({}, { databaseName: name });
  });

  afterAll(async () => {
    await t?.close();
    await dropDatabase(name);
  });

  /** What the code before the migration wrote: a task created with a body key, a credit made with a key. */
  async function seedLegacy(db: DataSource): Promise<void> {
    const [agent]: { id: string }[] = await db.query(
      `INSERT INTO agents (email, password_hash) VALUES ($1, 'x') RETURNING id`,
      [`legacy-${randomUUID()}@example.com`],
    );
    legacy.agentId = agent.id;
    const k = legacy.apiKey;
    await db.query(
      `INSERT INTO api_keys (agent_id, key_hash, secret_hash, prefix, name, permissions)
       VALUES ($1, $2, $3, $4, 'legacy', $5)`,
      [agent.id, k.keyHash, k.secretHash, k.prefix, [...PERMISSIONS]],
    );
    const [task]: { id: string }[] = await db.query(
      `INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, budget_cents, max_workers,
                          fee_bps, payout_cents, fee_cents, total_cents, status, idempotency_key,
                          idempotency_request_hash, deadline_at, estimated_completion_at, created_at, updated_at)
       VALUES ($1, 'legacy', 'legacy', 'photo', 31.23, 121.47, 5000, 2, 1000, 4500, 500, 10000, 'cancelled', $2, $3,
               '2030-01-02T00:00:00.123456Z', '2030-01-01T10:00:00.987654Z', '2029-12-31T08:00:00.5Z', now())
       RETURNING id`,
      [agent.id, legacy.taskKey, requestHash('create-task', legacyBody())],
    );
    legacy.taskId = task.id;
    const [admin]: { id: string }[] = await db.query(
      `INSERT INTO admins (email, password_hash) VALUES ($1, 'x') RETURNING id`,
      [`legacy-ops-${randomUUID()}@example.com`],
    );
    legacy.adminId = admin.id;
    legacy.journalId = await legacyCredit(db, agent.id, admin.id);
  }

  /** A deposit of 7000 from the bank clearing account under the key's journal reference, with its audit row. */
  async function legacyCredit(db: DataSource, agentId: string, adminId: string): Promise<string> {
    await db.query(
      `INSERT INTO ledger_accounts (code, kind, owner_id, agent_id) VALUES
         ('provider:bank:clearing', 'provider_clearing', NULL, NULL), ($1, 'agent_available', $2, $2)
       ON CONFLICT (code) DO NOTHING`,
      [`agent:${agentId}:available`, agentId],
    );
    const [journal]: { id: string }[] = await db.query(
      `INSERT INTO ledger_journals (reference, kind, agent_id, description, created_at)
       VALUES ($1, 'deposit', $2, 'Manual credit: wire "7"', now()) RETURNING id`,
      [`admin-credit:${agentId}:${legacy.creditKey}`, agentId],
    );
    await db.query(
      `WITH moved AS (
         UPDATE ledger_accounts SET balance = balance + CASE WHEN kind = 'provider_clearing' THEN -7000 ELSE 7000 END
          WHERE code IN ('provider:bank:clearing', $2) RETURNING id, kind)
       INSERT INTO ledger_postings (journal_id, account_id, amount)
       SELECT $1, id, CASE WHEN kind = 'provider_clearing' THEN -7000 ELSE 7000 END FROM moved`,
      [journal.id, `agent:${agentId}:available`],
    );
    await db.query(
      `INSERT INTO admin_credits (journal_id, admin_id, agent_id, amount_cents, reason, idempotency_key,
                                  balance_after_cents, created_at)
       VALUES ($1, $2, $3, 7000, 'wire "7"', $4, 7000, '2029-12-31T09:00:00.25Z')`,
      [journal.id, adminId, agentId, legacy.creditKey],
    );
    return String(journal.id);
  }

  function legacyBody(): Record<string, unknown> {
    return {
      title: 'legacy',
      description: 'legacy',
      location: { latitude: 31.23, longitude: 121.47 },
      budget_cents: 5000,
      max_workers: 2,
      deadline_at: '2030-01-02T00:00:00.123Z',
      task_type: 'photo',
      idempotency_key: legacy.taskKey,
    };
  }

  it('a body key used before the migration replays its task (the original 201 body); another body is 409', async () => {
    const app = t!;
    const create = (body: Record<string, unknown>) =>
      app.http.post('/v1/tasks/create').set('Authorization', `Bearer ${legacy.apiKey.apiKey}`).send(body);
    const res = await create(legacyBody()).expect(201);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(res.body).toEqual({
      task_id: legacy.taskId,
      status: 'pending',
      estimated_completion_at: '2030-01-01T10:00:00.987Z',
      cost_breakdown: { worker_payout_cents: 9000, platform_fee_cents: 1000, total_cents: 10000 },
      created_at: '2029-12-31T08:00:00.500Z',
    });
    const other = await create({ ...taskBody(app), idempotency_key: legacy.taskKey });
    expectError(other, 409, 'idempotency_conflict');
    expect(other.body.error.task_id).toBe(legacy.taskId);
  });

  it('a credit key used before the migration replays its credit; another amount is 409; nothing is credited', async () => {
    const app = t!;
    const operator = await createAdmin(app);
    const credit = (amount: number) =>
      app.http
        .post(`/v1/admin/agents/${legacy.agentId}/credit`)
        .set('Authorization', operator.bearer)
        .set('Idempotency-Key', legacy.creditKey)
        .send({ amount_cents: amount, reason: 'wire "7"' });
    const res = await credit(7000).expect(201);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(res.body).toEqual({
      transaction_id: `txn_${legacy.journalId}`,
      agent_id: legacy.agentId,
      amount_cents: 7000,
      reason: 'wire "7"',
      balance_cents: 7000,
      balance_rmb: 70,
      credited_by: legacy.adminId,
      created_at: '2029-12-31T09:00:00.250Z',
    });
    expectError(await credit(7001), 409, 'idempotency_conflict');
    const [{ n }]: { n: number }[] = await app.db.query(
      `SELECT count(*)::int AS n FROM admin_credits WHERE agent_id = $1`,
      [legacy.agentId],
    );
    expect(n).toBe(1);
  });

  it('down gives the tasks their body keys back and leaves only request keys', async () => {
    await t!.close();
    t = undefined;
    const ds = new DataSource(dataSourceOptions(url, 2));
    await ds.initialize();
    try {
      // This migration and any after it.
      for (let i = index; i < MIGRATIONS.length; i++) await ds.undoLastMigration({ transaction: 'each' });
      const [task]: { idempotency_key: string; idempotency_request_hash: string }[] = await ds.query(
        `SELECT idempotency_key, idempotency_request_hash FROM tasks WHERE id = $1`,
        [legacy.taskId],
      );
      expect(task).toEqual({
        idempotency_key: legacy.taskKey,
        idempotency_request_hash: requestHash('create-task', legacyBody()),
      });
      const scopes: unknown[] = await ds.query(
        `SELECT 1 FROM information_schema.columns WHERE table_name = 'idempotency_keys' AND column_name = 'scope'`,
      );
      expect(scopes).toHaveLength(0);
    } finally {
      await ds.destroy();
    }
  });
});
