import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { requestsByDay } from '../../auth/usage-tracker';
import { Clock } from '../../common/clock';
import { DAY_MS, dayRange, utcDay } from '../../common/dates';
import { Balances } from '../../escrow/services/balances';
import { centsToRmb } from '../../escrow/money';
import type { TaskStatus } from '../../task/domain/task-status';
import { TaskRepository } from '../../task/task.repository';
import type { DashboardStatsResponse, StatsRangeQuery, TaskCounts, UsageDataPoint } from '../dtos/stats.dto';

/** The longest range of the usage and export endpoints, in days (a leap year). */
export const MAX_STATS_DAYS = 366;

const ACTIVE: TaskStatus[] = ['assigned', 'in_progress', 'submitted'];

/** Agent statistics, computed from recorded data: tasks, the ledger and the daily request counts. */
@Injectable()
export class StatsService {
  constructor(
    private readonly ds: DataSource,
    private readonly balances: Balances,
    private readonly clock: Clock,
  ) {}

  async dashboard(agentId: string): Promise<DashboardStatsResponse> {
    const today = utcDay(this.clock.now());
    const [funds, tasks, usage] = await Promise.all([
      this.balances.agentFunds(agentId),
      this.taskCounts(agentId),
      requestsByDay(this.ds, agentId, today, today),
    ]);
    const decided = tasks.completed + tasks.failed;
    return {
      balance_cents: funds.availableCents,
      balance_rmb: centsToRmb(funds.availableCents),
      escrow_cents: funds.escrowCents,
      escrow_rmb: centsToRmb(funds.escrowCents),
      tasks,
      success_rate: decided === 0 ? 0 : Math.round((tasks.completed / decided) * 10_000) / 10_000,
      api_usage_today: usage.get(today) ?? 0,
    };
  }

  /** One point per UTC day of the range, days without activity included as zeros. */
  async usage(agentId: string, q: StatsRangeQuery): Promise<UsageDataPoint[]> {
    const range = dayRange(q.start_date, q.end_date, MAX_STATS_DAYS);
    const [requests, created, spend] = await Promise.all([
      requestsByDay(this.ds, agentId, range.firstDay, range.lastDay),
      TaskRepository.createdByDay(this.ds, agentId, range.from, range.to),
      this.balances.agentSpendByDay(agentId, range.from, range.to),
    ]);
    // range.from is the first day's UTC midnight, so each step of DAY_MS is the next calendar day.
    return Array.from({ length: range.days }, (_, i) => {
      const date = utcDay(new Date(range.from.getTime() + i * DAY_MS));
      return {
        date,
        requests: requests.get(date) ?? 0,
        tasks_created: created.get(date) ?? 0,
        spend_cents: spend.get(date) ?? 0,
      };
    });
  }

  private async taskCounts(agentId: string): Promise<TaskCounts> {
    const counts = await TaskRepository.countByStatus(this.ds, agentId);
    const of = (statuses: TaskStatus[]) => statuses.reduce((s, status) => s + (counts.get(status) ?? 0), 0);
    return {
      total: [...counts.values()].reduce((s, n) => s + n, 0),
      pending: of(['pending']),
      active: of(ACTIVE),
      completed: of(['completed']),
      failed: of(['failed']),
      cancelled: of(['cancelled']),
    };
  }
}
