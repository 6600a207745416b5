import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { sqlRows } from '../../database/sql';
import { Accounts } from '../accounts';
import type { LedgerAccountRow } from '../ledger.rows';

type Runner = Pick<DataSource, 'query'> | Pick<EntityManager, 'query'>;

export interface AgentFunds {
  availableCents: number;
  /** Sum of the escrow accounts of the agent's tasks. */
  escrowCents: number;
  /** What the agent owes from dispute decisions its balance could not cover (product-decisions §19). */
  owedCents: number;
}

export interface AgentBalance extends AgentFunds {
  lifetimeSpentCents: number;
  /** Time of the latest movement of the agent's money (its sign-up when there is none). */
  lastUpdated: Date;
}

export interface WorkerFunds {
  availableCents: number;
  withdrawingCents: number;
}

/** What the ledger has paid a worker and paid out to them, in cents. */
export interface WorkerEarnings {
  /** Credits of slot releases (approved results). */
  taskEarningsCents: number;
  /** Credits of cancellation compensation. */
  compensationCents: number;
  /** Both kinds of credit since the given instant. */
  earnedSinceCents: number;
  /** Completed withdrawals out of the withdrawing account. */
  withdrawnCents: number;
}

/**
 * Money that left an agent for good: what approved slots paid out to workers and to the platform fee, and the
 * share of cancelled slots paid to workers as compensation. Refunds to the payer are not spending (the money went
 * back to whoever paid it). Postings of those journals on worker and fee accounts, so the definition follows the
 * ledger exactly. `$1` is the agent id; callers add their own time bounds on `j.created_at`.
 */
const SPENT_POSTINGS = `
  FROM ledger_journals j
  JOIN ledger_postings p ON p.journal_id = j.id
  JOIN ledger_accounts a ON a.id = p.account_id
 WHERE j.agent_id = $1
   AND j.kind IN ('slot_release', 'cancel_compensation', 'dispute_settlement')
   AND a.kind IN ('worker_available', 'platform_fees')`;

/**
 * Read side of balances, shared by every surface that shows money (payment balance, agent profile, dashboard,
 * worker earnings). Each read is one statement, so its figures come from one snapshot and always add up.
 */
@Injectable()
export class Balances {
  constructor(private readonly ds: DataSource) {}

  async agentFunds(agentId: string, db: Runner = this.ds): Promise<AgentFunds> {
    const [row] = await sqlRows<{ available: string; escrow: string; owed: string }>(
      db,
      `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE code = $2), 0)::text AS available,
              COALESCE((SELECT sum(balance) FROM ledger_accounts WHERE agent_id = $1 AND kind = 'task_escrow'), 0)::text
                AS escrow,
              COALESCE((SELECT balance FROM ledger_accounts WHERE code = $3), 0)::text AS owed`,
      [agentId, Accounts.agentAvailable(agentId).code, Accounts.agentOwed(agentId).code],
    );
    return {
      availableCents: Number(row.available),
      escrowCents: Number(row.escrow),
      owedCents: Number(row.owed),
    };
  }

  async agentBalance(agentId: string, db: Runner = this.ds): Promise<AgentBalance> {
    const [row] = await sqlRows<{
      available: string;
      escrow: string;
      owed: string;
      spent: string;
      last_updated: Date;
    }>(
      db,
      `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE code = $2), 0)::text AS available,
                COALESCE((SELECT sum(balance) FROM ledger_accounts WHERE agent_id = $1 AND kind = 'task_escrow'), 0)::text
                  AS escrow,
                COALESCE((SELECT balance FROM ledger_accounts WHERE code = $3), 0)::text AS owed,
                COALESCE((SELECT sum(p.amount) ${SPENT_POSTINGS}), 0)::text AS spent,
                COALESCE((SELECT max(created_at) FROM ledger_journals WHERE agent_id = $1),
                         (SELECT created_at FROM agents WHERE id = $1)) AS last_updated`,
      [agentId, Accounts.agentAvailable(agentId).code, Accounts.agentOwed(agentId).code],
    );
    return {
      availableCents: Number(row.available),
      escrowCents: Number(row.escrow),
      owedCents: Number(row.owed),
      lifetimeSpentCents: Number(row.spent),
      lastUpdated: row.last_updated,
    };
  }

  /** Spending (as in lifetime spent) per UTC day in [from, to), keyed by YYYY-MM-DD; days without any are absent. */
  async agentSpendByDay(
    agentId: string,
    from: Date,
    to: Date,
    db: Runner = this.ds,
  ): Promise<Map<string, number>> {
    const rows = await sqlRows<{ day: string; cents: string }>(
      db,
      `SELECT to_char((j.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, sum(p.amount)::text AS cents
         ${SPENT_POSTINGS} AND j.created_at >= $2 AND j.created_at < $3
        GROUP BY 1`,
      [agentId, from, to],
    );
    return new Map(rows.map((r) => [r.day, Number(r.cents)]));
  }

  async workerFunds(workerId: string, db: Runner = this.ds): Promise<WorkerFunds> {
    const rows = await sqlRows<Pick<LedgerAccountRow, 'kind'> & { balance: string }>(
      db,
      `SELECT kind, balance::text AS balance FROM ledger_accounts WHERE code = ANY($1)`,
      [[Accounts.workerAvailable(workerId).code, Accounts.workerWithdrawing(workerId).code]],
    );
    const of = (kind: string) => Number(rows.find((r) => r.kind === kind)?.balance ?? 0);
    return { availableCents: of('worker_available'), withdrawingCents: of('worker_withdrawing') };
  }

  /** The worker's earnings as the ledger has them, in one statement (one snapshot). */
  async workerEarnings(workerId: string, since: Date, db: Runner = this.ds): Promise<WorkerEarnings> {
    const [row] = await sqlRows<{
      task_earnings: string;
      compensation: string;
      since: string;
      withdrawn: string;
    }>(
      db,
      `WITH credits AS (
         SELECT j.kind, j.created_at, p.amount
           FROM ledger_postings p
           JOIN ledger_journals j ON j.id = p.journal_id
          WHERE p.account_id = (SELECT id FROM ledger_accounts WHERE code = $1)
            AND j.kind IN ('slot_release', 'cancel_compensation', 'dispute_settlement'))
       SELECT COALESCE((SELECT sum(amount) FROM credits WHERE kind IN ('slot_release', 'dispute_settlement')), 0)::text
                AS task_earnings,
              COALESCE((SELECT sum(amount) FROM credits WHERE kind = 'cancel_compensation'), 0)::text AS compensation,
              COALESCE((SELECT sum(amount) FROM credits WHERE created_at >= $3), 0)::text AS since,
              COALESCE((SELECT -sum(p.amount) FROM ledger_postings p JOIN ledger_journals j ON j.id = p.journal_id
                         WHERE p.account_id = (SELECT id FROM ledger_accounts WHERE code = $2)
                           AND j.kind = 'withdrawal_complete'), 0)::text AS withdrawn`,
      [Accounts.workerAvailable(workerId).code, Accounts.workerWithdrawing(workerId).code, since],
    );
    return {
      taskEarningsCents: Number(row.task_earnings),
      compensationCents: Number(row.compensation),
      earnedSinceCents: Number(row.since),
      withdrawnCents: Number(row.withdrawn),
    };
  }
}
