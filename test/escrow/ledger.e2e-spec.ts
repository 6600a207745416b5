import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../src/common/errors/api-error';
import { inTransaction } from '../../src/database/transaction';
import { Accounts } from '../../src/escrow/accounts';
import { checkLedger } from '../../src/escrow/ledger-check';
import { Ledger } from '../../src/escrow/services/ledger';
import { createTestApp, TestApp } from '../support/app';

/** The ledger on real PostgreSQL, through the service API (task creation builds on exactly these calls). */
describe('ledger', () => {
  let t: TestApp;
  let ledger: Ledger;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    ledger = t.app.get(Ledger);
    db = t.db;
  });
  afterAll(() => t.close());

  async function newAgent(balance: number): Promise<string> {
    const [{ id }]: { id: string }[] = await db.query(
      `INSERT INTO agents (email, password_hash) VALUES ($1, 'x') RETURNING id`,
      [`ledger-${randomUUID()}@example.com`],
    );
    if (balance > 0) {
      await inTransaction(db, (em) =>
        ledger.deposit(em, {
          agentId: id,
          amountCents: balance,
          provider: 'bank',
          reference: `test:${id}:seed`,
          description: 'seed',
        }),
      );
    }
    return id;
  }

  const balanceOf = (code: string) =>
    db
      .query(`SELECT balance FROM ledger_accounts WHERE code = $1`, [code])
      .then((r: { balance: string }[]) => Number(r[0]?.balance ?? 0));

  it('an agent covering exactly N holds gets exactly N of 4N concurrent holds; the rest are insufficient_balance', async () => {
    const N = 10;
    const cost = 1500;
    const agentId = await newAgent(N * cost);
    const results = await Promise.allSettled(
      Array.from({ length: 4 * N }, () =>
        inTransaction(db, (em) => {
          const taskId = randomUUID();
          return ledger.holdTaskEscrow(em, {
            agentId,
            taskId,
            amountCents: cost,
            reference: `task:${taskId}:hold`,
            description: 'hold',
          });
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(N);
    expect(refused).toHaveLength(3 * N);
    for (const r of refused) {
      const err = r.reason as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect(err.code).toBe('insufficient_balance');
      expect(err.extra).toEqual({ balance_cents: expect.any(Number), required_cents: cost });
    }
    expect(await balanceOf(Accounts.agentAvailable(agentId).code)).toBe(0);
    expect((await checkLedger(db)).violations).toEqual([]);
  });

  it('the same release fired concurrently posts once', async () => {
    const agentId = await newAgent(5000);
    const taskId = randomUUID();
    const workerId = randomUUID();
    await inTransaction(db, (em) =>
      ledger.holdTaskEscrow(em, {
        agentId,
        taskId,
        amountCents: 5000,
        reference: `task:${taskId}:hold`,
        description: 'hold',
      }),
    );
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        inTransaction(db, (em) =>
          ledger.releaseSlot(em, {
            agentId,
            taskId,
            workerId,
            payoutCents: 4500,
            feeCents: 500,
            reference: `slot:${taskId}:0:release`,
            description: 'release',
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.posted)).toHaveLength(1);
    expect(await balanceOf(Accounts.workerAvailable(workerId).code)).toBe(4500);
    expect(await balanceOf(Accounts.taskEscrow(taskId, agentId).code)).toBe(0);
  });

  it('the same refund fired concurrently posts once and never overdraws escrow', async () => {
    const agentId = await newAgent(3000);
    const taskId = randomUUID();
    await inTransaction(db, (em) =>
      ledger.holdTaskEscrow(em, {
        agentId,
        taskId,
        amountCents: 3000,
        reference: `task:${taskId}:hold`,
        description: 'hold',
      }),
    );
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        inTransaction(db, (em) =>
          ledger.refundSlot(em, {
            agentId,
            taskId,
            amountCents: 3000,
            reference: `slot:${taskId}:0:refund`,
            description: 'refund',
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.posted)).toHaveLength(1);
    expect(await balanceOf(Accounts.agentAvailable(agentId).code)).toBe(3000);
  });

  it('history is append-only and journals must balance (enforced by the database)', async () => {
    await expect(db.query(`UPDATE ledger_postings SET amount = amount + 1`)).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM ledger_journals`)).rejects.toThrow(/append-only/);
    await expect(
      inTransaction(db, async (em) => {
        const [{ id }]: { id: string }[] = await em.query(
          `INSERT INTO ledger_journals (reference, kind, description, created_at) VALUES ($1, 'deposit', 'bad', now()) RETURNING id`,
          [`bad:${randomUUID()}`],
        );
        const [{ id: acc }]: { id: string }[] = await em.query(`SELECT id FROM ledger_accounts LIMIT 1`);
        await em.query(`INSERT INTO ledger_postings (journal_id, account_id, amount) VALUES ($1, $2, 7)`, [
          id,
          acc,
        ]);
      }),
    ).rejects.toThrow(/does not balance/);
  });

  it('the invariant check catches a corrupted cached balance', async () => {
    const agentId = await newAgent(2000);
    const code = Accounts.agentAvailable(agentId).code;
    await db.query(`UPDATE ledger_accounts SET balance = balance + 1 WHERE code = $1`, [code]);
    const report = await checkLedger(db);
    expect(report.ok).toBe(false);
    expect(report.violations.map((v) => v.invariant)).toEqual(
      expect.arrayContaining(['all balances sum to zero', 'cached balance equals the sum of postings']),
    );
    await db.query(`UPDATE ledger_accounts SET balance = balance - 1 WHERE code = $1`, [code]);
    expect((await checkLedger(db)).ok).toBe(true);
  });
});
