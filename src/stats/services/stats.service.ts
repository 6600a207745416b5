import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { dayRange, utcDay } from '../../common/dates';
import { Balances } from '../../escrow/services/balances';
import { centsToRmb } from '../../escrow/money';
import type { DashboardStatsResponse, StatsRangeQuery, TaskCounts, UsageDataPoint } from '../dtos/stats.dto';

/** The longest range of the usage and export endpoints, in days (a leap year). */
export const MAX_STATS_DAYS = 366;

const ACTIVE = ['assigned', 'in_progress', 'submitted'];

/** Agent statistics, computed from recorded data: tasks, the ledger and the daily request counts. */
@Injectable()
export class StatsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly balances: Balances,
    private readonly clock: Clock,
  ) {}

  async dashboard(agentId: string): Promise<DashboardStatsResponse> {
    const [funds, tasks, usage] = await Promise.all([
      this.balances.agentFunds(agentId),
      this.taskCounts(agentId),
      this.ds.query<{ requests: string }[]>(
        `SELECT requests::text AS requests FROM api_usage_daily WHERE agent_id = $1 AND day = $2`,
        [agentId, utcDay(this.clock.now())],
      ),
    ]);
    const decided = tasks.completed + tasks.failed;
    return {
      balance_cents: funds.availableCents,
      balance_rmb: centsToRmb(funds.availableCents),
      escrow_cents: funds.escrowCents,
      escrow_rmb: centsToRmb(funds.escrowCents),
      tasks,
      success_rate: decided === 0 ? 0 : Math.round((tasks.completed / decided) * 10_000) / 10_000,
      api_usage_today: Number(usage[0]?.requests ?? 0),
    };
  }

  /** One point per UTC day of the range, days without activity included as zeros. */
  async usage(agentId: string, q: StatsRangeQuery): Promise<UsageDataPoint[]> {
    const range = dayRange(q.start_date, q.end_date, MAX_STATS_DAYS);
    const [rows, spend] = await Promise.all([
      this.ds.query<{ date: string; requests: string; tasks_created: string }[]>(
        // Calendar days as date + integer: no time zone can shift a day.
        `SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
                COALESCE(u.requests, 0)::text AS requests,
                COALESCE(t.n, 0)::text AS tasks_created
           FROM (SELECT $2::date + i AS day FROM generate_series(0, $3::int - 1) AS g(i)) d
           LEFT JOIN api_usage_daily u ON u.agent_id = $1 AND u.day = d.day
           LEFT JOIN (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n
                        FROM tasks WHERE agent_id = $1 AND created_at >= $4 AND created_at < $5
                       GROUP BY 1) t ON t.day = d.day
          ORDER BY d.day`,
        [agentId, range.firstDay, range.days, range.from, range.to],
      ),
      this.balances.agentSpendByDay(agentId, range.from, range.to),
    ]);
    return rows.map((r) => ({
      date: r.date,
      requests: Number(r.requests),
      tasks_created: Number(r.tasks_created),
      spend_cents: spend.get(r.date) ?? 0,
    }));
  }

  private async taskCounts(agentId: string): Promise<TaskCounts> {
    const rows: { status: string; n: string }[] = await this.ds.query(
      `SELECT status, count(*)::text AS n FROM tasks WHERE agent_id = $1 GROUP BY status`,
      [agentId],
    );
    const of = (statuses: string[]) =>
      rows.filter((r) => statuses.includes(r.status)).reduce((s, r) => s + Number(r.n), 0);
    return {
      total: rows.reduce((s, r) => s + Number(r.n), 0),
      pending: of(['pending']),
      active: of(ACTIVE),
      completed: of(['completed']),
      failed: of(['failed']),
      cancelled: of(['cancelled']),
    };
  }
}
