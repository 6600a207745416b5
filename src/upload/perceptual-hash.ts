import sharp from 'sharp';

/**
 * A 64-bit DCT perceptual hash (pHash) of a photo, for finding near-duplicates (product-decisions §18): the image
 * turned upright by its EXIF orientation, made grey, shrunk to 32×32; the 8×8 lowest frequencies of its 2-D DCT; one
 * bit per coefficient, set when above the median of the 63 non-DC ones. Resizing, re-encoding and uniform brightness
 * changes move only a few bits; distinct photos differ in about half. Why pHash and not dHash, and the threshold:
 * docs/decisions.md "Proof integrity" and docs/proof-integrity.md (measured by `npm run proof:redteam`).
 *
 * libvips shrinks a JPEG while decoding it (shrink-on-load), so a 12-megapixel photo costs a few tens of
 * milliseconds; its cache is off, as no image is read twice.
 */
sharp.cache(false);

const SIZE = 32;
const LOW = 8;
/** COS[u][x] = cos((2x + 1)uπ / 2N): the DCT-II basis for the eight lowest frequencies. */
const COS: readonly Float64Array[] = Array.from({ length: LOW }, (_, u) =>
  Float64Array.from({ length: SIZE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIZE))),
);

/**
 * The hash of an image (bytes or a file path); null when it cannot be decoded, or when it is featureless (one
 * colour, or nearly): its bits would be rounding noise, the same for every such image, and would call all of them
 * duplicates of each other. Reuse of such an image is still found by its bytes (SHA-256).
 */
export async function perceptualHash(file: Buffer | string): Promise<bigint | null> {
  let pixels: Buffer;
  try {
    pixels = await sharp(file, { failOn: 'none', limitInputPixels: 100_000_000 })
      .rotate()
      .greyscale()
      .resize(SIZE, SIZE, { fit: 'fill' })
      .raw()
      .toBuffer();
  } catch {
    return null;
  }
  return hashOfPixels(pixels);
}

/**
 * Below this, the strongest of the 63 low-frequency coefficients is rounding, not a picture: a gradient of one grey
 * level across the image already gives about 300.
 */
const FEATURELESS = 64;

/** The hash of 32×32 grey pixels (row-major): the 8×8 low DCT coefficients against their median. */
export function hashOfPixels(pixels: Uint8Array): bigint | null {
  // Rows first, only the eight lowest frequencies, then columns: 2·8·32·32 multiplications, not 32⁴.
  const rows = new Float64Array(LOW * SIZE);
  for (let u = 0; u < LOW; u++) {
    for (let y = 0; y < SIZE; y++) {
      let s = 0;
      for (let x = 0; x < SIZE; x++) s += pixels[y * SIZE + x] * COS[u][x];
      rows[u * SIZE + y] = s;
    }
  }
  const coef = new Float64Array(LOW * LOW);
  for (let v = 0; v < LOW; v++) {
    for (let u = 0; u < LOW; u++) {
      let s = 0;
      for (let y = 0; y < SIZE; y++) s += rows[u * SIZE + y] * COS[v][y];
      coef[v * LOW + u] = s;
    }
  }
  const ac = [...coef.subarray(1)];
  if (Math.max(...ac.map(Math.abs)) < FEATURELESS) return null;
  const median = ac.sort((a, b) => a - b)[31];
  let hash = 0n;
  for (let i = 0; i < LOW * LOW; i++) hash = (hash << 1n) | (coef[i] > median ? 1n : 0n);
  return hash;
}

/** How many of the 64 bits differ. */
export function hammingDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let n = 0;
  while (x) {
    x &= x - 1n;
    n++;
  }
  return n;
}

/** The hash as PostgreSQL's signed bigint holds it, and back. */
export const toSigned = (h: bigint): bigint => BigInt.asIntN(64, h);
export const toUnsigned = (h: bigint): bigint => BigInt.asUintN(64, h);

/** The four 16-bit bands of the multi-index, highest first (0..65535 each). */
export function bandsOf(h: bigint): [number, number, number, number] {
  const u = toUnsigned(h);
  return [
    Number((u >> 48n) & 0xffffn),
    Number((u >> 32n) & 0xffffn),
    Number((u >> 16n) & 0xffffn),
    Number(u & 0xffffn),
  ];
}

/**
 * Two photos whose hashes differ in at most this many bits are the same picture (product-decisions §18): measured
 * by `npm run proof:redteam` (docs/proof-integrity.md).
 */
export const REUSE_MAX_DISTANCE = 7;

/**
 * The values a band is probed with: itself and its 16 one-bit neighbours. If two hashes differ in at most 7 bits,
 * one of the four bands differs in at most one (pigeonhole), so the probe finds every hash within
 * REUSE_MAX_DISTANCE.
 */
export function probesOf(band: number): number[] {
  const out = [band];
  for (let bit = 0; bit < 16; bit++) out.push(band ^ (1 << bit));
  return out;
}

/** Whether the index finds `b` for `a` (a band within one bit) and they are within REUSE_MAX_DISTANCE. */
export function nearDuplicate(a: bigint, b: bigint, maxDistance = REUSE_MAX_DISTANCE): boolean {
  const ba = bandsOf(a);
  const bb = bandsOf(b);
  const probed = ba.some((v, i) => hammingDistance(BigInt(v), BigInt(bb[i])) <= 1);
  return probed && hammingDistance(a, b) <= maxDistance;
}
