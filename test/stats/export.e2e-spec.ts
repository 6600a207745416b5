import { Workbook } from 'exceljs';
import { createTestApp, TestApp } from '../support/app';
import { binary, parseCsv } from '../support/csv';
import { createAgent, TestAgent } from '../support/actors';
import { SeededTask, seedTask } from '../support/seed-tasks';

const DAY = 86_400_000;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface Txn {
  transaction_id: string;
  type: string;
  direction: string;
  amount: number;
  currency: string;
  status: string;
  task_id: string | null;
  order_id: string | null;
  description: string;
  created_at: string;
}

describe('GET /v1/agent/stats/export', () => {
  let t: TestApp;
  let agent: TestAgent;
  let base: number;
  const at = (day: number, hour = 12) => new Date(base + day * DAY + hour * 3_600_000);
  const isoDay = (day: number) => at(day, 0).toISOString().slice(0, 10);
  /** Tasks created on days 2 to 4 (the export range), oldest first. */
  let inRange: SeededTask[];
  /** The agent's transactions on days 2 to 4, oldest first, as the transactions endpoint reports them. */
  let txns: Txn[];

  beforeAll(async () => {
    t = await createTestApp();
    const now = t.clock.now();
    base = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 20 * DAY;
    agent = await createAgent(t, { balanceCents: 200000 });
    await seedTask(t, agent.id, { status: 'pending', createdAt: at(1), title: 'before the range' });
    inRange = [
      await seedTask(t, agent.id, {
        status: 'completed',
        createdAt: at(2, 8),
        title: 'Shelf check, aisle "7", 2nd floor',
        budgetCents: 4000,
        maxWorkers: 2,
      }),
      await seedTask(t, agent.id, { status: 'failed', createdAt: at(3), title: '=HYPERLINK("http://x")' }),
      await seedTask(t, agent.id, {
        status: 'cancelled',
        createdAt: at(4, 9),
        title: '拍摄门店照片\r\nline two',
      }),
      await seedTask(t, agent.id, { status: 'in_progress', createdAt: at(4, 23), title: '-5 degrees check' }),
    ];
    await seedTask(t, agent.id, { status: 'pending', createdAt: at(5, 1), title: 'after the range' });
    const res = await t.http
      .get('/v1/agent/transactions')
      .query({ start_date: isoDay(2), end_date: isoDay(4), limit: 100 })
      .set('Authorization', agent.bearer)
      .expect(200);
    txns = (res.body.data as Txn[]).reverse();
    // holds of 4 tasks, 1 refund of the failed one, the agent's part of the cancellation; the completed task's
    // release and the in_progress task's future are not balance movements in the range
    expect(txns).toHaveLength(6);
  });
  afterAll(() => t.close());

  const exportFile = (query: Record<string, string>, auth = agent.bearer) =>
    t.http.get('/v1/agent/stats/export').query(query).set('Authorization', auth);
  const safe = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
  const iso = (d: Date | null) => (d ? d.toISOString() : '');
  /** Line breaks in spreadsheet cells are LF. */
  const lf = (s: string) => s.replace(/\r\n?/g, '\n');

  it('CSV: an attachment whose RFC 4180 rows are the tasks and transactions of the range', async () => {
    const res = await exportFile({ start_date: isoDay(2), end_date: isoDay(4) }).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="legwork-export-${isoDay(2)}-to-${isoDay(4)}.csv"`,
    );
    expect(res.text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(res.text.slice(1));
    expect(header).toEqual([
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
    ]);
    const record = (r: string[]) => Object.fromEntries(header.map((h, i) => [h, r[i]]));
    expect(rows.map(record)).toEqual([
      ...inRange.map((task) => ({
        record_type: 'task',
        id: task.id,
        created_at: task.createdAt.toISOString(),
        status: task.status,
        type: '',
        direction: '',
        task_id: task.id,
        order_id: '',
        title: safe(task.title),
        description: '',
        amount_cents: '',
        currency: '',
        budget_cents: String(task.budgetCents),
        max_workers: String(task.maxWorkers),
        total_cents: String(task.totalCents),
        deadline_at: task.deadlineAt.toISOString(),
        completed_at: iso(task.completedAt),
      })),
      ...txns.map((x) => ({
        record_type: 'transaction',
        id: x.transaction_id,
        created_at: x.created_at,
        status: x.status,
        type: x.type,
        direction: x.direction,
        task_id: x.task_id ?? '',
        order_id: x.order_id ?? '',
        title: '',
        description: safe(x.description),
        amount_cents: String(x.amount),
        currency: 'CNY',
        budget_cents: '',
        max_workers: '',
        total_cents: '',
        deadline_at: '',
        completed_at: '',
      })),
    ]);
    // Quoting kept the awkward titles intact; the formula got its guard.
    expect(rows.map((r) => record(r).title)).toEqual(
      expect.arrayContaining([
        'Shelf check, aisle "7", 2nd floor',
        `'=HYPERLINK("http://x")`,
        '拍摄门店照片\r\nline two',
        `'-5 degrees check`,
      ]),
    );
  });

  it('csv is the default format; an empty range has only the header', async () => {
    const res = await exportFile({ start_date: isoDay(10), end_date: isoDay(12) }).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(parseCsv(res.text.slice(1))).toHaveLength(1);
  });

  it('excel: an .xlsx workbook with the sheets Tasks and Transactions holding the same rows', async () => {
    const res = await exportFile({ start_date: isoDay(2), end_date: isoDay(4), format: 'excel' })
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="legwork-export-${isoDay(2)}-to-${isoDay(4)}.xlsx"`,
    );
    const wb = new Workbook();
    const file = res.body as Buffer;
    await wb.xlsx.load(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Tasks', 'Transactions']);
    const values = (name: string) =>
      wb
        .getWorksheet(name)!
        .getSheetValues()
        .filter(Boolean)
        .map((r) =>
          Array.from({ length: (r as unknown[]).length - 1 }, (_, i) => (r as unknown[])[i + 1] ?? null),
        )
        .map((r) => [...r, ...Array(Math.max(0, widths[name] - r.length)).fill(null)]);
    const widths: Record<string, number> = { Tasks: 9, Transactions: 10 };

    const [taskHeader, ...taskRows] = values('Tasks');
    expect(taskHeader).toEqual([
      'task_id',
      'title',
      'status',
      'budget_cents',
      'max_workers',
      'total_cents',
      'created_at',
      'deadline_at',
      'completed_at',
    ]);
    expect(taskRows).toEqual(
      inRange.map((x) => [
        x.id,
        lf(x.title),
        x.status,
        x.budgetCents,
        x.maxWorkers,
        x.totalCents,
        x.createdAt,
        x.deadlineAt,
        x.completedAt,
      ]),
    );
    const [txnHeader, ...txnRows] = values('Transactions');
    expect(txnHeader).toEqual([
      'transaction_id',
      'created_at',
      'type',
      'direction',
      'amount_cents',
      'currency',
      'status',
      'task_id',
      'order_id',
      'description',
    ]);
    expect(txnRows).toEqual(
      txns.map((x) => [
        x.transaction_id,
        new Date(x.created_at),
        x.type,
        x.direction,
        x.amount,
        'CNY',
        'completed',
        x.task_id,
        x.order_id,
        lf(x.description),
      ]),
    );
  });

  it.each([
    [{ start_date: '2024-01-01', end_date: '2024-01-02', format: 'pdf' }, 'format'],
    [{ end_date: '2024-01-02' }, 'start_date'],
    [{ start_date: '2024-01-02' }, 'end_date'],
    [{ start_date: '2024-01-01', end_date: '2025-01-01' }, 'end_date'],
    [{ start_date: '2024-01-03', end_date: '2024-01-01' }, 'start_date'],
  ])('refuses %j with 400 validation_error on %s', async (query, field) => {
    const res = await exportFile(query).expect(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("is for console sessions (API key 403) and holds only the caller's data", async () => {
    const res = await exportFile({ start_date: isoDay(2), end_date: isoDay(4) }, agent.key).expect(403);
    expect(res.body.error.code).toBe('forbidden');
    const stranger = await createAgent(t);
    const theirs = await exportFile({ start_date: isoDay(2), end_date: isoDay(4) }, stranger.bearer).expect(
      200,
    );
    expect(parseCsv(theirs.text.slice(1))).toHaveLength(1);
  });
});
