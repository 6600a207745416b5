import type { EntityManager } from 'typeorm';
import { sqlRows } from '../database/sql';
import type { AccountRef } from './accounts';

/**
 * The SQL behind Ledger.post, in two round trips instead of six (every money-moving request pays for each
 * one): (1) claim the journal's reference and make sure its accounts exist; (2) lock the accounts in id order,
 * apply every balance change as one conditional update, and write the postings.
 */

export interface JournalRow {
  reference: string;
  kind: string;
  agentId: string | null;
  workerId: string | null;
  taskId: string | null;
  orderId: string | null;
  description: string;
  createdAt: Date;
}

/**
 * Claims the reference (a concurrent duplicate waits on the unique index, then finds it taken: journalId null) and
 * creates missing accounts, returning every account's id by code. An account created by a transaction that
 * committed while this statement ran is invisible to its snapshot; those few are read again in a new statement.
 */
export async function claimJournal(
  em: EntityManager,
  j: JournalRow,
  accounts: AccountRef[],
): Promise<{ journalId: string | null; ids: Map<string, string> }> {
  const unique = [...new Map(accounts.map((a) => [a.code, a])).values()];
  const codes = unique.map((a) => a.code);
  const rows = await sqlRows<{ journal_id: string | null; id: string | null; code: string | null }>(
    em,
    `WITH journal AS (
       INSERT INTO ledger_journals (reference, kind, agent_id, worker_id, task_id, order_id, description, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (reference) DO NOTHING RETURNING id),
     created AS (
       INSERT INTO ledger_accounts (code, kind, owner_id, agent_id)
       SELECT * FROM unnest($9::text[], $10::text[], $11::uuid[], $12::uuid[]) ON CONFLICT (code) DO NOTHING
       RETURNING id, code)
     SELECT (SELECT id FROM journal) AS journal_id, NULL::bigint AS id, NULL::text AS code
     UNION ALL SELECT NULL, id, code FROM created
     UNION ALL SELECT NULL, a.id, a.code FROM ledger_accounts a
      WHERE a.code = ANY($9::text[]) AND a.code NOT IN (SELECT code FROM created)`,
    [
      j.reference,
      j.kind,
      j.agentId,
      j.workerId,
      j.taskId,
      j.orderId,
      j.description,
      j.createdAt,
      codes,
      unique.map((a) => a.kind),
      unique.map((a) => a.ownerId),
      unique.map((a) => a.agentId),
    ],
  );
  const ids = new Map<string, string>();
  for (const r of rows) if (r.code && r.id) ids.set(r.code, String(r.id));
  const missing = codes.filter((c) => !ids.has(c));
  if (missing.length) {
    const late = await sqlRows<{ id: string; code: string }>(
      em,
      `SELECT id, code FROM ledger_accounts WHERE code = ANY($1)`,
      [missing],
    );
    for (const r of late) ids.set(r.code, String(r.id));
  }
  const journalId = rows.find((r) => r.journal_id !== null)?.journal_id ?? null;
  return { journalId: journalId === null ? null : String(journalId), ids };
}

export interface IdPosting {
  id: string;
  amount: number;
}

/**
 * Locks the journal's accounts in id order (so two journals over the same accounts cannot deadlock), applies the
 * net change of each account with the overdraft condition (a non-negative account never goes below zero; clearing
 * accounts may), and writes the postings. Returns the ids of accounts whose change was refused: when any was, the
 * caller must fail the transaction (the postings written here are rolled back with it).
 */
export async function applyJournal(
  em: EntityManager,
  journalId: string,
  postings: IdPosting[],
): Promise<string[]> {
  const net = new Map<string, number>();
  for (const p of postings) net.set(p.id, (net.get(p.id) ?? 0) + p.amount);
  const byId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
  const ids = [...net.keys()].sort(byId);
  const ordered = [...postings].sort((a, b) => byId(a.id, b.id) || a.amount - b.amount);
  const [row] = await sqlRows<{ moved: string[] | null }>(
    em,
    `WITH locked AS MATERIALIZED (
       SELECT id FROM ledger_accounts WHERE id = ANY($2::bigint[]) ORDER BY id FOR NO KEY UPDATE),
     moved AS (
       UPDATE ledger_accounts a SET balance = a.balance + v.delta
         FROM locked l JOIN unnest($2::bigint[], $3::bigint[]) AS v(id, delta) ON v.id = l.id
        WHERE a.id = l.id AND (a.kind IN ('provider_clearing', 'platform_credit', 'platform_advances')
                              OR a.balance + v.delta >= 0)
       RETURNING a.id),
     posted AS (
       INSERT INTO ledger_postings (journal_id, account_id, amount)
       SELECT $1, unnest($4::bigint[]), unnest($5::bigint[]))
     SELECT array_agg(id)::text[] AS moved FROM moved`,
    [journalId, ids, ids.map((id) => net.get(id)), ordered.map((p) => p.id), ordered.map((p) => p.amount)],
  );
  const moved = new Set(row?.moved ?? []);
  return ids.filter((id) => !moved.has(id) && net.get(id) !== 0);
}
