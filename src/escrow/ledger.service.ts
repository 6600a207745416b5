import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import { sqlRows } from '../database/sql';
import { AccountRef, Accounts, Provider } from './accounts';

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
export class LedgerService {
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
  async holdTaskEscrow(
    em: EntityManager,
    a: { agentId: string; taskId: string; amountCents: number; reference: string; description: string },
  ): Promise<PostResult> {
    try {
      return await this.post(em, {
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
    } catch (err) {
      if (err instanceof InsufficientFundsError) {
        throw new ApiError('insufficient_balance', 'The available balance does not cover the task cost.', {
          balance_cents: err.balance,
          required_cents: err.required,
        });
      }
      throw err;
    }
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
  async refundToPayer(
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
    try {
      return await this.post(em, {
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
    } catch (err) {
      if (err instanceof InsufficientFundsError) {
        throw new ApiError('insufficient_balance', 'The available balance does not cover the refund.', {
          balance_cents: err.balance,
          required_cents: err.required,
        });
      }
      throw err;
    }
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
  async startWithdrawal(
    em: EntityManager,
    a: { workerId: string; amountCents: number; reference: string; description: string },
  ): Promise<PostResult> {
    try {
      return await this.post(em, {
        reference: a.reference,
        kind: 'withdrawal_start',
        description: a.description,
        workerId: a.workerId,
        postings: [
          { account: Accounts.workerAvailable(a.workerId), amount: -a.amountCents },
          { account: Accounts.workerWithdrawing(a.workerId), amount: a.amountCents },
        ],
      });
    } catch (err) {
      if (err instanceof InsufficientFundsError) {
        throw new ApiError('insufficient_balance', 'The available balance does not cover the withdrawal.', {
          balance_cents: err.balance,
          required_cents: err.required,
        });
      }
      throw err;
    }
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
    const rows: { balance: string }[] = await em.query(
      `SELECT balance FROM ledger_accounts WHERE code = $1`,
      [account.code],
    );
    return rows.length ? Number(rows[0].balance) : 0;
  }

  /**
   * Posts one journal. Order of work: claim the reference (a concurrent duplicate waits on the unique index and
   * then finds it taken), make sure the accounts exist, apply balance changes in account-id order (so two
   * journals touching the same accounts cannot deadlock) with conditional updates that refuse to overdraw, then
   * write the postings. Any failure rolls back the caller's whole transaction.
   */
  async post(em: EntityManager, j: JournalInput): Promise<PostResult> {
    const postings = j.postings.filter((p) => p.amount !== 0);
    if (postings.length < 2) throw new Error(`journal ${j.reference} needs at least two non-zero postings`);
    if (postings.some((p) => !Number.isSafeInteger(p.amount)))
      throw new Error(`journal ${j.reference}: amounts must be integer cents`);
    if (postings.reduce((s, p) => s + p.amount, 0) !== 0)
      throw new Error(`journal ${j.reference} does not sum to zero`);

    const claimed: { id: string }[] = await em.query(
      `INSERT INTO ledger_journals (reference, kind, agent_id, worker_id, task_id, order_id, description, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (reference) DO NOTHING RETURNING id`,
      [
        j.reference,
        j.kind,
        j.agentId ?? null,
        j.workerId ?? null,
        j.taskId ?? null,
        j.orderId ?? null,
        j.description,
        this.clock.now(),
      ],
    );
    if (claimed.length === 0) return { posted: false, journalId: null };
    const journalId = claimed[0].id;

    const ids = await this.ensureAccounts(
      em,
      postings.map((p) => p.account),
    );
    const ordered = postings
      .map((p) => ({ ...p, id: ids.get(p.account.code)! }))
      .sort((a, b) =>
        BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : a.amount - b.amount,
      );
    for (const p of ordered) await this.applyToBalance(em, p.id, p.account, p.amount);

    await em.query(
      `INSERT INTO ledger_postings (journal_id, account_id, amount)
       SELECT $1, unnest($2::bigint[]), unnest($3::bigint[])`,
      [journalId, ordered.map((p) => p.id), ordered.map((p) => p.amount)],
    );
    return { posted: true, journalId };
  }

  private async ensureAccounts(em: EntityManager, accounts: AccountRef[]): Promise<Map<string, string>> {
    const unique = [...new Map(accounts.map((a) => [a.code, a])).values()];
    await em.query(
      `INSERT INTO ledger_accounts (code, kind, owner_id, agent_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::uuid[]) ON CONFLICT (code) DO NOTHING`,
      [
        unique.map((a) => a.code),
        unique.map((a) => a.kind),
        unique.map((a) => a.ownerId),
        unique.map((a) => a.agentId),
      ],
    );
    const rows: { id: string; code: string }[] = await em.query(
      `SELECT id, code FROM ledger_accounts WHERE code = ANY($1)`,
      [unique.map((a) => a.code)],
    );
    return new Map(rows.map((r) => [r.code, r.id]));
  }

  /** A conditional update: a debit that would overdraw a non-negative account changes nothing and fails. */
  private async applyToBalance(
    em: EntityManager,
    id: string,
    account: AccountRef,
    amount: number,
  ): Promise<void> {
    const rows = await sqlRows(
      em,
      `UPDATE ledger_accounts SET balance = balance + $2
        WHERE id = $1 AND (kind = 'provider_clearing' OR balance + $2 >= 0) RETURNING id`,
      [id, amount],
    );
    if (rows.length === 0) {
      const balance = await this.balance(em, account);
      throw new InsufficientFundsError(account, balance, -amount);
    }
  }
}

function journalIds(a: { agentId?: string; taskId?: string; workerId?: string }) {
  return { agentId: a.agentId ?? null, taskId: a.taskId ?? null, workerId: a.workerId ?? null };
}
