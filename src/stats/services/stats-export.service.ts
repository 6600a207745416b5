import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { dayRange } from '../../common/dates';
import { AgentTransaction, AgentTransactions } from '../../escrow/services/agent-transactions';
import { TaskRepository, type TaskSummary } from '../../task/task.repository';
import { CsvValue, spreadsheetSafe, toCsv } from '../../common/csv';
import type { ExportQuery } from '../dtos/stats.dto';
import { MAX_STATS_DAYS } from './stats.service';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_MIME = 'text/csv; charset=utf-8';

export interface ExportFile {
  filename: string;
  contentType: string;
  body: Buffer;
}

/** The columns of the CSV: a record_type column tells task rows from transaction rows (one RFC 4180 table). */
export const CSV_COLUMNS = [
  'record_type',
  'id',
  'created_at',
  'status',
  'type',
  'direction',
  'task_id',
  'order_id',
  'title',
  'description',
  'amount_cents',
  'currency',
  'budget_cents',
  'max_workers',
  'total_cents',
  'deadline_at',
  'completed_at',
] as const;

const TASK_COLUMNS = [
  ['task_id', 38],
  ['title', 40],
  ['status', 12],
  ['budget_cents', 14],
  ['max_workers', 12],
  ['total_cents', 14],
  ['created_at', 22],
  ['deadline_at', 22],
  ['completed_at', 22],
] as const;

const TRANSACTION_COLUMNS = [
  ['transaction_id', 16],
  ['created_at', 22],
  ['type', 10],
  ['direction', 10],
  ['amount_cents', 14],
  ['currency', 9],
  ['status', 11],
  ['task_id', 38],
  ['order_id', 24],
  ['description', 50],
] as const;

/**
 * The agent's tasks (by creation time) and transactions in a range of UTC days, as a downloadable file: CSV (UTF-8
 * with a byte-order mark so spreadsheets read Chinese text right) or an XLSX workbook. Rows are oldest first.
 */
@Injectable()
export class StatsExportService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly transactions: AgentTransactions,
    private readonly clock: Clock,
  ) {}

  async export(agentId: string, q: ExportQuery): Promise<ExportFile> {
    const range = dayRange(q.start_date, q.end_date, MAX_STATS_DAYS);
    const [tasks, transactions] = await Promise.all([
      TaskRepository.createdInRange(this.ds, agentId, range.from, range.to),
      this.transactions.inRange(agentId, range.from, range.to),
    ]);
    const name = `legwork-export-${range.firstDay}-to-${range.lastDay}`;
    if (q.format === 'excel') {
      return { filename: `${name}.xlsx`, contentType: XLSX_MIME, body: await this.xlsx(tasks, transactions) };
    }
    const csv =
      '\uFEFF' + toCsv(CSV_COLUMNS, [...tasks.map(taskCsvRow), ...transactions.map(transactionCsvRow)]);
    return { filename: `${name}.csv`, contentType: CSV_MIME, body: Buffer.from(csv, 'utf8') };
  }

  private async xlsx(tasks: TaskSummary[], transactions: AgentTransaction[]): Promise<Buffer> {
    // Loaded on the first Excel export, not at start-up: exceljs and its zip libraries are about 27 MiB of resident
    // memory on their own (`node -e "require('exceljs')"`); with the lazy OpenAPI document the API at rest went from
    // 157 to 147 MiB.
    // require, not import(): jest runs the e2e suite as CommonJS without VM modules, where import() fails.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Workbook } = require('exceljs') as typeof import('exceljs');
    const wb = new Workbook();
    wb.creator = 'Legwork';
    wb.created = this.clock.now();
    const sheet = (name: string, columns: readonly (readonly [string, number])[]) => {
      const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
      ws.columns = columns.map(([key, width]) => ({ header: key, key, width }));
      ws.getRow(1).font = { bold: true };
      return ws;
    };
    sheet('Tasks', TASK_COLUMNS).addRows(
      tasks.map((t) => ({
        task_id: t.id,
        title: cellText(t.title),
        status: t.status,
        budget_cents: t.budget_cents,
        max_workers: t.max_workers,
        total_cents: t.total_cents,
        created_at: t.created_at,
        deadline_at: t.deadline_at,
        completed_at: t.completed_at,
      })),
    );
    sheet('Transactions', TRANSACTION_COLUMNS).addRows(
      transactions.map((x) => ({
        transaction_id: x.transaction_id,
        created_at: x.created_at,
        type: x.type,
        direction: x.direction,
        amount_cents: x.amount,
        currency: x.currency,
        status: x.status,
        task_id: x.task_id,
        order_id: x.order_id,
        description: cellText(x.description),
      })),
    );
    return Buffer.from(await wb.xlsx.writeBuffer());
  }
}

/** A line break inside a cell is LF (XML text would turn a CR LF into LF on reading anyway). */
function cellText(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function row(values: Partial<Record<(typeof CSV_COLUMNS)[number], CsvValue>>): CsvValue[] {
  return CSV_COLUMNS.map((c) => values[c] ?? null);
}

function taskCsvRow(t: TaskSummary): CsvValue[] {
  return row({
    record_type: 'task',
    id: t.id,
    created_at: t.created_at.toISOString(),
    status: t.status,
    task_id: t.id,
    title: spreadsheetSafe(t.title),
    budget_cents: t.budget_cents,
    max_workers: t.max_workers,
    total_cents: t.total_cents,
    deadline_at: t.deadline_at.toISOString(),
    completed_at: t.completed_at?.toISOString() ?? null,
  });
}

function transactionCsvRow(x: AgentTransaction): CsvValue[] {
  return row({
    record_type: 'transaction',
    id: x.transaction_id,
    created_at: x.created_at.toISOString(),
    status: x.status,
    type: x.type,
    direction: x.direction,
    task_id: x.task_id,
    order_id: x.order_id,
    description: spreadsheetSafe(x.description),
    amount_cents: x.amount,
    currency: x.currency,
  });
}
