import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { toCsv, type CsvValue } from '../../common/csv';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';

/** China time, where the quarter is drawn (workers' income is declared by China's calendar). */
const CHINA_OFFSET_MS = 8 * 3_600_000;

/** The ledger journals that pay a worker for work: an approval (or an accepted unable report), a dispute, a cancellation. */
const EARNING_KINDS = ['slot_release', 'dispute_settlement', 'cancel_compensation'];

export const WORKER_INCOME_COLUMNS = [
  'worker_id',
  'period_start',
  'period_end',
  'gross_cents',
  'gross_rmb',
  'fees_cents',
  'fees_rmb',
  'net_cents',
  'net_rmb',
  'withdrawn_cents',
  'withdrawn_rmb',
  'tasks_paid',
] as const;

export interface Quarter {
  label: string;
  start: Date;
  end: Date;
  /** The bounds as China-time RFC 3339, for the file's own columns. */
  startText: string;
  endText: string;
}

/** The quarter's bounds: 00:00 UTC+8 on its first day to 00:00 UTC+8 on the next quarter's first day. */
export function chinaQuarter(label: string): Quarter {
  const year = Number(label.slice(0, 4));
  const q = Number(label.slice(6));
  const startMonth = (q - 1) * 3;
  const endYear = q === 4 ? year + 1 : year;
  const endMonth = q === 4 ? 0 : startMonth + 3;
  const text = (y: number, m: number) =>
    `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-01T00:00:00+08:00`;
  return {
    label,
    start: new Date(Date.UTC(year, startMonth, 1) - CHINA_OFFSET_MS),
    end: new Date(Date.UTC(endYear, endMonth, 1) - CHINA_OFFSET_MS),
    startText: text(year, startMonth),
    endText: text(endYear, endMonth),
  };
}

/** Cents as yuan with two decimals, in integer arithmetic (no float rounding on large sums). */
export function centsToYuanText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

interface IncomeRow {
  worker_id: string;
  net: string;
  fees: string;
  withdrawn: string;
  tasks_paid: number;
}

/**
 * Per worker, from the ledger's postings in the quarter: net is what reached the worker's available balance from
 * earning journals, fees what the platform took in those same journals, gross their sum (what the agent paid for the
 * work, before the fee; an unable report's refund to the agent is neither). Withdrawn is what left through completed
 * withdrawals (a failed one returned and is not counted). Tasks paid counts tasks with a credit to the worker.
 * The worker's own account is matched by owner, so a journal naming the worker never counts another's posting.
 */
const INCOME_SQL = `
  WITH moves AS (
    SELECT j.worker_id, j.kind AS journal_kind, j.task_id, a.kind AS account_kind, p.amount
      FROM ledger_journals j
      JOIN ledger_postings p ON p.journal_id = j.id
      JOIN ledger_accounts a ON a.id = p.account_id
     WHERE j.worker_id IS NOT NULL AND j.created_at >= $1 AND j.created_at < $2
       AND (j.kind = ANY($3) OR j.kind = 'withdrawal_complete')
       AND (a.kind = 'platform_fees' OR a.owner_id = j.worker_id))
  SELECT worker_id::text AS worker_id,
         COALESCE(sum(amount) FILTER (WHERE journal_kind = ANY($3) AND account_kind = 'worker_available'), 0)::text AS net,
         COALESCE(sum(amount) FILTER (WHERE journal_kind = ANY($3) AND account_kind = 'platform_fees'), 0)::text AS fees,
         COALESCE(-sum(amount) FILTER (WHERE journal_kind = 'withdrawal_complete'
                                        AND account_kind = 'worker_withdrawing'), 0)::text AS withdrawn,
         count(DISTINCT task_id) FILTER (WHERE journal_kind = ANY($3) AND account_kind = 'worker_available'
                                          AND amount > 0)::int AS tasks_paid
    FROM moves
   GROUP BY worker_id
   ORDER BY worker_id`;

/** GET /v1/admin/reports/worker-income: the quarterly worker-income file operators file with (product-decisions §19). */
@Injectable()
export class WorkerIncomeReport {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async csv(label: string): Promise<{ filename: string; body: string }> {
    const quarter = chinaQuarter(label);
    if (quarter.start.getTime() > this.clock.now().getTime())
      throw ApiError.field(
        'quarter',
        `${label} has not begun yet (quarters are drawn in Asia/Shanghai time)`,
      );
    const rows = await sqlRows<IncomeRow>(this.ds, INCOME_SQL, [quarter.start, quarter.end, EARNING_KINDS]);
    const lines: CsvValue[][] = rows
      .map((r) => ({ ...r, net: Number(r.net), fees: Number(r.fees), withdrawn: Number(r.withdrawn) }))
      .filter((r) => r.net !== 0 || r.fees !== 0 || r.withdrawn !== 0)
      .map((r) => {
        const gross = r.net + r.fees;
        // Every cell is an id, a fixed timestamp or a number we computed: nothing a user typed, so nothing a
        // spreadsheet could run (csv.ts spreadsheetSafe is for free text, of which this file has none).
        return [
          r.worker_id,
          quarter.startText,
          quarter.endText,
          gross,
          centsToYuanText(gross),
          r.fees,
          centsToYuanText(r.fees),
          r.net,
          centsToYuanText(r.net),
          r.withdrawn,
          centsToYuanText(r.withdrawn),
          r.tasks_paid,
        ];
      });
    return { filename: `worker-income-${label}.csv`, body: toCsv(WORKER_INCOME_COLUMNS, lines) };
  }
}
