import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { sqlRows } from '../../database/sql';
import { Balances } from '../../escrow/services/balances';
import type { WorkerEarningsResponse } from '../dtos/worker-earnings.dto';

/**
 * The assignments that explain the ledger's figures: approved results and the payout of results awaiting review.
 * Assignments are the task module's table, which sits above this one, so the worker module reads them here.
 */
const ASSIGNMENT_SQL = `
  SELECT (SELECT count(*) FROM assignments WHERE worker_id = $1 AND status = 'approved')::int AS completed_tasks,
         COALESCE((SELECT sum(t.payout_cents) FROM assignments a JOIN tasks t ON t.id = a.task_id
                    WHERE a.worker_id = $1 AND a.status = 'submitted'), 0)::text AS pending_review`;

/**
 * Earnings as the ledger has them (Balances.workerEarnings: slot releases, cancellation compensation,
 * completed withdrawals), the balances as /v1/worker/balance shows them, and the assignments that explain them.
 */
@Injectable()
export class WorkerEarningsService {
  constructor(
    private readonly ds: DataSource,
    private readonly balances: Balances,
    private readonly clock: Clock,
  ) {}

  async earnings(actor: WorkerActor): Promise<WorkerEarningsResponse> {
    const now = this.clock.now();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const [earned, funds, [work]] = await Promise.all([
      this.balances.workerEarnings(actor.id, monthStart),
      this.balances.workerFunds(actor.id),
      sqlRows<{ completed_tasks: number; pending_review: string }>(this.ds, ASSIGNMENT_SQL, [actor.id]),
    ]);
    return {
      balance_cents: funds.availableCents,
      withdrawing_cents: funds.withdrawingCents,
      total_earned_cents: earned.taskEarningsCents + earned.compensationCents,
      task_earnings_cents: earned.taskEarningsCents,
      compensation_cents: earned.compensationCents,
      this_month_cents: earned.earnedSinceCents,
      withdrawn_cents: earned.withdrawnCents,
      completed_tasks: work.completed_tasks,
      pending_review_cents: Number(work.pending_review),
      currency: 'CNY',
    };
  }
}
