// The vocabulary of the ledger: journals, their postings, and how posting one can fail.
import type { AccountRef } from './accounts';

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
  | 'payer_refund_reversal'
  | 'dispute_settlement'
  | 'owed_repayment';

export interface Posting {
  account: AccountRef;
  amount: number;
}

export interface JournalInput {
  /** Unique per business event (JournalRefs): a second journal with it is refused (DuplicateJournalError). */
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
  journalId: string;
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
 * Raised when a journal's reference is taken: its business event has posted before (Formance's reference conflict).
 * Every caller first moves its own state under a lock (an order out of pending, an assignment out of submitted, a
 * new row with a fresh id), so a taken reference means a transition ran twice: a bug, never a retry to absorb. It
 * rolls back the caller's transaction, and the request answers 500.
 */
export class DuplicateJournalError extends Error {
  constructor(readonly reference: string) {
    super(`ledger reference ${reference} is already taken: this event has posted before`);
    this.name = 'DuplicateJournalError';
  }
}
