/**
 * The file types Legwork accepts (product-decisions §9), recognised by their bytes only: the file name and the declared
 * Content-Type are whatever the client says and are ignored.
 *
 * Written here instead of using the `file-type` package: its current versions are ES modules only, which Node 20's
 * CommonJS build can load (require(esm)) but jest's CommonJS runtime cannot, and we need exactly five signatures,
 * checked strictly, not hundreds checked loosely.
 */
export interface MediaType {
  mime: 'image/jpeg' | 'image/png' | 'application/pdf' | 'video/mp4' | 'video/quicktime';
  ext: 'jpg' | 'png' | 'pdf' | 'mp4' | 'mov';
}

export const JPEG: MediaType = { mime: 'image/jpeg', ext: 'jpg' };
export const PNG: MediaType = { mime: 'image/png', ext: 'png' };
export const PDF: MediaType = { mime: 'application/pdf', ext: 'pdf' };
export const MP4: MediaType = { mime: 'video/mp4', ext: 'mp4' };
export const MOV: MediaType = { mime: 'video/quicktime', ext: 'mov' };

export const ACCEPTED_MIME_TYPES = [JPEG, PNG, PDF, MP4, MOV].map((t) => t.mime);
export const PHOTO_MIME_TYPES = [JPEG.mime, PNG.mime];

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** ISO base media (MP4) major/compatible brands of video files. M4A and other audio-only brands are not listed. */
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'iso7',
  'iso8',
  'iso9',
  'mp41',
  'mp42',
  'mp71',
  'avc1',
  'dash',
  'M4V ',
  'M4VH',
  'M4VP',
  'MSNV',
]);
const QUICKTIME_BRAND = 'qt  ';

/** The accepted type the bytes are, or null. */
export function sniffMediaType(b: Buffer): MediaType | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return JPEG;
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return PNG;
  // "%PDF-" then a version digit, at the very start (readers tolerate junk before it; we do not).
  if (b.length >= 8 && b.toString('latin1', 0, 5) === '%PDF-' && /[12]/.test(b.toString('latin1', 5, 6)))
    return PDF;
  return sniffIsoMedia(b);
}

/**
 * MP4 and MOV both start with an `ftyp` box: a 32-bit size, "ftyp", the major brand, a minor version, then
 * compatible brands. "qt  " means QuickTime (MOV). The box must fit in the file and hold whole 4-byte brands.
 */
function sniffIsoMedia(b: Buffer): MediaType | null {
  if (b.length < 16 || b.toString('latin1', 4, 8) !== 'ftyp') return null;
  const size = b.readUInt32BE(0);
  if (size < 16 || size > b.length || size % 4 !== 0 || size > 4096) return null;
  const major = b.toString('latin1', 8, 12);
  const compatible: string[] = [];
  for (let i = 16; i + 4 <= size; i += 4) compatible.push(b.toString('latin1', i, i + 4));
  if (major === QUICKTIME_BRAND) return MOV;
  if (MP4_BRANDS.has(major)) return MP4;
  if (compatible.includes(QUICKTIME_BRAND)) return MOV;
  if (compatible.some((c) => MP4_BRANDS.has(c))) return MP4;
  return null;
}
