import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../src/common/errors/api-error';
import { inTransaction } from '../../src/database/transaction';
import { Accounts } from '../../src/escrow/accounts';
import { checkLedger } from '../../src/escrow/ledger-check';
import { DuplicateJournalError } from '../../src/escrow/journal';
import { JournalRefs } from '../../src/escrow/journal-refs';
import { Ledger } from '../../src/escrow/services/ledger';
import { createAgent, createWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { balanceOf } from '../support/balances';
import { accept, createTask, submit } from '../support/tasks';

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
        ledger.manualCredit(em, {
          agentId: id,
          amountCents: balance,
          creditKey: randomUUID(),
          reason: 'seed',
        }),
      );
    }
    return id;
  }

  const journalCount = (reference: string) =>
    db
      .query(`SELECT count(*)::int AS n FROM ledger_journals WHERE reference = $1`, [reference])
      .then((r: { n: number }[]) => r[0].n);

  async function heldTask(agentId: string, cents: number): Promise<string> {
    const taskId = randomUUID();
    await inTransaction(db, (em) => ledger.holdTaskEscrow(em, { agentId, taskId, amountCents: cents }));
    return taskId;
  }

  it('an agent covering exactly N holds gets exactly N of 4N concurrent holds; the rest are insufficient_balance', async () => {
    const N = 10;
    const cost = 1500;
    const agentId = await newAgent(N * cost);
    const results = await Promise.allSettled(
      Array.from({ length: 4 * N }, () =>
        inTransaction(db, (em) =>
          ledger.holdTaskEscrow(em, { agentId, taskId: randomUUID(), amountCents: cost }),
        ),
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
    expect(await balanceOf(t, Accounts.agentAvailable(agentId).code)).toBe(0);
    expect((await checkLedger(db)).violations).toEqual([]);
  });

  describe('a taken reference is an error (DuplicateJournalError), never a silent no-op', () => {
    it('the same release fired concurrently posts once; every other attempt fails and rolls back its transaction', async () => {
      const agentId = await newAgent(5000);
      const taskId = await heldTask(agentId, 5000);
      const workerId = randomUUID();
      const assignmentId = randomUUID();
      // Each attempt also writes a marker row in its transaction: a refused attempt must leave none.
      const marker = `dup-${randomUUID()}`;
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          inTransaction(db, async (em) => {
            await em.query(`INSERT INTO agents (email, password_hash) VALUES ($1, 'x')`, [
              `${marker}-${i}@example.com`,
            ]);
            return ledger.releaseSlot(em, {
              agentId,
              taskId,
              assignmentId,
              workerId,
              payoutCents: 4500,
              feeCents: 500,
            });
          }),
        ),
      );
      const refused = results.filter((r) => r.status === 'rejected').map((r) => r.reason as unknown);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(refused).toHaveLength(7);
      for (const err of refused) {
        expect(err).toBeInstanceOf(DuplicateJournalError);
        expect(err).toMatchObject({ reference: JournalRefs.assignmentSettlement(assignmentId) });
      }
      const [{ n }]: { n: number }[] = await db.query(
        `SELECT count(*)::int AS n FROM agents WHERE email LIKE $1`,
        [`${marker}-%`],
      );
      expect(n).toBe(1);
      expect(await journalCount(JournalRefs.assignmentSettlement(assignmentId))).toBe(1);
      expect(await balanceOf(t, Accounts.workerAvailable(workerId).code)).toBe(4500);
      expect(await balanceOf(t, Accounts.taskEscrow(taskId, agentId).code)).toBe(0);
    });

    it('one reference per assignment: a refund after its release is refused, and escrow never goes below zero', async () => {
      const agentId = await newAgent(6000);
      const taskId = await heldTask(agentId, 6000);
      const slot = { agentId, taskId, assignmentId: randomUUID(), workerId: randomUUID() };
      await inTransaction(db, (em) => ledger.releaseSlot(em, { ...slot, payoutCents: 2700, feeCents: 300 }));
      await expect(
        inTransaction(db, (em) => ledger.refundSlot(em, { ...slot, amountCents: 3000, cause: 'rejected' })),
      ).rejects.toBeInstanceOf(DuplicateJournalError);
      expect(await balanceOf(t, Accounts.taskEscrow(taskId, agentId).code)).toBe(3000);
      expect(await balanceOf(t, Accounts.agentAvailable(agentId).code)).toBe(0);
    });

    it('a repeated task hold is refused before it moves anything', async () => {
      const agentId = await newAgent(3000);
      const taskId = await heldTask(agentId, 1000);
      await expect(
        inTransaction(db, (em) => ledger.holdTaskEscrow(em, { agentId, taskId, amountCents: 1000 })),
      ).rejects.toThrow(`ledger reference ${JournalRefs.taskHold(taskId)} is already taken`);
      expect(await balanceOf(t, Accounts.agentAvailable(agentId).code)).toBe(2000);
      expect(await balanceOf(t, Accounts.taskEscrow(taskId, agentId).code)).toBe(1000);
    });

    it('through the API: a slot settled twice by a broken transition is a 500 and changes nothing', async () => {
      const agent = await createAgent(t, { balanceCents: 10_000 });
      const worker = await createWorker(t);
      const taskId = await createTask(t, agent, { budget_cents: 5000 });
      const assignmentId = await accept(t, worker, taskId);
      expect((await submit(t, worker, assignmentId)).status).toBe(200);
      // A journal under the assignment's reference already exists, as if its slot had been settled before.
      await inTransaction(db, (em) =>
        ledger.post(em, {
          reference: JournalRefs.assignmentSettlement(assignmentId),
          kind: 'slot_refund',
          description: 'planted by the test',
          agentId: agent.id,
          taskId,
          postings: [
            { account: Accounts.taskEscrow(taskId, agent.id), amount: -1 },
            { account: Accounts.agentAvailable(agent.id), amount: 1 },
          ],
        }),
      );
      const res = await t.http
        .post(`/v1/tasks/${taskId}/feedback`)
        .set('Authorization', agent.key)
        .send({ accept_result: true, rating: 5, quality_score: 5 });
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('internal_error');
      const [a]: { status: string }[] = await db.query(`SELECT status FROM assignments WHERE id = $1`, [
        assignmentId,
      ]);
      expect(a.status).toBe('submitted');
      expect(await balanceOf(t, Accounts.workerAvailable(worker.id).code)).toBe(0);
      // Put the planted cent back, so the file ends with escrow that matches its task.
      await inTransaction(db, (em) =>
        ledger.post(em, {
          reference: `test:${randomUUID()}`,
          kind: 'slot_refund',
          description: 'undo the planted journal',
          agentId: agent.id,
          taskId,
          postings: [
            { account: Accounts.agentAvailable(agent.id), amount: -1 },
            { account: Accounts.taskEscrow(taskId, agent.id), amount: 1 },
          ],
        }),
      );
    });
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
