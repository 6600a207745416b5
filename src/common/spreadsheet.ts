import { once } from 'node:events';
import { Writable } from 'node:stream';
import { csvField, type CsvValue } from './csv';

export const CSV_MIME = 'text/csv; charset=utf-8';
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A spreadsheet cell: CSV takes text, numbers and empty; an XLSX cell may also be a date. */
export type SheetCell = CsvValue | Date;
/** Rows as they come: an array, or a generator reading pages from the database. */
export type SheetRows<T extends SheetCell> = Iterable<readonly T[]> | AsyncIterable<readonly T[]>;

export interface Sheet {
  name: string;
  header: readonly string[];
  /** Column widths in characters, in header order; without them the spreadsheet's default. */
  widths?: readonly number[];
  rows: SheetRows<SheetCell>;
}

/**
 * CSV (RFC 4180, CRLF records) in UTF-8 with a byte-order mark, so spreadsheets read Chinese text right. Written a
 * row at a time with backpressure. Free text in the cells must already be spreadsheetSafe: only the caller knows
 * which columns hold anyone's text.
 */
export async function writeCsv(
  out: Writable,
  header: readonly string[],
  rows: SheetRows<CsvValue>,
): Promise<void> {
  const line = (cells: readonly CsvValue[]) => cells.map(csvField).join(',') + '\r\n';
  await writeChunk(out, '\uFEFF' + line(header));
  for await (const r of rows) await writeChunk(out, line(r));
}

/**
 * An XLSX workbook, one sheet per entry, each with a bold header row frozen on top. Streamed (exceljs's
 * WorkbookWriter): each row is committed as it is added, so memory stays flat whatever the size. Ends `out`.
 */
export async function writeXlsx(out: Writable, sheets: readonly Sheet[], created?: Date): Promise<void> {
  // Loaded on the first Excel export, not at start-up: exceljs and its zip libraries are about 27 MiB of resident
  // memory on their own (`node -e "require('exceljs')"`); with the lazy OpenAPI document the API at rest went from
  // 157 to 147 MiB.
  // require, not import(): jest runs the e2e suite as CommonJS without VM modules, where import() fails.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { stream } = require('exceljs') as typeof import('exceljs');
  const wb = new stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  wb.creator = 'Legwork';
  if (created) wb.created = created;
  for (const sheet of sheets) {
    const ws = wb.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1 }] });
    if (sheet.widths) ws.columns = sheet.widths.map((width) => ({ width }));
    const top = ws.addRow([...sheet.header]);
    top.font = { bold: true };
    top.commit();
    for await (const r of sheet.rows) ws.addRow(r.map(cellText)).commit();
    ws.commit();
  }
  await wb.commit();
}

/** A whole file in memory, for exports small enough to answer in one body (the statistics export). */
export async function spreadsheetBuffer(write: (out: Writable) => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await write(sink);
  return Buffer.concat(chunks);
}

/**
 * Writes with backpressure: waits for the client to take what was sent before the next row is read. A client that
 * went away ends the export (the rejection stops the loop; nothing is left to answer).
 */
export async function writeChunk(out: Writable, text: string): Promise<void> {
  if (out.destroyed) throw new Error('export client gone');
  if (!out.write(text)) await Promise.race([once(out, 'drain'), once(out, 'close')]);
}

/** A line break inside a cell is LF (XML text would turn a CR LF into LF on reading anyway). */
function cellText(value: SheetCell): SheetCell {
  return typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : value;
}
