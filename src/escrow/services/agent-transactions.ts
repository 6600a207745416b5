import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { Accounts } from '../accounts';
import type { JournalKind } from '../journal';
import type { LedgerJournalRow } from '../ledger.rows';
import { LEDGER_CURRENCY } from '../money';

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
  payer_refund_reversal: 'refund',
  deposit: 'deposit',
};

/** The public id of a ledger journal as a transaction: stable, and the keyset cursor of the reference surface. */
export function transactionId(journalId: string): string {
  return `txn_${journalId}`;
}

interface Row {
  transaction_id: string;
  kind: JournalKind | 'order';
  order_id: string | null;
  task_id: string | null;
  description: string;
  created_at: Date;
  amount: string;
  status: TransactionStatus;
}

interface Query {
  sql: string;
  params: unknown[];
}

/**
 * The agent's transaction history: one row per journal that posted to the agent's available account (so the agent
 * part of a cancellation is a refund and a release, which only touches escrow, is not a row), plus the agent's payment
 * orders that have not (yet) moved money: `pending` while open, `failed` once failed or expired, shown as deposits.
 * A completed order appears through its deposit journal instead. Every listing (offset pages, cursor pages,
 * exports) goes through `source()` here. Rows are ordered by (created_at, sort_key): a journal's sort key is its id
 * padded to 20 digits, an order's is `o` + its id, compared byte-wise, which makes the order total and stable.
 */
@Injectable()
export class AgentTransactions {
  constructor(private readonly ds: DataSource) {}

  /** Offset pages, most recent first, with the total count of matching rows. */
  async page(
    agentId: string,
    filter: TransactionFilter,
    skip: number,
    limit: number,
  ): Promise<{ rows: AgentTransaction[]; total: number }> {
    const q = this.source(agentId, filter);
    const [{ total }] = await sqlRows<{ total: number }>(
      this.ds,
      `SELECT count(*)::int AS total FROM (${q.sql}) t`,
      q.params,
    );
    const rows = await this.select(q, 'DESC', limit, skip);
    return { rows, total };
  }

  /** Keyset pages on (created_at, sort_key), most recent first; `startingAfter` is a transaction_id of this agent. */
  async cursorPage(
    agentId: string,
    filter: TransactionFilter,
    limit: number,
    startingAfter?: string,
  ): Promise<{ rows: AgentTransaction[]; hasMore: boolean; nextCursor: string | null }> {
    const cursor = startingAfter === undefined ? null : await this.cursor(agentId, startingAfter);
    const q = this.source(agentId, filter);
    if (cursor) {
      q.params.push(cursor.createdAt, cursor.sortKey);
      q.sql = `SELECT * FROM (${q.sql}) c
                WHERE (c.created_at, c.sort_key) < ($${q.params.length - 1}::timestamptz, $${q.params.length}::text COLLATE "C")`;
    }
    const rows = await this.select(q, 'DESC', limit + 1, 0);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    return { rows: page, hasMore, nextCursor: hasMore ? page[page.length - 1].transaction_id : null };
  }

  /** Everything in [from, to), oldest first (exports). */
  async inRange(agentId: string, from: Date, to: Date): Promise<AgentTransaction[]> {
    return this.select(this.source(agentId, { from, to }), 'ASC', null, 0);
  }

  /** The rows matching the filter: settled ledger journals and unsettled payment orders. */
  private source(agentId: string, filter: TransactionFilter): Query {
    const types = filter.types ?? TRANSACTION_TYPES;
    const statuses = filter.statuses ?? TRANSACTION_STATUSES;
    const kinds = Object.entries(TYPE_OF_KIND)
      .filter(([, type]) => types.includes(type))
      .map(([kind]) => kind);
    const orderStatuses = [
      ...(statuses.includes('pending') ? ['pending', 'processing'] : []),
      ...(statuses.includes('failed') ? ['failed', 'expired'] : []),
    ];
    const params: unknown[] = [
      agentId,
      Accounts.agentAvailable(agentId).code,
      statuses.includes('completed') ? kinds : [],
      types.includes('deposit') ? orderStatuses : [],
    ];
    let range = '';
    if (filter.from) {
      params.push(filter.from);
      range += ` AND created_at >= $${params.length}`;
    }
    if (filter.to) {
      params.push(filter.to);
      range += ` AND created_at < $${params.length}`;
    }
    const sql = `SELECT * FROM (
        SELECT 'txn_' || j.id AS transaction_id, lpad(j.id::text, 20, '0') COLLATE "C" AS sort_key, j.kind,
               j.order_id, j.task_id::text AS task_id, j.description, j.created_at, p.amount::text AS amount,
               'completed' AS status
          FROM ledger_journals j
          JOIN ledger_postings p ON p.journal_id = j.id
                                AND p.account_id = (SELECT id FROM ledger_accounts WHERE code = $2)
         WHERE j.agent_id = $1 AND j.kind = ANY($3::text[])
        UNION ALL
        SELECT 'txn_' || o.id, ('o' || o.id) COLLATE "C", 'order', o.id, o.task_id::text,
               CASE WHEN o.task_id IS NULL THEN 'Recharge' ELSE 'Payment for task ' || o.task_id END
                 || ' via ' || o.payment_method || ', order ' || o.id
                 || CASE o.status WHEN 'expired' THEN ' (expired)' WHEN 'failed' THEN ' (failed)'
                                  ELSE ' (awaiting payment)' END,
               o.created_at, o.provider_amount_cents::text,
               CASE WHEN o.status IN ('pending', 'processing') THEN 'pending' ELSE 'failed' END
          FROM payment_orders o
         WHERE o.agent_id = $1 AND o.status = ANY($4::text[])
      ) u WHERE true${range}`;
    return { sql, params };
  }

  private async select(
    q: Query,
    order: 'ASC' | 'DESC',
    limit: number | null,
    offset: number,
  ): Promise<AgentTransaction[]> {
    const params = [...q.params, limit, offset];
    const rows = await sqlRows<Row>(
      this.ds,
      `SELECT * FROM (${q.sql}) s
        ORDER BY s.created_at ${order}, s.sort_key ${order}
        LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toTransaction);
  }

  /** The position of a transaction_id of this agent: a ledger journal (`txn_<id>`) or a payment order. */
  private async cursor(
    agentId: string,
    transactionId: string,
  ): Promise<{ createdAt: Date; sortKey: string }> {
    const journal = /^txn_(\d{1,18})$/.exec(transactionId);
    const order = /^txn_([0-9A-Za-z_-]{6,32})$/.exec(transactionId);
    type Position = Pick<LedgerJournalRow, 'created_at'> & { sort_key: string };
    let rows: Position[] = [];
    if (journal) {
      rows = await sqlRows<Position>(
        this.ds,
        `SELECT created_at, lpad(id::text, 20, '0') AS sort_key FROM ledger_journals WHERE id = $1 AND agent_id = $2`,
        [journal[1], agentId],
      );
    } else if (order) {
      rows = await sqlRows<Position>(
        this.ds,
        `SELECT created_at, 'o' || id AS sort_key FROM payment_orders WHERE id = $1 AND agent_id = $2`,
        [order[1], agentId],
      );
    }
    if (rows.length === 0) throw ApiError.field('starting_after', 'is not a transaction_id of this account');
    return { createdAt: rows[0].created_at, sortKey: rows[0].sort_key };
  }
}

function toTransaction(r: Row): AgentTransaction {
  const amount = Number(r.amount);
  const fromOrder = r.kind === 'order';
  return {
    transaction_id: r.transaction_id,
    type: fromOrder ? 'deposit' : TYPE_OF_KIND[r.kind as JournalKind]!,
    direction: fromOrder || amount > 0 ? 'credit' : 'debit',
    order_id: r.order_id,
    task_id: r.task_id,
    amount: Math.abs(amount),
    currency: LEDGER_CURRENCY,
    status: r.status,
    description: r.description,
    created_at: r.created_at,
  };
}
