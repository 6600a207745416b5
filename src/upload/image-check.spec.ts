import sharp from 'sharp';
import fc from 'fast-check';
import { imageChecker, imageProblem } from './image-check';
import { crc32 } from 'node:zlib';
import { JPEG, MediaType, PDF, PNG, sniffMediaType } from './media-type';

function image(fmt: 'jpeg' | 'png'): Promise<Buffer> {
  const canvas = sharp({
    create: { width: 32, height: 24, channels: 3, background: { r: 10, g: 200, b: 90 } },
  });
  return (fmt === 'jpeg' ? canvas.jpeg() : canvas.png()).toBuffer();
}

describe('imageProblem', () => {
  it('accepts whole JPEG and PNG files', async () => {
    const jpg = await image('jpeg');
    const png = await image('png');
    expect(sniffMediaType(jpg)).toBe(JPEG);
    expect(imageProblem(jpg, JPEG)).toBeNull();
    expect(imageProblem(png, PNG)).toBeNull();
  });

  it('refuses a truncated JPEG or PNG', async () => {
    const jpg = await image('jpeg');
    const png = await image('png');
    expect(imageProblem(jpg.subarray(0, jpg.length - 40), JPEG)).toMatch(/truncated/);
    expect(imageProblem(jpg.subarray(0, 20), JPEG)).toMatch(/truncated/);
    expect(imageProblem(png.subarray(0, png.length - 20), PNG)).toMatch(/truncated/);
  });

  it('refuses magic numbers followed by junk', () => {
    const fakeJpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff]),
      Buffer.from('just some text, not a photo'),
    ]);
    expect(imageProblem(fakeJpeg, JPEG)).not.toBeNull();
    const fakePng = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('just some text, not a photo'),
    ]);
    expect(imageProblem(fakePng, PNG)).not.toBeNull();
  });

  it('refuses a PNG whose chunk checksum does not match', async () => {
    const png = Buffer.from(await image('png'));
    png[20] ^= 0xff; // inside IHDR data
    expect(imageProblem(png, PNG)).toMatch(/IHDR chunk is damaged/);
  });

  it('refuses a JPEG without a frame header', () => {
    // SOI, then straight to SOS with a minimal segment, then EOI.
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0x00, 0xff, 0xd9]);
    expect(imageProblem(bytes, JPEG)).toMatch(/without a frame header/);
  });
});

/**
 * The whole-buffer walkers the streaming checker replaced (as of the commit before it), kept only as the oracle of
 * image-check.spec.ts: fed in any pieces, the streaming checker must give the verdict these give on the whole file.
 */
/** SOF markers carry the frame size: C0-CF except DHT (C4), JPG (C8) and DAC (CC). */
function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegProblem(b: Buffer): string | null {
  let i = 2;
  let frame = false;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return 'the JPEG segments are damaged';
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9) return 'the JPEG ends before any image data';
    const length = b.readUInt16BE(i + 2);
    if (length < 2 || i + 2 + length > b.length) return 'the JPEG is truncated';
    if (isFrameHeader(marker)) {
      if (length < 8 || b.readUInt16BE(i + 5) === 0 || b.readUInt16BE(i + 7) === 0) {
        return 'the JPEG frame header is invalid';
      }
      frame = true;
    }
    if (marker === 0xda) {
      if (!frame) return 'the JPEG has image data without a frame header';
      // Entropy-coded data follows; the image ends with EOI (FF D9) somewhere after it.
      return b.lastIndexOf(Buffer.from([0xff, 0xd9])) > i + 2 + length ? null : 'the JPEG is truncated';
    }
    i += 2 + length;
  }
  return 'the JPEG is truncated';
}

function pngProblem(b: Buffer): string | null {
  let i = 8;
  let first = true;
  let data = false;
  while (i + 12 <= b.length) {
    const length = b.readUInt32BE(i);
    const type = b.toString('latin1', i + 4, i + 8);
    if (length > 0x7fffffff || i + 12 + length > b.length) return 'the PNG is truncated';
    const crc = b.readUInt32BE(i + 8 + length);
    if (crc32(b.subarray(i + 4, i + 8 + length)) !== crc) return `the PNG ${type} chunk is damaged`;
    if (first) {
      if (type !== 'IHDR' || length !== 13) return 'the PNG does not start with its header';
      if (b.readUInt32BE(i + 8) === 0 || b.readUInt32BE(i + 12) === 0) return 'the PNG header is invalid';
      first = false;
    }
    if (type === 'IDAT') data = true;
    if (type === 'IEND') return data ? null : 'the PNG has no image data';
    i += 12 + length;
  }
  return 'the PNG is truncated';
}

describe('imageChecker (streamed)', () => {
  /** Feeds `bytes` to a fresh checker in pieces cut at `cuts` (positions, any order). */
  function streamed(bytes: Buffer, type: MediaType, cuts: number[]): string | null {
    const checker = imageChecker(type)!;
    let at = 0;
    for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
      checker.write(bytes.subarray(at, cut));
      at = cut;
    }
    checker.write(bytes.subarray(at));
    return checker.end();
  }

  it('gives the verdict of the whole-buffer walker, however the bytes are cut and damaged', async () => {
    const samples = [
      { type: JPEG, bytes: await image('jpeg'), reference: jpegProblem },
      { type: PNG, bytes: await image('png'), reference: pngProblem },
    ];
    for (const { type, bytes, reference } of samples) {
      fc.assert(
        fc.property(
          fc.array(fc.nat(), { maxLength: 12 }),
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
          fc.nat(),
          (cuts, flips, keep) => {
            const damaged = Buffer.from(bytes);
            for (const [at, value] of flips) damaged[at % damaged.length] = value;
            const file = damaged.subarray(0, damaged.length - (keep % 3 === 0 ? keep % damaged.length : 0));
            expect(streamed(file, type, cuts)).toBe(reference(file));
          },
        ),
        { numRuns: 400 },
      );
    }
  });

  it('one byte at a time', async () => {
    const jpg = await image('jpeg');
    const checker = imageChecker(JPEG)!;
    for (const byte of jpg) checker.write(Buffer.from([byte]));
    expect(checker.end()).toBeNull();
    expect(imageChecker(PDF)).toBeNull();
  });
});
