import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { AccountRef, Accounts, Provider } from '../accounts';
import { DuplicateJournalError, InsufficientFundsError, JournalInput, Posting, PostResult } from '../journal';
import { JournalRefs } from '../journal-refs';
import { applyJournal, claimJournal } from '../journal-writer';
import { toLedgerAccount, type LedgerAccountRow } from '../ledger.rows';

interface TaskSlot {
  agentId: string;
  taskId: string;
}

interface AssignmentSlot extends TaskSlot {
  assignmentId: string;
  workerId: string;
}

interface PayerRefund {
  agentId: string;
  refundId: string;
  orderId: string;
  amountCents: number;
  provider: Provider;
}

interface WithdrawalMove {
  workerId: string;
  withdrawalId: string;
  amountCents: number;
  description: string;
}

/**
 * The only code that moves money. Every transfer is one journal whose postings sum to zero, written inside the
 * caller's transaction (so the state change that causes it commits or rolls back with it). The named verbs below
 * take ids and build the journal's reference (JournalRefs) and, where the ids say it all, its description; `post`
 * is the mechanism.
 */
@Injectable()
export class Ledger {
  constructor(private readonly clock: Clock) {}

  /** A payment order paid: its amount, from the provider's clearing account, becomes the agent's balance. */
  deposit(
    em: EntityManager,
    a: {
      agentId: string;
      orderId: string;
      amountCents: number;
      provider: Provider;
      taskId?: string;
      description: string;
    },
  ): Promise<PostResult> {
    return this.post(em, {
      reference: JournalRefs.payment(a.orderId),
      kind: 'deposit',
      description: a.description,
      agentId: a.agentId,
      orderId: a.orderId,
      taskId: a.taskId,
      postings: fromTo(
        Accounts.providerClearing(a.provider),
        Accounts.agentAvailable(a.agentId),
        a.amountCents,
      ),
    });
  }

  /** An operator's manual credit: money received outside the providers (a bank transfer), as a deposit. */
  manualCredit(
    em: EntityManager,
    a: { agentId: string; amountCents: number; creditKey: string; reason: string },
  ): Promise<PostResult> {
    return this.post(em, {
      reference: JournalRefs.adminCredit(a.agentId, a.creditKey),
      kind: 'deposit',
      description: `Manual credit: ${a.reason}`,
      agentId: a.agentId,
      postings: fromTo(Accounts.providerClearing('bank'), Accounts.agentAvailable(a.agentId), a.amountCents),
    });
  }

  /**
   * Moves a task's whole cost from the agent's balance into the task's escrow; 402 when the balance is short, and
   * while the agent owes anything (product-decisions §19: required_cents is then the cost plus the debt).
   */
  async holdTaskEscrow(em: EntityManager, a: TaskSlot & { amountCents: number }): Promise<PostResult> {
    const owed = await this.balance(em, Accounts.agentOwed(a.agentId));
    if (owed > 0) {
      throw new ApiError(
        'insufficient_balance',
        `You owe ${owed} cents from a dispute decision; top up to repay it before creating a task.`,
        {
          balance_cents: await this.balance(em, Accounts.agentAvailable(a.agentId)),
          required_cents: a.amountCents + owed,
        },
      );
    }
    return this.postOrRefuse(em, 'task cost', {
      reference: JournalRefs.taskHold(a.taskId),
      kind: 'escrow_hold',
      description: `Escrow for task ${a.taskId}`,
      agentId: a.agentId,
      taskId: a.taskId,
      postings: fromTo(
        Accounts.agentAvailable(a.agentId),
        Accounts.taskEscrow(a.taskId, a.agentId),
        a.amountCents,
      ),
    });
  }

  /** An approved slot: payout to the worker, fee to the platform, both out of the task's escrow. */
  releaseSlot(
    em: EntityManager,
    a: AssignmentSlot & { payoutCents: number; feeCents: number },
  ): Promise<PostResult> {
    const postings: Posting[] = [
      { account: Accounts.taskEscrow(a.taskId, a.agentId), amount: -(a.payoutCents + a.feeCents) },
      { account: Accounts.workerAvailable(a.workerId), amount: a.payoutCents },
    ];
    if (a.feeCents > 0) postings.push({ account: Accounts.platformFees(), amount: a.feeCents });
    return this.post(em, {
      ...slotJournal(a),
      kind: 'slot_release',
      description: `Approved result on task ${a.taskId}`,
      postings,
    });
  }

  /**
   * An accepted "could not do it" report (product-decisions §19): out of the slot's escrow, the worker's share less
   * its fee to the worker, the fee to the platform, the rest of the slot back to the agent. The assignment's one
   * settlement reference, as for any release.
   */
  releaseUnableSlot(
    em: EntityManager,
    a: AssignmentSlot & {
      budgetCents: number;
      workerCents: number;
      feeCents: number;
      agentRefundCents: number;
    },
  ): Promise<PostResult> {
    if (a.workerCents + a.feeCents + a.agentRefundCents !== a.budgetCents)
      throw new Error(`unable split of ${a.assignmentId} does not add up to the slot's budget`);
    return this.post(em, {
      ...slotJournal(a),
      kind: 'slot_release',
      description: `Could not do it, accepted, on task ${a.taskId}`,
      postings: [
        { account: Accounts.taskEscrow(a.taskId, a.agentId), amount: -a.budgetCents },
        { account: Accounts.workerAvailable(a.workerId), amount: a.workerCents },
        { account: Accounts.platformFees(), amount: a.feeCents },
        { account: Accounts.agentAvailable(a.agentId), amount: a.agentRefundCents },
      ],
    });
  }

  /**
   * A held slot's budget back to the agent: its result was rejected, its work expired at the deadline, or an
   * operator cancelled the task on a worker's report (product-decisions §19: everything still held goes back).
   */
  refundSlot(
    em: EntityManager,
    a: AssignmentSlot & { amountCents: number; cause: 'rejected' | 'expired' | 'cancelled' },
  ): Promise<PostResult> {
    const why = {
      rejected: 'Rejected result',
      expired: 'Deadline passed',
      cancelled: 'Cancelled by an operator',
    }[a.cause];
    return this.escrowToAgent(em, { ...slotJournal(a), description: `${why} on task ${a.taskId}` }, a);
  }

  /** The n-th slot closed without a holder (unfilled at the deadline, intake closed, task cancelled). */
  refundOpenSlot(
    em: EntityManager,
    a: TaskSlot & { slotNumber: number; amountCents: number },
  ): Promise<PostResult> {
    const reference = JournalRefs.openSlotRefund(a.taskId, a.slotNumber);
    const description = `Unfilled slot of task ${a.taskId} closed`;
    return this.escrowToAgent(em, { reference, description, agentId: a.agentId, taskId: a.taskId }, a);
  }

  /** Cancelling an accepted slot: part back to the agent, part to the worker who had taken it; no fee. */
  compensateCancellation(
    em: EntityManager,
    a: AssignmentSlot & { agentRefundCents: number; workerCents: number },
  ): Promise<PostResult> {
    const postings: Posting[] = [
      { account: Accounts.taskEscrow(a.taskId, a.agentId), amount: -(a.agentRefundCents + a.workerCents) },
    ];
    if (a.agentRefundCents > 0)
      postings.push({ account: Accounts.agentAvailable(a.agentId), amount: a.agentRefundCents });
    if (a.workerCents > 0)
      postings.push({ account: Accounts.workerAvailable(a.workerId), amount: a.workerCents });
    return this.post(em, {
      ...slotJournal(a),
      kind: 'cancel_compensation',
      description: `Task ${a.taskId} cancelled after acceptance`,
      postings,
    });
  }

  /** Money the platform holds for an agent goes back to the payer through the provider (a payment refund). */
  refundToPayer(em: EntityManager, a: PayerRefund): Promise<PostResult> {
    const head = {
      reference: JournalRefs.refundToPayer(a.refundId),
      kind: 'payer_refund' as const,
      description: `Refund ${a.refundId} of order ${a.orderId} to the payer`,
    };
    const to = Accounts.providerClearing(a.provider);
    return this.postOrRefuse(
      em,
      'refund',
      payerRefundJournal(a, head, Accounts.agentAvailable(a.agentId), to),
    );
  }

  /**
   * A refund to the payer that the provider refused or failed: the money posted by refundToPayer comes back to the
   * agent's available balance (the exact reverse of that journal; never a deposit, since nothing new came in).
   */
  reverseRefundToPayer(em: EntityManager, a: PayerRefund): Promise<PostResult> {
    const head = {
      reference: JournalRefs.refundReversal(a.refundId),
      kind: 'payer_refund_reversal' as const,
      description: `Refund ${a.refundId} of order ${a.orderId} failed; returned to the balance`,
    };
    const from = Accounts.providerClearing(a.provider);
    return this.post(em, payerRefundJournal(a, head, from, Accounts.agentAvailable(a.agentId)));
  }

  /** A withdrawal request: funds leave the worker's available balance at once and wait in `withdrawing`. */
  startWithdrawal(em: EntityManager, a: WithdrawalMove): Promise<PostResult> {
    const to = Accounts.workerWithdrawing(a.workerId);
    const journal = withdrawalJournal(a, 'withdrawal_start', Accounts.workerAvailable(a.workerId), to);
    return this.postOrRefuse(em, 'withdrawal', journal);
  }

  /** The provider confirmed the payout: the money has left the platform. */
  completeWithdrawal(em: EntityManager, a: WithdrawalMove & { provider: Provider }): Promise<PostResult> {
    const to = Accounts.providerClearing(a.provider);
    return this.post(
      em,
      withdrawalJournal(a, 'withdrawal_complete', Accounts.workerWithdrawing(a.workerId), to),
    );
  }

  /** The payout failed or was rejected in review: the funds return to the worker's available balance. */
  failWithdrawal(em: EntityManager, a: WithdrawalMove): Promise<PostResult> {
    const to = Accounts.workerAvailable(a.workerId);
    return this.post(em, withdrawalJournal(a, 'withdrawal_fail', Accounts.workerWithdrawing(a.workerId), to));
  }

  /**
   * A dispute decision's money (product-decisions §19): `credits` (the worker's payout, the platform's fee) are paid
   * from the agent's available balance, outside escrow. What the balance lacks is advanced by the platform
   * (platform:advances) and becomes the agent's debt (agent_owed, against platform:credit), so the available balance
   * never goes below 0. The journal's accounts are locked in id order before the balance is read, so the split into
   * balance and debt is computed under the same locks that post it. Once per dispute (its reference).
   */
  async settleDispute(
    em: EntityManager,
    a: {
      disputeId: string;
      agentId: string;
      workerId: string;
      taskId: string;
      payoutCents: number;
      feeCents: number;
    },
  ): Promise<{ fromBalanceCents: number; owedCents: number }> {
    const total = a.payoutCents + a.feeCents;
    const available = Accounts.agentAvailable(a.agentId);
    const debt = [Accounts.agentOwed(a.agentId), Accounts.platformCredit(), Accounts.platformAdvances()];
    const credits: Posting[] = [
      { account: Accounts.workerAvailable(a.workerId), amount: a.payoutCents },
      { account: Accounts.platformFees(), amount: a.feeCents },
    ];
    const accounts = [available, ...debt, ...credits.map((p) => p.account)];
    await sqlRows(
      em,
      `INSERT INTO ledger_accounts (code, kind, owner_id, agent_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::uuid[]) ON CONFLICT (code) DO NOTHING`,
      [
        accounts.map((x) => x.code),
        accounts.map((x) => x.kind),
        accounts.map((x) => x.ownerId),
        accounts.map((x) => x.agentId),
      ],
    );
    const [row] = await sqlRows<{ balance: string }>(
      em,
      `WITH locked AS MATERIALIZED (
         SELECT code, balance FROM ledger_accounts WHERE code = ANY($1) ORDER BY id FOR NO KEY UPDATE)
       SELECT balance::text AS balance FROM locked WHERE code = $2`,
      [accounts.map((x) => x.code), available.code],
    );
    const fromBalance = Math.min(Number(row.balance), total);
    const short = total - fromBalance;
    const postings: Posting[] = [...credits, { account: available, amount: -fromBalance }];
    if (short > 0) {
      postings.push(
        { account: Accounts.platformAdvances(), amount: -short },
        { account: Accounts.agentOwed(a.agentId), amount: short },
        { account: Accounts.platformCredit(), amount: -short },
      );
    }
    await this.post(em, {
      reference: JournalRefs.disputeSettlement(a.disputeId),
      kind: 'dispute_settlement',
      description: `Dispute ${a.disputeId} decided for the worker on task ${a.taskId}`,
      agentId: a.agentId,
      workerId: a.workerId,
      taskId: a.taskId,
      postings,
    });
    return { fromBalanceCents: fromBalance, owedCents: short };
  }

  /**
   * Every credit to an agent repays its debt first, in the same transaction (product-decisions §19): right after a
   * journal that credited the agent's available balance, as much of it as the debt needs goes back to the platform
   * (the advance and its mirror shrink together). A cheap read first: most agents never owe anything.
   */
  private async repayOwed(em: EntityManager, agentId: string, creditReference: string): Promise<void> {
    const owed = Accounts.agentOwed(agentId);
    const available = Accounts.agentAvailable(agentId);
    if ((await this.balance(em, owed)) <= 0) return;
    const rows = await sqlRows<{ code: string; balance: string }>(
      em,
      `SELECT code, balance::text AS balance FROM ledger_accounts
        WHERE code = ANY($1) ORDER BY id FOR NO KEY UPDATE`,
      [[available.code, owed.code, Accounts.platformCredit().code, Accounts.platformAdvances().code]],
    );
    const of = (code: string) => Number(rows.find((r) => r.code === code)?.balance ?? 0);
    const amount = Math.min(of(owed.code), of(available.code));
    if (amount <= 0) return;
    await this.post(em, {
      reference: JournalRefs.owedRepayment(creditReference),
      kind: 'owed_repayment',
      description: 'Repayment of what was owed from a dispute decision',
      agentId,
      postings: [
        { account: available, amount: -amount },
        { account: owed, amount: -amount },
        { account: Accounts.platformCredit(), amount },
        { account: Accounts.platformAdvances(), amount },
      ],
    });
  }

  /** Current balance of one account (0 when it has never been used). */
  async balance(em: EntityManager, account: AccountRef): Promise<number> {
    const rows = await sqlRows(em, `SELECT balance FROM ledger_accounts WHERE code = $1`, [account.code]);
    return rows.length ? toLedgerAccount<Pick<LedgerAccountRow, 'balance'>>(rows[0]).balance : 0;
  }

  private escrowToAgent(
    em: EntityManager,
    j: Omit<JournalInput, 'kind' | 'postings'>,
    a: TaskSlot & { amountCents: number },
  ): Promise<PostResult> {
    const postings = fromTo(
      Accounts.taskEscrow(a.taskId, a.agentId),
      Accounts.agentAvailable(a.agentId),
      a.amountCents,
    );
    return this.post(em, { ...j, kind: 'slot_refund', postings });
  }

  /** Posts a journal that spends an available balance; a short balance is 402 insufficient_balance naming `what`. */
  private async postOrRefuse(em: EntityManager, what: string, j: JournalInput): Promise<PostResult> {
    try {
      return await this.post(em, j);
    } catch (err) {
      if (err instanceof InsufficientFundsError) {
        throw new ApiError('insufficient_balance', `The available balance does not cover the ${what}.`, {
          balance_cents: err.balance,
          required_cents: err.required,
        });
      }
      throw err;
    }
  }

  /**
   * Posts one journal. Order of work: claim the reference (a concurrent duplicate waits on the unique index, then
   * finds it taken: DuplicateJournalError) while making sure the accounts exist, then apply balance changes under locks taken in
   * account-id order (so two journals touching the same accounts cannot deadlock) with a condition that refuses to
   * overdraw, and write the postings (journal-writer.ts: two round trips). Any failure rolls back the caller's
   * whole transaction.
   */
  async post(em: EntityManager, j: JournalInput): Promise<PostResult> {
    const postings = j.postings.filter((p) => p.amount !== 0);
    if (postings.length < 2) throw new Error(`journal ${j.reference} needs at least two non-zero postings`);
    if (postings.some((p) => !Number.isSafeInteger(p.amount)))
      throw new Error(`journal ${j.reference}: amounts must be integer cents`);
    if (postings.reduce((s, p) => s + p.amount, 0) !== 0)
      throw new Error(`journal ${j.reference} does not sum to zero`);

    const { journalId, ids } = await claimJournal(
      em,
      {
        reference: j.reference,
        kind: j.kind,
        agentId: j.agentId ?? null,
        workerId: j.workerId ?? null,
        taskId: j.taskId ?? null,
        orderId: j.orderId ?? null,
        description: j.description,
        createdAt: this.clock.now(),
      },
      postings.map((p) => p.account),
    );
    if (journalId === null) throw new DuplicateJournalError(j.reference);

    const refused = await applyJournal(
      em,
      journalId,
      postings.map((p) => ({ id: ids.get(p.account.code)!, amount: p.amount })),
    );
    if (refused.length) {
      const p = postings.find((x) => ids.get(x.account.code) === refused[0])!;
      const required = -postings
        .filter((x) => x.account.code === p.account.code)
        .reduce((sum, x) => sum + x.amount, 0);
      throw new InsufficientFundsError(p.account, await this.balance(em, p.account), required);
    }
    if (j.kind !== 'owed_repayment') {
      for (const p of postings) {
        if (p.account.kind === 'agent_available' && p.amount > 0) {
          await this.repayOwed(em, p.account.agentId!, j.reference);
        }
      }
    }
    return { journalId };
  }
}

function fromTo(from: AccountRef, to: AccountRef, amountCents: number): Posting[] {
  return [
    { account: from, amount: -amountCents },
    { account: to, amount: amountCents },
  ];
}

/** A payer refund's journal (or its reversal's): the refund's amount between the agent's balance and the provider. */
function payerRefundJournal(
  a: PayerRefund,
  head: Pick<JournalInput, 'reference' | 'kind' | 'description'>,
  from: AccountRef,
  to: AccountRef,
): JournalInput {
  return { ...head, agentId: a.agentId, orderId: a.orderId, postings: fromTo(from, to, a.amountCents) };
}

/** Each step of a withdrawal posts once, under its own reference. */
const WITHDRAWAL_REFS = {
  withdrawal_start: JournalRefs.withdrawalStart,
  withdrawal_complete: JournalRefs.withdrawalComplete,
  withdrawal_fail: JournalRefs.withdrawalReturn,
};

/** A withdrawal step's journal: its amount from one of the worker's accounts to the next (or out to the provider). */
function withdrawalJournal(
  a: WithdrawalMove,
  kind: keyof typeof WITHDRAWAL_REFS,
  from: AccountRef,
  to: AccountRef,
): JournalInput {
  return {
    reference: WITHDRAWAL_REFS[kind](a.withdrawalId),
    kind,
    description: a.description,
    workerId: a.workerId,
    postings: fromTo(from, to, a.amountCents),
  };
}

/** An assignment's slot leaves escrow once, whichever way: one reference for release, refund and split. */
function slotJournal(a: AssignmentSlot) {
  return {
    reference: JournalRefs.assignmentSettlement(a.assignmentId),
    agentId: a.agentId,
    taskId: a.taskId,
    workerId: a.workerId,
  };
}
