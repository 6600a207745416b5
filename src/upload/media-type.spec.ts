import { sniffMediaType } from './media-type';

const ascii = (s: string) => Buffer.from(s, 'latin1');

/** An ftyp box: size, "ftyp", major brand, minor version, compatible brands. */
function ftyp(major: string, compatible: string[] = [], size?: number): Buffer {
  const body = Buffer.concat([ascii('ftyp'), ascii(major), Buffer.alloc(4), ...compatible.map(ascii)]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(size ?? body.length + 4);
  return Buffer.concat([head, body, Buffer.alloc(64)]);
}

describe('sniffMediaType (by bytes only)', () => {
  it.each([
    ['JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg', 'jpg'],
    ['PNG', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png', 'png'],
    ['PDF', ascii('%PDF-1.7\n%\xe2\xe3\n1 0 obj'), 'application/pdf', 'pdf'],
    ['MP4 (isom)', ftyp('isom', ['isom', 'iso2', 'avc1', 'mp41']), 'video/mp4', 'mp4'],
    ['MP4 (mp42)', ftyp('mp42', ['mp42', 'isom']), 'video/mp4', 'mp4'],
    ['MOV (qt major brand)', ftyp('qt  ', ['qt  ']), 'video/quicktime', 'mov'],
    ['MOV (qt among compatible brands)', ftyp('XAVC', ['XAVC', 'qt  ']), 'video/quicktime', 'mov'],
    ['MP4 (unknown major, isom compatible)', ftyp('zzzz', ['isom']), 'video/mp4', 'mp4'],
  ])('recognises %s', (_name, bytes, mime, ext) => {
    expect(sniffMediaType(bytes)).toEqual({ mime, ext });
  });

  it.each([
    ['plain text', ascii('hello, this is not a photo at all')],
    ['empty', Buffer.alloc(0)],
    ['JPEG magic cut short', Buffer.from([0xff, 0xd8])],
    ['PNG signature damaged', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x00, 0, 0])],
    ['PDF not at offset 0', ascii(' %PDF-1.7\n')],
    ['PDF without a version', ascii('%PDF-x.y\n')],
    ['GIF', ascii('GIF89a\x01\x00\x01\x00')],
    ['HTML', ascii('<!doctype html><html>')],
    ['M4A (audio-only brand)', ftyp('M4A ', ['M4A ', 'mp42'].slice(0, 1))],
    ['HEIC', ftyp('heic', ['mif1', 'heic'])],
    ['ftyp box larger than the file', ftyp('isom', ['isom'], 100_000)],
    ['ftyp box too small', ftyp('isom', [], 8)],
    ['ftyp not at offset 4', Buffer.concat([Buffer.alloc(1), ftyp('isom', ['isom'])])],
  ])('refuses %s', (_name, bytes) => {
    expect(sniffMediaType(bytes)).toBeNull();
  });
});
