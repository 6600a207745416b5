import { numericColumns } from '../database/sql';
import type { AccountKind } from './accounts';
import type { JournalKind } from './journal';

/**
 * The rows of the tables the escrow module owns. Ids of the ledger tables are bigint and stay strings (they are
 * identifiers, never added up); amounts and balances become numbers through the mappers below.
 */

/** A ledger_accounts row. Only the ledger's own writer changes balance (journal-writer.ts). */
export interface LedgerAccountRow {
  id: string;
  code: string;
  kind: AccountKind;
  owner_id: string | null;
  agent_id: string | null;
  balance: number;
  created_at: Date;
}

/** A ledger_journals row: one transfer, unique by reference; append-only (a trigger refuses updates). */
export interface LedgerJournalRow {
  id: string;
  reference: string;
  kind: JournalKind;
  agent_id: string | null;
  worker_id: string | null;
  task_id: string | null;
  order_id: string | null;
  description: string;
  created_at: Date;
}

/** A ledger_postings row; a journal's postings sum to zero. */
export interface LedgerPostingRow {
  id: string;
  journal_id: string;
  account_id: string;
  amount: number;
}

/** An admin_credits row: the audit record of an operator's manual deposit, keyed by its journal. */
export interface AdminCreditRow {
  journal_id: string;
  admin_id: string;
  agent_id: string;
  amount_cents: number;
  reason: string;
  idempotency_key: string | null;
  balance_after_cents: number;
  created_at: Date;
}

/** balance is bigint (text from pg). Takes any selection of ledger_accounts columns. */
export function toLedgerAccount<T extends Partial<LedgerAccountRow> = LedgerAccountRow>(
  row: Record<string, unknown>,
): T {
  return numericColumns<T>(row, ['balance']);
}

export const toAdminCredit = (row: Record<string, unknown>): AdminCreditRow =>
  numericColumns<AdminCreditRow>(row, ['amount_cents', 'balance_after_cents']);
