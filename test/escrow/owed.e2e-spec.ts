import { randomUUID } from 'node:crypto';
import { createAgent, createWorker, fundAgent } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { agentBalance, balanceOf, platformFees, workerBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { createTask, SURFACES, taskBody } from '../support/tasks';
import { inTransaction } from '../../src/database/transaction';
import { Ledger } from '../../src/escrow/services/ledger';
import { checkLedger } from '../../src/escrow/ledger-check';

/**
 * Owed, never negative (product-decisions §19), at the ledger: a charge the balance cannot cover leaves the
 * available balance at 0 and the rest owed (against platform:credit, advanced from platform:advances); the next
 * credits repay it first, in their own transaction; creating a task while owing is 402 with required = total + owed.
 * (The dispute decisions that charge this way are test/task/disputes.e2e-spec.ts.)
 */
describe('owed, never negative', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const charge = (agentId: string, workerId: string, payoutCents: number, feeCents: number) =>
    inTransaction(t.db, (em) =>
      t.app.get(Ledger).settleDispute(em, {
        disputeId: randomUUID(),
        agentId,
        workerId,
        taskId: randomUUID(),
        payoutCents,
        feeCents,
      }),
    );

  it('a short balance goes to 0 and the rest is owed; balances show owed_cents; creation is 402 until a top-up repays', async () => {
    const agent = await createAgent(t, { balanceCents: 1200 });
    const worker = await createWorker(t);
    const fees = await platformFees(t);
    expect(await charge(agent.id, worker.id, 4500, 500)).toEqual({ fromBalanceCents: 1200, owedCents: 3800 });
    expect(await agentBalance(t, agent.id)).toBe(0);
    expect(await workerBalance(t, worker.id)).toBe(4500);
    expect(await platformFees(t)).toBe(fees + 500);
    expect(await balanceOf(t, `agent:${agent.id}:owed`)).toBe(3800);

    const short = await t.http.get('/v1/payment/balance').set('Authorization', agent.key).expect(200);
    expect(short.body).toEqual({ balance_cents: 0, balance_rmb: 0, owed_cents: 3800 });
    const full = await t.http
      .get('/api/v1/payment/balance')
      .set('Authorization', agent.key)
      .set('X-API-Secret', agent.apiSecret)
      .expect(200);
    expect(full.body).toMatchObject({ balance_cents: 0, owed_cents: 3800, escrow_cents: 0 });
    const profile = await t.http.get('/v1/agent/profile').set('Authorization', agent.key).expect(200);
    expect(profile.body.owed_cents).toBe(3800);

    for (const surface of Object.values(SURFACES)) {
      const res = await surface.create(t).set('Authorization', agent.key).send(taskBody(t));
      expectError(res, 402, 'insufficient_balance');
      expect(res.body.error).toMatchObject({ balance_cents: 0, required_cents: 5000 + 3800 });
    }

    // A top-up smaller than the debt repays part of it and leaves nothing available.
    await fundAgent(t, agent.id, 3000);
    expect(await agentBalance(t, agent.id)).toBe(0);
    expect(await balanceOf(t, `agent:${agent.id}:owed`)).toBe(800);
    // The next repays the rest and keeps the remainder, and creation works again.
    await fundAgent(t, agent.id, 5800);
    expect(await agentBalance(t, agent.id)).toBe(5000);
    expect(await balanceOf(t, `agent:${agent.id}:owed`)).toBe(0);
    await createTask(t, agent);
    expect((await checkLedger(t.db)).violations).toEqual([]);
  });

  it('a covered charge owes nothing; concurrent charges never take the balance below 0', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const worker = await createWorker(t);
    expect(await charge(agent.id, worker.id, 900, 100)).toEqual({ fromBalanceCents: 1000, owedCents: 0 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => charge(agent.id, worker.id, 1800, 200)),
    );
    const fromBalance = results.reduce((s, r) => s + r.fromBalanceCents, 0);
    const owed = results.reduce((s, r) => s + r.owedCents, 0);
    expect(fromBalance).toBe(9000);
    expect(owed).toBe(11_000);
    expect(await agentBalance(t, agent.id)).toBe(0);
    expect(await balanceOf(t, `agent:${agent.id}:owed`)).toBe(11_000);
    expect((await checkLedger(t.db)).violations).toEqual([]);
  });
});
