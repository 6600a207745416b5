import type { Writable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { spreadsheetSafe } from '../../common/csv';
import { ApiError } from '../../common/errors/api-error';
import { CSV_MIME, writeChunk, writeCsv, writeXlsx, XLSX_MIME } from '../../common/spreadsheet';
import { sqlRows } from '../../database/sql';
import { withRisk } from '../domain/location-proof';
import type { ResultPhoto } from '../../events/event-data';
import { answerSchemaModel } from '../domain/answer-schema';
import type { AnswerExportFormat, AnswersExportQuery } from '../dtos/answers-export.dto';
import { resultPhoto } from '../task.presenter';
import { mapAssignment, type AssignmentRow } from '../task.repository';

export { XLSX_MIME };

const CONTENT_TYPES: Record<AnswerExportFormat, { mime: string; extension: string }> = {
  csv: { mime: CSV_MIME, extension: 'csv' },
  xlsx: { mime: XLSX_MIME, extension: 'xlsx' },
  excel: { mime: XLSX_MIME, extension: 'xlsx' },
  jsonl: { mime: 'application/x-ndjson; charset=utf-8', extension: 'jsonl' },
};

/** Columns before the answers: which submission a row is. */
const FIXED_COLUMNS = [
  'task_id',
  'task_title',
  'assignment_id',
  'worker_id',
  'status',
  'submitted_at',
  'reviewed_at',
] as const;
/** Submissions read per query while streaming (keyset paging on submitted_at, id). */
const PAGE = 500;

type Cell = string | number | null;

/** One field column: the answer field it shows and its header (prefixed when a fixed column has the name). */
interface FieldColumn {
  field: string;
  header: string;
}

/** What the export will write, decided (and validated) before the first byte is sent. */
export interface AnswersExportPlan {
  filename: string;
  contentType: string;
  write(out: Writable): Promise<void>;
}

interface ExportTask {
  id: string;
  title: string;
  answer_schema: Record<string, unknown> | null;
}

/**
 * The answers of an agent's tasks as a file (product-decisions §17): one row per submission (submitted, approved or
 * rejected), one column per answer field (the fields of every exported task's schema, in declaration order; a task
 * without a schema has its free-form data as JSON in `data`), then the photo links and a verification summary.
 * Streamed: submissions are read a page at a time and written as they come, so memory stays flat whatever the size.
 * Spreadsheet cells holding anyone's text are made safe (spreadsheetSafe); jsonl keeps the typed values.
 */
@Injectable()
export class AnswersExportService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async plan(actor: AgentActor, q: AnswersExportQuery): Promise<AnswersExportPlan> {
    const tasks = await this.tasks(actor, q);
    const columns = fieldColumns(tasks);
    const freeForm = tasks.some((t) => !t.answer_schema);
    const header = [
      ...FIXED_COLUMNS,
      ...columns.map((c) => c.header),
      ...(freeForm ? ['data'] : []),
      'photos',
      'verification',
    ];
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const row = (a: AssignmentRow): Cell[] => {
      const task = byId.get(a.task_id)!;
      const data = a.result_data ?? {};
      const photos = a.photos.map(resultPhoto);
      return [
        task.id,
        spreadsheetSafe(task.title),
        a.id,
        a.worker_id,
        a.status,
        a.submitted_at!.toISOString(),
        a.reviewed_at?.toISOString() ?? null,
        ...columns.map((c) => (task.answer_schema ? cell(data[c.field]) : null)),
        ...(freeForm ? [task.answer_schema ? null : spreadsheetSafe(JSON.stringify(data))] : []),
        photos.map((p) => p.url).join('\n') || null,
        photos.map(verificationSummary).join('\n') || null,
      ];
    };
    const { mime, extension } = CONTENT_TYPES[q.format];
    const day = this.clock.now().toISOString().slice(0, 10);
    const rows = () => this.rows(actor, q, row);
    const xlsx = (out: Writable) => writeXlsx(out, [{ name: 'Answers', header, rows: rows() }]);
    const writers: Record<AnswerExportFormat, (out: Writable) => Promise<void>> = {
      csv: (out) => writeCsv(out, header, rows()),
      xlsx,
      excel: xlsx,
      jsonl: (out) => this.writeJsonl(out, actor, q, byId),
    };
    return { filename: `legwork-answers-${day}.${extension}`, contentType: mime, write: writers[q.format] };
  }

  /** The tasks exported, oldest first; a listed id that is not the agent's task is refused (400), like a missing one. */
  private async tasks(actor: AgentActor, q: AnswersExportQuery): Promise<ExportTask[]> {
    const ids = listedIds(q);
    if (ids) {
      const owned = await sqlRows<{ id: string }>(
        this.ds,
        `SELECT id FROM tasks WHERE agent_id = $1 AND id = ANY($2)`,
        [actor.id, ids],
      );
      const missing = ids.filter((id) => !owned.some((r) => r.id === id));
      if (missing.length > 0) {
        throw ApiError.field(
          'task_ids',
          `${missing.length} of them are not your tasks (the first: ${missing[0]})`,
        );
      }
    }
    return sqlRows<ExportTask>(
      this.ds,
      `SELECT id, title, answer_schema FROM tasks
        WHERE agent_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::uuid[] IS NULL OR id = ANY($3))
        ORDER BY created_at, id`,
      [actor.id, q.status ?? null, ids],
    );
  }

  /** Every submission of the exported tasks, a page at a time, oldest submission first. */
  private async *submissions(actor: AgentActor, q: AnswersExportQuery): AsyncGenerator<AssignmentRow> {
    const ids = listedIds(q);
    let after: [Date, string] | null = null;
    for (;;) {
      const rows: Record<string, unknown>[] = await sqlRows(
        this.ds,
        `SELECT a.* FROM assignments a JOIN tasks t ON t.id = a.task_id
          WHERE t.agent_id = $1 AND ($2::text IS NULL OR t.status = $2) AND ($3::uuid[] IS NULL OR t.id = ANY($3))
            AND a.submitted_at IS NOT NULL AND a.status IN ('submitted', 'approved', 'rejected')
            AND ($4::timestamptz IS NULL OR (a.submitted_at, a.id) > ($4, $5::uuid))
          ORDER BY a.submitted_at, a.id LIMIT ${PAGE}`,
        [actor.id, q.status ?? null, ids, after?.[0] ?? null, after?.[1] ?? null],
      );
      for (const r of rows) yield mapAssignment(r);
      if (rows.length < PAGE) return;
      const last: Record<string, unknown> = rows[rows.length - 1];
      after = [last.submitted_at as Date, last.id as string];
    }
  }

  /** The spreadsheet rows, a submission at a time. */
  private async *rows(
    actor: AgentActor,
    q: AnswersExportQuery,
    row: (a: AssignmentRow) => Cell[],
  ): AsyncGenerator<Cell[]> {
    for await (const a of this.submissions(actor, q)) yield row(a);
  }

  private async writeJsonl(
    out: Writable,
    actor: AgentActor,
    q: AnswersExportQuery,
    tasks: Map<string, ExportTask>,
  ): Promise<void> {
    for await (const a of this.submissions(actor, q)) {
      const task = tasks.get(a.task_id)!;
      const line = {
        task_id: task.id,
        task_title: task.title,
        assignment_id: a.id,
        worker_id: a.worker_id,
        status: a.status,
        submitted_at: a.submitted_at!.toISOString(),
        reviewed_at: a.reviewed_at?.toISOString() ?? null,
        data: a.result_data ?? {},
        photos: a.photos.map(resultPhoto),
      };
      await writeChunk(out, JSON.stringify(line) + '\n');
    }
  }
}

/** Field columns across the exported tasks' schemas, in declaration order of first appearance. */
function fieldColumns(tasks: ExportTask[]): FieldColumn[] {
  const seen = new Set<string>();
  const columns: FieldColumn[] = [];
  const taken = new Set<string>([...FIXED_COLUMNS, 'data', 'photos', 'verification']);
  for (const t of tasks) {
    if (!t.answer_schema) continue;
    for (const f of answerSchemaModel(t.answer_schema).fields) {
      if (seen.has(f.name)) continue;
      seen.add(f.name);
      columns.push({ field: f.name, header: taken.has(f.name) ? `answer.${f.name}` : f.name });
    }
  }
  return columns;
}

/** A typed answer as a cell: numbers stay numbers, a multi-select is its choices joined, text is made safe. */
function cell(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return spreadsheetSafe(value.join(', '));
  return spreadsheetSafe(typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * One line per photo: which field, where the position came from, how far, when taken, first use or reused, and the
 * risk with its signals' codes.
 */
export function verificationSummary(p: ResultPhoto): string {
  const v = p.verification;
  const name = p.field ?? 'photo';
  if (!v) return `${name}: not checked`;
  const when =
    v.taken_during_assignment === null
      ? 'no capture time'
      : v.taken_during_assignment
        ? 'taken during the assignment'
        : 'taken outside the assignment';
  const use = v.reused ? `reused (${v.earlier_submissions} earlier)` : 'first use';
  // Risk and signal codes (product-decisions §18); verifications stored before them have them derived.
  const { risk, signals } = withRisk(v);
  const why = signals.length > 0 ? ` (${signals.map((s) => s.code).join(', ')})` : '';
  return `${name}: ${v.location_source} ${v.distance_meters} m, ${when}, ${use}, risk ${risk}${why}`;
}

function listedIds(q: AnswersExportQuery): string[] | null {
  return q.task_ids ? [...new Set(q.task_ids.toLowerCase().split(','))] : null;
}
