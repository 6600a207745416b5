/**
 * Journal references: one per business event, unique in ledger_journals, so the event can post once only. One place
 * names every reference, as `Accounts` names every account; the Ledger verbs build them from ids and no other
 * code writes one by hand.
 *
 * These strings are stored: changing a format would let an event that posted under the old one post again under
 * the new one. Add a new builder instead of editing one (journal-refs.spec.ts pins the formats).
 */
export const JournalRefs = {
  /** A task's whole cost moving into its escrow at creation. */
  taskHold: (taskId: string): string => `task:${taskId}:hold`,
  /** An assignment's slot leaving escrow, whichever way it ends (release, refund or cancellation split). */
  assignmentSettlement: (assignmentId: string): string => `assignment:${assignmentId}:settle`,
  /** The n-th slot (1-based, counted by tasks.closed_slots) closed without a holder, refunded to the agent. */
  openSlotRefund: (taskId: string, n: number): string => {
    if (!Number.isSafeInteger(n) || n < 1)
      throw new Error(`slot number must be a positive integer, got ${n}`);
    return `task:${taskId}:slot-refund:${n}`;
  },
  /** A payment order paid (by a provider, or by a bank transfer an operator confirmed). */
  payment: (orderId: string): string => `payment:${orderId}`,
  /** An operator's manual credit: under its Idempotency-Key, or a fresh id when it has none. */
  adminCredit: (agentId: string, creditKey: string): string => `admin-credit:${agentId}:${creditKey}`,
  refundToPayer: (refundId: string): string => `refund:${refundId}`,
  /** A refund the provider refused or failed, back to the agent's balance. */
  refundReversal: (refundId: string): string => `refund:${refundId}:reversal`,
  withdrawalStart: (withdrawalId: string): string => `withdrawal:${withdrawalId}:start`,
  /** An operator's decision on a dispute that moves money (overturned or split): once per dispute. */
  disputeSettlement: (disputeId: string): string => `dispute:${disputeId}:settle`,
  /** The part of a credit to an agent that repaid its debt, posted right after that credit's journal. */
  owedRepayment: (creditReference: string): string => `${creditReference}:repay-owed`,
  withdrawalComplete: (withdrawalId: string): string => `withdrawal:${withdrawalId}:complete`,
  /** A withdrawal rejected in review or failed at the provider (the two cannot both happen). */
  withdrawalReturn: (withdrawalId: string): string => `withdrawal:${withdrawalId}:return`,
};
