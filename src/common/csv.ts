export type CsvValue = string | number | null;

/**
 * RFC 4180: fields holding a comma, a double quote, CR or LF are quoted, inner quotes doubled; records end with
 * CRLF. Null is an empty field.
 */
export function csvField(value: CsvValue): string {
  const s = value === null ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly CsvValue[][]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',') + '\r\n').join('');
}

/**
 * Free text from users opened in a spreadsheet must not run as a formula (CSV injection): a leading = + - @ tab or
 * CR gets a ' in front, which spreadsheets show as text. Only for free-text columns; numbers and ids are ours.
 */
export function spreadsheetSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
