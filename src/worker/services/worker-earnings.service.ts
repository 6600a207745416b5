import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { Accounts } from '../../escrow/accounts';
import { Balances } from '../../escrow/services/balances';
import type { WorkerEarningsResponse } from '../dtos/worker-earnings.dto';

/**
 * Earnings as the ledger has them, read in one statement (one snapshot): credits to the worker's available account
 * by slot releases (approved results) and cancellation compensation, completed withdrawals out of the withdrawing
 * account; plus the assignments that explain them (approved count, results awaiting review). Balances come from
 * Balances.workerFunds like /v1/worker/balance.
 */
const EARNINGS_SQL = `
  WITH credits AS (
    SELECT j.kind, j.created_at, p.amount
      FROM ledger_postings p
      JOIN ledger_journals j ON j.id = p.journal_id
     WHERE p.account_id = (SELECT id FROM ledger_accounts WHERE code = $1)
       AND j.kind IN ('slot_release', 'cancel_compensation'))
  SELECT COALESCE((SELECT sum(amount) FROM credits WHERE kind = 'slot_release'), 0)::text AS task_earnings,
         COALESCE((SELECT sum(amount) FROM credits WHERE kind = 'cancel_compensation'), 0)::text AS compensation,
         COALESCE((SELECT sum(amount) FROM credits WHERE created_at >= $3), 0)::text AS this_month,
         COALESCE((SELECT -sum(p.amount) FROM ledger_postings p JOIN ledger_journals j ON j.id = p.journal_id
                    WHERE p.account_id = (SELECT id FROM ledger_accounts WHERE code = $2)
                      AND j.kind = 'withdrawal_complete'), 0)::text AS withdrawn,
         (SELECT count(*) FROM assignments WHERE worker_id = $4 AND status = 'approved')::int AS completed_tasks,
         COALESCE((SELECT sum(t.payout_cents) FROM assignments a JOIN tasks t ON t.id = a.task_id
                    WHERE a.worker_id = $4 AND a.status = 'submitted'), 0)::text AS pending_review`;

@Injectable()
export class WorkerEarningsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly balances: Balances,
    private readonly clock: Clock,
  ) {}

  async earnings(actor: WorkerActor): Promise<WorkerEarningsResponse> {
    const now = this.clock.now();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const [row]: Record<string, string | number>[] = await this.ds.query(EARNINGS_SQL, [
      Accounts.workerAvailable(actor.id).code,
      Accounts.workerWithdrawing(actor.id).code,
      monthStart,
      actor.id,
    ]);
    const funds = await this.balances.workerFunds(actor.id);
    const taskEarnings = Number(row.task_earnings);
    const compensation = Number(row.compensation);
    return {
      balance_cents: funds.availableCents,
      withdrawing_cents: funds.withdrawingCents,
      total_earned_cents: taskEarnings + compensation,
      task_earnings_cents: taskEarnings,
      compensation_cents: compensation,
      this_month_cents: Number(row.this_month),
      withdrawn_cents: Number(row.withdrawn),
      completed_tasks: Number(row.completed_tasks),
      pending_review_cents: Number(row.pending_review),
      currency: 'CNY',
    };
  }
}
