import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { dayRange } from '../../common/dates';
import { AgentTransaction, AgentTransactions } from '../../escrow/services/agent-transactions';
import { TaskRepository, type TaskSummary } from '../../task/task.repository';
import { CsvValue, spreadsheetSafe } from '../../common/csv';
import {
  CSV_MIME,
  type Sheet,
  type SheetCell,
  spreadsheetBuffer,
  writeCsv,
  writeXlsx,
  XLSX_MIME,
} from '../../common/spreadsheet';
import type { ExportQuery } from '../dtos/stats.dto';
import { MAX_STATS_DAYS } from './stats.service';

export { CSV_MIME, XLSX_MIME };

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
    private readonly ds: DataSource,
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
      const body = await spreadsheetBuffer((out) =>
        writeXlsx(out, sheets(tasks, transactions), this.clock.now()),
      );
      return { filename: `${name}.xlsx`, contentType: XLSX_MIME, body };
    }
    const rows = [
      ...tasks.map((t) => csvRow('task', t.id, taskCells(t))),
      ...transactions.map((x) => csvRow('transaction', x.transaction_id, transactionCells(x))),
    ];
    const body = await spreadsheetBuffer((out) => writeCsv(out, CSV_COLUMNS, rows));
    return { filename: `${name}.csv`, contentType: CSV_MIME, body };
  }
}

/**
 * A task's cells by column name: its summary (exactly the Tasks sheet's columns) with the id under `task_id`; the CSV
 * takes the ones whose names it shares.
 */
function taskCells(t: TaskSummary): Record<(typeof TASK_COLUMNS)[number][0], SheetCell> {
  return { ...t, task_id: t.id };
}

/** A transaction's cells by column name: the transaction as listed, its amount under `amount_cents`. */
function transactionCells(x: AgentTransaction): Record<(typeof TRANSACTION_COLUMNS)[number][0], SheetCell> {
  return { ...x, amount_cents: x.amount };
}

/** The workbook: a sheet of tasks and one of transactions, each with its own columns (cells keep their types). */
function sheets(tasks: TaskSummary[], transactions: AgentTransaction[]): Sheet[] {
  return [
    sheet('Tasks', TASK_COLUMNS, tasks.map(taskCells)),
    sheet('Transactions', TRANSACTION_COLUMNS, transactions.map(transactionCells)),
  ];
}

/** A sheet of records mapped to cells by column name, in the order and widths of `columns`. */
function sheet<K extends string>(
  name: string,
  columns: readonly (readonly [K, number])[],
  records: readonly Record<K, SheetCell>[],
): Sheet {
  return {
    name,
    header: columns.map(([key]) => key),
    widths: columns.map(([, width]) => width),
    rows: records.map((r) => columns.map(([key]) => r[key])),
  };
}

/** Columns of the CSV holding anyone's free text: made spreadsheetSafe (the workbook's typed cells need not be). */
const FREE_TEXT_COLUMNS: ReadonlySet<string> = new Set(['title', 'description']);

/**
 * A record's row of the one CSV table: its type and id, then its cells under the CSV's column names (a column the
 * record lacks is empty); times as ISO 8601 text.
 */
function csvRow(recordType: string, id: string, cells: Partial<Record<string, SheetCell>>): CsvValue[] {
  return CSV_COLUMNS.map((c) => {
    if (c === 'record_type') return recordType;
    if (c === 'id') return id;
    const value = cells[c] ?? null;
    if (value instanceof Date) return value.toISOString();
    return typeof value === 'string' && FREE_TEXT_COLUMNS.has(c) ? spreadsheetSafe(value) : value;
  });
}
