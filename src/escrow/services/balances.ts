import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Accounts } from '../accounts';

type Runner = Pick<DataSource, 'query'> | Pick<EntityManager, 'query'>;

export interface AgentFunds {
  availableCents: number;
  /** Sum of the escrow accounts of the agent's tasks. */
  escrowCents: number;
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
   AND j.kind IN ('slot_release', 'cancel_compensation')
   AND a.kind IN ('worker_available', 'platform_fees')`;

/**
 * Read side of balances, shared by every surface that shows money (payment balance, agent profile, dashboard,
 * worker earnings). Each read is one statement, so its figures come from one snapshot and always add up.
 */
@Injectable()
export class Balances {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async agentFunds(agentId: string, db: Runner = this.ds): Promise<AgentFunds> {
    const [row]: { available: string; escrow: string }[] = await db.query(
      `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE code = $2), 0)::text AS available,
              COALESCE((SELECT sum(balance) FROM ledger_accounts WHERE agent_id = $1 AND kind = 'task_escrow'), 0)::text
                AS escrow`,
      [agentId, Accounts.agentAvailable(agentId).code],
    );
    return { availableCents: Number(row.available), escrowCents: Number(row.escrow) };
  }

  async agentBalance(agentId: string, db: Runner = this.ds): Promise<AgentBalance> {
    const [row]: { available: string; escrow: string; spent: string; last_updated: Date }[] = await db.query(
      `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE code = $2), 0)::text AS available,
                COALESCE((SELECT sum(balance) FROM ledger_accounts WHERE agent_id = $1 AND kind = 'task_escrow'), 0)::text
                  AS escrow,
                COALESCE((SELECT sum(p.amount) ${SPENT_POSTINGS}), 0)::text AS spent,
                COALESCE((SELECT max(created_at) FROM ledger_journals WHERE agent_id = $1),
                         (SELECT created_at FROM agents WHERE id = $1)) AS last_updated`,
      [agentId, Accounts.agentAvailable(agentId).code],
    );
    return {
      availableCents: Number(row.available),
      escrowCents: Number(row.escrow),
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
    const rows: { day: string; cents: string }[] = await db.query(
      `SELECT to_char((j.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, sum(p.amount)::text AS cents
         ${SPENT_POSTINGS} AND j.created_at >= $2 AND j.created_at < $3
        GROUP BY 1`,
      [agentId, from, to],
    );
    return new Map(rows.map((r) => [r.day, Number(r.cents)]));
  }

  async workerFunds(workerId: string, db: Runner = this.ds): Promise<WorkerFunds> {
    const rows: { kind: string; balance: string }[] = await db.query(
      `SELECT kind, balance::text AS balance FROM ledger_accounts WHERE code = ANY($1)`,
      [[Accounts.workerAvailable(workerId).code, Accounts.workerWithdrawing(workerId).code]],
    );
    const of = (kind: string) => Number(rows.find((r) => r.kind === kind)?.balance ?? 0);
    return { availableCents: of('worker_available'), withdrawingCents: of('worker_withdrawing') };
  }
}
