import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { Accounts } from './accounts';
import type { JournalKind } from './ledger.service';
import { LEDGER_CURRENCY } from './money';

export const TRANSACTION_TYPES = ['payment', 'refund', 'deposit'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const TRANSACTION_STATUSES = ['completed', 'pending', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/**
 * One customer-visible movement of an agent's available balance. `amount` is always positive cents; `direction`
 * says which way it moved (`debit`: the balance went down, `credit`: it went up). A `refund` is a credit when
 * escrow comes back to the balance and a debit when a payment is refunded out to the payer.
 */
export interface AgentTransaction {
  transaction_id: string;
  type: TransactionType;
  direction: 'credit' | 'debit';
  order_id: string | null;
  task_id: string | null;
  amount: number;
  currency: string;
  status: TransactionStatus;
  description: string;
  created_at: Date;
}

export interface TransactionFilter {
  types?: readonly TransactionType[];
  statuses?: readonly TransactionStatus[];
  /** Half-open [from, to) on created_at. */
  from?: Date | null;
  to?: Date | null;
}

/** Journal kinds that move an agent's available balance, as the type a customer sees. */
const TYPE_OF_KIND: Partial<Record<JournalKind, TransactionType>> = {
  escrow_hold: 'payment',
  slot_refund: 'refund',
  cancel_compensation: 'refund',
  payer_refund: 'refund',
  deposit: 'deposit',
};

/** The public id of a ledger journal as a transaction: stable, and the keyset cursor of the reference surface. */
export function transactionId(journalId: string): string {
  return `txn_${journalId}`;
}

interface Row {
  id: string;
  kind: JournalKind;
  order_id: string | null;
  task_id: string | null;
  description: string;
  created_at: Date;
  amount: string;
}

/**
 * The agent's transaction history, read from the ledger: one row per journal that posted to the agent's available
 * account (so the agent part of a cancellation is a refund and a release, which only touches escrow, is not a row).
 * Every listing (offset pages, cursor pages, exports) goes through `where()` and `select()` here, so a second source
 * (pending or failed payment orders) is added in one place.
 */
@Injectable()
export class AgentTransactionsService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Offset pages, most recent first, with the total count of matching rows. */
  async page(
    agentId: string,
    filter: TransactionFilter,
    skip: number,
    limit: number,
  ): Promise<{ rows: AgentTransaction[]; total: number }> {
    if (!this.includesLedger(filter)) return { rows: [], total: 0 };
    const w = this.where(agentId, filter);
    const [{ total }]: { total: string }[] = await this.ds.query(
      `SELECT count(*)::text AS total ${w.sql}`,
      w.params,
    );
    const rows = await this.select(w, 'DESC', limit, skip);
    return { rows, total: Number(total) };
  }

  /** Keyset pages on (created_at, id), most recent first; `startingAfter` is a transaction_id of this agent. */
  async cursorPage(
    agentId: string,
    filter: TransactionFilter,
    limit: number,
    startingAfter?: string,
  ): Promise<{ rows: AgentTransaction[]; hasMore: boolean; nextCursor: string | null }> {
    const cursor = startingAfter === undefined ? null : await this.cursor(agentId, startingAfter);
    if (!this.includesLedger(filter)) return { rows: [], hasMore: false, nextCursor: null };
    const w = this.where(agentId, filter);
    if (cursor) {
      w.params.push(cursor);
      w.sql += ` AND (j.created_at, j.id) < (SELECT created_at, id FROM ledger_journals WHERE id = $${w.params.length})`;
    }
    const rows = await this.select(w, 'DESC', limit + 1, 0);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    return { rows: page, hasMore, nextCursor: hasMore ? page[page.length - 1].transaction_id : null };
  }

  /** Everything in [from, to), oldest first (exports). */
  async inRange(agentId: string, from: Date, to: Date): Promise<AgentTransaction[]> {
    return this.select(this.where(agentId, { from, to }), 'ASC', null, 0);
  }

  /** Ledger rows are all settled, so they only show when `completed` is asked for. */
  private includesLedger(filter: TransactionFilter): boolean {
    return !filter.statuses || filter.statuses.includes('completed');
  }

  private where(agentId: string, filter: TransactionFilter): { sql: string; params: unknown[] } {
    const types = filter.types ?? TRANSACTION_TYPES;
    const kinds = Object.entries(TYPE_OF_KIND)
      .filter(([, type]) => types.includes(type))
      .map(([kind]) => kind);
    const params: unknown[] = [agentId, Accounts.agentAvailable(agentId).code, kinds];
    let sql = `FROM ledger_journals j
      JOIN ledger_postings p ON p.journal_id = j.id
                            AND p.account_id = (SELECT id FROM ledger_accounts WHERE code = $2)
     WHERE j.agent_id = $1 AND j.kind = ANY($3::text[])`;
    if (filter.from) {
      params.push(filter.from);
      sql += ` AND j.created_at >= $${params.length}`;
    }
    if (filter.to) {
      params.push(filter.to);
      sql += ` AND j.created_at < $${params.length}`;
    }
    return { sql, params };
  }

  private async select(
    w: { sql: string; params: unknown[] },
    order: 'ASC' | 'DESC',
    limit: number | null,
    offset: number,
  ): Promise<AgentTransaction[]> {
    const params = [...w.params, limit, offset];
    const rows: Row[] = await this.ds.query(
      `SELECT j.id::text AS id, j.kind, j.order_id, j.task_id::text AS task_id, j.description, j.created_at,
              p.amount::text AS amount
         ${w.sql}
        ORDER BY j.created_at ${order}, j.id ${order}
        LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toTransaction);
  }

  private async cursor(agentId: string, transactionId: string): Promise<string> {
    const m = /^txn_(\d{1,18})$/.exec(transactionId);
    const rows: unknown[] = m
      ? await this.ds.query(`SELECT 1 FROM ledger_journals WHERE id = $1 AND agent_id = $2`, [m[1], agentId])
      : [];
    if (!m || rows.length === 0) {
      throw ApiError.field('starting_after', 'is not a transaction_id of this account');
    }
    return m[1];
  }
}

function toTransaction(r: Row): AgentTransaction {
  const amount = Number(r.amount);
  return {
    transaction_id: transactionId(r.id),
    type: TYPE_OF_KIND[r.kind]!,
    direction: amount > 0 ? 'credit' : 'debit',
    order_id: r.order_id,
    task_id: r.task_id,
    amount: Math.abs(amount),
    currency: LEDGER_CURRENCY,
    status: 'completed',
    description: r.description,
    created_at: r.created_at,
  };
}
