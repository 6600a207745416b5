import type { Response } from 'superagent';

/** A strict RFC 4180 reader: quoted fields with doubled quotes, CRLF record ends, anything else is an error. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else {
        quoted = false;
        if (!/^(,|\r\n)/.test(text.slice(i + 1, i + 3)))
          throw new Error(`text after a closing quote at ${i}`);
      }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else if (c === '"' || c === '\r' || c === '\n') throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
    else field += c;
  }
  if (quoted || field !== '' || row.length > 0) throw new Error('the last record must end with CRLF');
  return rows;
}

/** A supertest parser that keeps the body as bytes (XLSX files). */
export function binary(res: Response, cb: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}
