import { crc32 } from 'node:zlib';
import type { MediaType } from './media-type';

/**
 * Structural check of a JPEG or PNG: the bytes must not only start like an image but be one a viewer can decode
 * to its end (segments and chunks well formed, a frame header with a non-zero size, image data, an end marker).
 * Returns what is wrong, or null. No pixel decoding: the service has no image codec, and none is needed to tell a
 * real photo from a renamed or truncated file.
 */
export function imageProblem(b: Buffer, type: MediaType): string | null {
  if (type.ext === 'jpg') return jpegProblem(b);
  if (type.ext === 'png') return pngProblem(b);
  return null;
}

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
