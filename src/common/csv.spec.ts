import { csvField, spreadsheetSafe, toCsv } from './csv';

describe('CSV writing (RFC 4180)', () => {
  it('quotes only fields that need it and doubles inner quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(42)).toBe('42');
    expect(csvField(null)).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('lf\nonly')).toBe('"lf\nonly"');
    expect(csvField('中文')).toBe('中文');
  });

  it('ends every record, the last included, with CRLF', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          [1, null],
          ['x,y', 'z'],
        ],
      ),
    ).toBe('a,b\r\n1,\r\n"x,y",z\r\n');
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    for (const s of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(spreadsheetSafe(s)).toBe(`'${s}`);
    for (const s of ['a=1', 'photo', '', ' =x']) expect(spreadsheetSafe(s)).toBe(s);
  });
});
