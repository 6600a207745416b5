import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { inTransaction } from '../../src/database/transaction';
import { Accounts } from '../../src/escrow/accounts';
import { checkLedger } from '../../src/escrow/ledger-check';
import { InsufficientFundsError } from '../../src/escrow/journal';
import { Ledger } from '../../src/escrow/services/ledger';
import { createTestApp, TestApp } from '../support/app';
import { balanceOf } from '../support/balances';
import { databaseUrl } from '../support/databases';

/**
 * The two-statement journal writer (src/escrow/journal-writer.ts) under the races its single statements must
 * survive: an account created by another transaction while a journal is being claimed, transfers crossing in
 * opposite directions over the same accounts, and a debit refused with the other changes undone.
 */
describe('journal writer', () => {
  let t: TestApp;
  let ledger: Ledger;

  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
    ledger = t.app.get(Ledger);
  });
  afterAll(() => t.close());

  async function fundedAgent(cents: number): Promise<string> {
    const [{ id }]: { id: string }[] = await t.db.query(
      `INSERT INTO agents (email, password_hash) VALUES ($1, 'x') RETURNING id`,
      [`writer-${randomUUID()}@example.com`],
    );
    await inTransaction(t.db, (em) =>
      ledger.manualCredit(em, { agentId: id, amountCents: cents, creditKey: `seed:${id}`, reason: 'seed' }),
    );
    return id;
  }

  it('an account another transaction creates (and commits) while the journal is being claimed is found', async () => {
    const agentId = await fundedAgent(10_000);
    const workerId = randomUUID();
    const other = new Client({ connectionString: databaseUrl(t.databaseName) });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO ledger_accounts (code, kind, owner_id) VALUES ($1, 'worker_available', $2)`,
        [Accounts.workerAvailable(workerId).code, workerId],
      );
      const posting = inTransaction(t.db, (em) =>
        ledger.post(em, {
          reference: `test:${randomUUID()}`,
          kind: 'cancel_compensation',
          description: 'race',
          postings: [
            { account: Accounts.agentAvailable(agentId), amount: -3000 },
            { account: Accounts.workerAvailable(workerId), amount: 3000 },
          ],
        }),
      );
      // The post waits on the uncommitted account's unique key; committing it lets the post go on.
      await new Promise((r) => setTimeout(r, 300));
      await other.query('COMMIT');
      expect(await posting).toEqual({ journalId: expect.any(String) });
    } finally {
      await other.end();
    }
    expect(await balanceOf(t, Accounts.workerAvailable(workerId).code)).toBe(3000);
    expect(await balanceOf(t, Accounts.agentAvailable(agentId).code)).toBe(7000);
  });

  it('transfers crossing in both directions over the same accounts all complete, balances exact', async () => {
    const a = await fundedAgent(100_000);
    const b = await fundedAgent(100_000);
    const transfer = (from: string, to: string) =>
      inTransaction(t.db, (em) =>
        ledger.post(em, {
          reference: `test:${randomUUID()}`,
          kind: 'deposit',
          description: 'crossing',
          postings: [
            { account: Accounts.agentAvailable(from), amount: -100 },
            { account: Accounts.agentAvailable(to), amount: 100 },
          ],
        }),
      );
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? transfer(a, b) : transfer(b, a))),
    );
    expect(new Set(results.map((r) => r.journalId)).size).toBe(60);
    expect(await balanceOf(t, Accounts.agentAvailable(a).code)).toBe(100_000);
    expect(await balanceOf(t, Accounts.agentAvailable(b).code)).toBe(100_000);
  });

  it('a refused debit leaves nothing behind: no balance moved, no postings, the error names the account', async () => {
    const agentId = await fundedAgent(1000);
    const taskId = randomUUID();
    const reference = `test:${randomUUID()}`;
    const failed = inTransaction(t.db, (em) =>
      ledger.post(em, {
        reference,
        kind: 'escrow_hold',
        description: 'too much',
        postings: [
          { account: Accounts.taskEscrow(taskId, agentId), amount: 1500 },
          { account: Accounts.agentAvailable(agentId), amount: -1500 },
        ],
      }),
    );
    await expect(failed).rejects.toBeInstanceOf(InsufficientFundsError);
    await expect(failed).rejects.toMatchObject({ balance: 1000, required: 1500 });
    expect(await balanceOf(t, Accounts.agentAvailable(agentId).code)).toBe(1000);
    const journals: unknown[] = await t.db.query(`SELECT 1 FROM ledger_journals WHERE reference = $1`, [
      reference,
    ]);
    expect(journals).toHaveLength(0);
    expect((await checkLedger(t.db)).violations).toEqual([]);
  });
});
