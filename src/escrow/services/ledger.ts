import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { AccountRef, Accounts, Provider } from '../accounts';
import { applyJournal, claimJournal } from '../journal-writer';
import { toLedgerAccount, type LedgerAccountRow } from '../ledger.rows';

export type JournalKind =
  | 'deposit'
  | 'escrow_hold'
  | 'slot_release'
  | 'slot_refund'
  | 'cancel_compensation'
  | 'withdrawal_start'
  | 'withdrawal_complete'
  | 'withdrawal_fail'
  | 'payer_refund'
  | 'payer_refund_reversal';

export interface Posting {
  account: AccountRef;
  amount: number;
}

export interface JournalInput {
  /** Deterministic and unique per business event (e.g. `task:<id>:hold`): a retry with it posts nothing. */
  reference: string;
  kind: JournalKind;
  description: string;
  agentId?: string | null;
  workerId?: string | null;
  taskId?: string | null;
  orderId?: string | null;
  postings: Posting[];
}

export interface PostResult {
  /** false when a journal with this reference already existed: the transfer had happened before. */
  posted: boolean;
  journalId: string | null;
}

/** Raised when a debit would take a non-negative account below zero; callers turn it into their own error. */
export class InsufficientFundsError extends Error {
  constructor(
    readonly account: AccountRef,
    readonly balance: number,
    readonly required: number,
  ) {
    super(`insufficient funds in ${account.code}: balance ${balance}, required ${required}`);
  }
}

/**
 * The only code that moves money. Every transfer is one journal whose postings sum to zero, written inside the
 * caller's transaction (so the state change that causes it commits or rolls back with it). Named verbs below
 * describe each movement; `post` is the mechanism.
 */
@Injectable()
export class Ledger {
  constructor(private readonly clock: Clock) {}

  deposit(
    em: EntityManager,
    a: {
      agentId: string;
      amountCents: number;
      provider: Provider;
      reference: string;
      description: string;
      orderId?: string;
      taskId?: string;
    },
  ): Promise<PostResult> {
    return this.post(em, {
      reference: a.reference,
      kind: 'deposit',
      description: a.description,
      agentId: a.agentId,
      orderId: a.orderId,
      taskId: a.taskId,
      postings: [
        { account: Accounts.providerClearing(a.provider), amount: -a.amountCents },
        { account: Accounts.agentAvailable(a.agentId), amount: a.amountCents },
      ],
    });
  }

  /** Moves a task's whole cost from the agent's balance into the task's escrow; 402 when the balance is short. */
  holdTaskEscrow(
    em: EntityManager,
    a: { agentId: string; taskId: string; amountCents: number; reference: string; description: string },
  ): Promise<PostResult> {
    return this.postOrRefuse(em, 'task cost', {
      reference: a.reference,
      kind: 'escrow_hold',
      description: a.description,
      agentId: a.agentId,
      taskId: a.taskId,
      postings: [
        { account: Accounts.agentAvailable(a.agentId), amount: -a.amountCents },
        { account: Accounts.taskEscrow(a.taskId, a.agentId), amount: a.amountCents },
      ],
    });
  }

  /** An approved slot: payout to the worker, fee to the platform, both out of the task's escrow. */
  releaseSlot(
    em: EntityManager,
    a: {
      agentId: string;
      taskId: string;
      workerId: string;
      payoutCents: number;
      feeCents: number;
      reference: string;
      description: string;
    },
  ): Promise<PostResult> {
    const postings: Posting[] = [
      { account: Accounts.taskEscrow(a.taskId, a.agentId), amount: -(a.payoutCents + a.feeCents) },
      { account: Accounts.workerAvailable(a.workerId), amount: a.payoutCents },
    ];
    if (a.feeCents > 0) postings.push({ account: Accounts.platformFees(), amount: a.feeCents });
    return this.post(em, {
      ...journalIds(a),
      reference: a.reference,
      kind: 'slot_release',
      description: a.description,
      postings,
    });
  }

  /** Escrow back to the agent (rejected result, unfilled or expired slot, cancelled open slot). */
  refundSlot(
    em: EntityManager,
    a: {
      agentId: string;
      taskId: string;
      amountCents: number;
      reference: string;
      description: string;
      workerId?: string;
    },
  ): Promise<PostResult> {
    return this.post(em, {
      ...journalIds(a),
      reference: a.reference,
      kind: 'slot_refund',
      description: a.description,
      postings: [
        { account: Accounts.taskEscrow(a.taskId, a.agentId), amount: -a.amountCents },
        { account: Accounts.agentAvailable(a.agentId), amount: a.amountCents },
      ],
    });
  }

  /** Cancelling an accepted slot: part back to the agent, part to the worker who had taken it; no fee. */
  compensateCancellation(
    em: EntityManager,
    a: {
      agentId: string;
      taskId: string;
      workerId: string;
      agentRefundCents: number;
      workerCents: number;
      reference: string;
      description: string;
    },
  ): Promise<PostResult> {
    const postings: Posting[] = [
      { account: Accounts.taskEscrow(a.taskId, a.agentId), amount: -(a.agentRefundCents + a.workerCents) },
    ];
    if (a.agentRefundCents > 0)
      postings.push({ account: Accounts.agentAvailable(a.agentId), amount: a.agentRefundCents });
    if (a.workerCents > 0)
      postings.push({ account: Accounts.workerAvailable(a.workerId), amount: a.workerCents });
    return this.post(em, {
      ...journalIds(a),
      reference: a.reference,
      kind: 'cancel_compensation',
      description: a.description,
      postings,
    });
  }

  /** Money the platform holds for an agent goes back to the payer through the provider (a payment refund). */
  refundToPayer(
    em: EntityManager,
    a: {
      agentId: string;
      amountCents: number;
      provider: Provider;
      orderId: string;
      reference: string;
      description: string;
    },
  ): Promise<PostResult> {
    return this.postOrRefuse(em, 'refund', {
      reference: a.reference,
      kind: 'payer_refund',
      description: a.description,
      agentId: a.agentId,
      orderId: a.orderId,
      postings: [
        { account: Accounts.agentAvailable(a.agentId), amount: -a.amountCents },
        { account: Accounts.providerClearing(a.provider), amount: a.amountCents },
      ],
    });
  }

  /**
   * A refund to the payer that the provider refused or failed: the money posted by refundToPayer comes back to the
   * agent's available balance (the exact reverse of that journal; never a deposit, since nothing new came in).
   */
  reverseRefundToPayer(
    em: EntityManager,
    a: {
      agentId: string;
      amountCents: number;
      provider: Provider;
      orderId: string;
      reference: string;
      description: string;
    },
  ): Promise<PostResult> {
    return this.post(em, {
      reference: a.reference,
      kind: 'payer_refund_reversal',
      description: a.description,
      agentId: a.agentId,
      orderId: a.orderId,
      postings: [
        { account: Accounts.providerClearing(a.provider), amount: -a.amountCents },
        { account: Accounts.agentAvailable(a.agentId), amount: a.amountCents },
      ],
    });
  }

  /** A withdrawal request: funds leave the worker's available balance at once and wait in `withdrawing`. */
  startWithdrawal(
    em: EntityManager,
    a: { workerId: string; amountCents: number; reference: string; description: string },
  ): Promise<PostResult> {
    return this.postOrRefuse(em, 'withdrawal', {
      reference: a.reference,
      kind: 'withdrawal_start',
      description: a.description,
      workerId: a.workerId,
      postings: [
        { account: Accounts.workerAvailable(a.workerId), amount: -a.amountCents },
        { account: Accounts.workerWithdrawing(a.workerId), amount: a.amountCents },
      ],
    });
  }

  /** The provider confirmed the payout: the money has left the platform. */
  completeWithdrawal(
    em: EntityManager,
    a: { workerId: string; amountCents: number; provider: Provider; reference: string; description: string },
  ): Promise<PostResult> {
    return this.post(em, {
      reference: a.reference,
      kind: 'withdrawal_complete',
      description: a.description,
      workerId: a.workerId,
      postings: [
        { account: Accounts.workerWithdrawing(a.workerId), amount: -a.amountCents },
        { account: Accounts.providerClearing(a.provider), amount: a.amountCents },
      ],
    });
  }

  /** The payout failed or was rejected in review: the funds return to the worker's available balance. */
  failWithdrawal(
    em: EntityManager,
    a: { workerId: string; amountCents: number; reference: string; description: string },
  ): Promise<PostResult> {
    return this.post(em, {
      reference: a.reference,
      kind: 'withdrawal_fail',
      description: a.description,
      workerId: a.workerId,
      postings: [
        { account: Accounts.workerWithdrawing(a.workerId), amount: -a.amountCents },
        { account: Accounts.workerAvailable(a.workerId), amount: a.amountCents },
      ],
    });
  }

  /** Current balance of one account (0 when it has never been used). */
  async balance(em: EntityManager, account: AccountRef): Promise<number> {
    const rows = await sqlRows(em, `SELECT balance FROM ledger_accounts WHERE code = $1`, [account.code]);
    return rows.length ? toLedgerAccount<Pick<LedgerAccountRow, 'balance'>>(rows[0]).balance : 0;
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
   * Posts one journal. Order of work: claim the reference (a concurrent duplicate waits on the unique index and
   * then finds it taken) while making sure the accounts exist, then apply balance changes under locks taken in
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
    if (journalId === null) return { posted: false, journalId: null };

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
    return { posted: true, journalId };
  }
}

function journalIds(a: { agentId?: string; taskId?: string; workerId?: string }) {
  return { agentId: a.agentId ?? null, taskId: a.taskId ?? null, workerId: a.workerId ?? null };
}
