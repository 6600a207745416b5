import { crc32 } from 'node:zlib';
import type { MediaType } from './media-type';

/**
 * Structural check of a JPEG or PNG: the bytes must not only start like an image but be one a viewer can decode
 * to its end (segments and chunks well formed, a frame header with a non-zero size, image data, an end marker).
 * No pixel decoding: the service has no image codec, and none is needed to tell a real photo from a renamed or
 * truncated file.
 *
 * It reads the file once, front to back, in whatever pieces it arrives (`write`), keeping only a segment or chunk
 * header at a time: uploads are streamed to disk and never held whole in memory. `end()` gives the verdict: what
 * is wrong, or null.
 */
export interface ImageChecker {
  write(chunk: Buffer): void;
  end(): string | null;
}

export function imageChecker(type: MediaType): ImageChecker | null {
  if (type.ext === 'jpg') return new JpegChecker();
  if (type.ext === 'png') return new PngChecker();
  return null;
}

/** The whole-buffer form: what is wrong with these bytes as `type`, or null. */
export function imageProblem(b: Buffer, type: MediaType): string | null {
  const checker = imageChecker(type);
  if (!checker) return null;
  checker.write(b);
  return checker.end();
}

/** SOF markers carry the frame size: C0-CF except DHT (C4), JPG (C8) and DAC (CC). */
function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/**
 * Walks the JPEG markers after SOI: each must start with FF; fill bytes and length-less markers are skipped; a
 * segment must fit in the file; a frame header (SOF) must have a non-zero size; the scan (SOS) must come after a
 * frame header and be followed, somewhere, by the end marker (FF D9). A marker is read only once four bytes are
 * there, as the end of the file leaves fewer than four bytes only when it is truncated.
 */
class JpegChecker implements ImageChecker {
  private verdict: string | null | undefined;
  private skip = 2; // SOI
  private head: number[] = [];
  private segment: { marker: number; length: number; left: number; first: number[] } | null = null;
  private frame = false;
  /** After the SOS header: looking for FF D9 whose FF is not the first byte after it. */
  private scan: { pos: number; prev: number } | null = null;

  write(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length && this.verdict === undefined) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
      } else if (this.scan) {
        i = this.scanFor(chunk, i);
      } else if (this.segment) {
        i = this.readSegment(chunk, i);
      } else {
        this.head.push(chunk[i++]);
        if (this.head.length === 4) this.marker();
      }
    }
  }

  end(): string | null {
    return this.verdict === undefined ? 'the JPEG is truncated' : this.verdict;
  }

  private marker(): void {
    const [ff, marker, hi, lo] = this.head;
    if (ff !== 0xff) return this.decide('the JPEG segments are damaged');
    if (marker === 0xff) {
      this.head.shift(); // fill byte
      return;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      this.head.splice(0, 2); // markers without a length
      return;
    }
    if (marker === 0xd9) return this.decide('the JPEG ends before any image data');
    const length = (hi << 8) | lo;
    if (length < 2) return this.decide('the JPEG is truncated');
    this.head = [];
    this.segment = { marker, length, left: length - 2, first: [] };
    if (this.segment.left === 0) this.segmentDone();
  }

  private readSegment(chunk: Buffer, i: number): number {
    const s = this.segment!;
    const n = Math.min(s.left, chunk.length - i);
    for (let k = 0; k < n && s.first.length < 5; k++) s.first.push(chunk[i + k]);
    s.left -= n;
    if (s.left === 0) this.segmentDone();
    return i + n;
  }

  private segmentDone(): void {
    const { marker, length, first } = this.segment!;
    this.segment = null;
    if (isFrameHeader(marker)) {
      // Data: precision, height (2 bytes), width (2 bytes); a length under 8 cannot hold them.
      const height = (first[1] << 8) | first[2];
      const width = (first[3] << 8) | first[4];
      if (length < 8 || height === 0 || width === 0) return this.decide('the JPEG frame header is invalid');
      this.frame = true;
    }
    if (marker === 0xda) {
      if (!this.frame) return this.decide('the JPEG has image data without a frame header');
      this.scan = { pos: 0, prev: -1 };
    }
  }

  /** Entropy-coded data follows the SOS header; the image ends with EOI (FF D9) somewhere after it. */
  private scanFor(chunk: Buffer, i: number): number {
    const s = this.scan!;
    for (; i < chunk.length; i++, s.pos++) {
      if (s.prev === 0xff && chunk[i] === 0xd9 && s.pos - 1 > 0) {
        this.decide(null);
        return chunk.length;
      }
      s.prev = chunk[i];
    }
    return i;
  }

  private decide(verdict: string | null): void {
    this.verdict = verdict;
  }
}

/**
 * Walks the PNG chunks after the signature: each must fit in the file and match its CRC; the first must be a
 * 13-byte IHDR with a non-zero size; IDAT must come before IEND, where the walk ends.
 */
class PngChecker implements ImageChecker {
  private verdict: string | null | undefined;
  private skip = 8; // signature
  private head: number[] = [];
  private chunk: {
    type: string;
    length: number;
    left: number;
    crc: number;
    first: number[];
    tail: number[];
  } | null = null;
  private first = true;
  private data = false;

  write(buf: Buffer): void {
    let i = 0;
    while (i < buf.length && this.verdict === undefined) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, buf.length - i);
        this.skip -= n;
        i += n;
      } else if (this.chunk) {
        i = this.readChunk(buf, i);
      } else {
        this.head.push(buf[i++]);
        if (this.head.length === 8) this.startChunk();
      }
    }
  }

  end(): string | null {
    return this.verdict === undefined ? 'the PNG is truncated' : this.verdict;
  }

  private startChunk(): void {
    const h = Buffer.from(this.head);
    this.head = [];
    const length = h.readUInt32BE(0);
    if (length > 0x7fffffff) {
      this.verdict = 'the PNG is truncated';
      return;
    }
    const typeBytes = h.subarray(4, 8);
    this.chunk = {
      type: typeBytes.toString('latin1'),
      length,
      left: length,
      crc: crc32(typeBytes),
      first: [],
      tail: [],
    };
  }

  private readChunk(buf: Buffer, i: number): number {
    const c = this.chunk!;
    if (c.left > 0) {
      const n = Math.min(c.left, buf.length - i);
      const piece = buf.subarray(i, i + n);
      c.crc = crc32(piece, c.crc);
      for (let k = 0; k < n && c.first.length < 8; k++) c.first.push(piece[k]);
      c.left -= n;
      return i + n;
    }
    c.tail.push(buf[i]);
    if (c.tail.length === 4) this.chunkDone();
    return i + 1;
  }

  private chunkDone(): void {
    const c = this.chunk!;
    this.chunk = null;
    if (Buffer.from(c.tail).readUInt32BE(0) !== c.crc) {
      this.verdict = `the PNG ${c.type} chunk is damaged`;
      return;
    }
    if (this.first) {
      const f = Buffer.from(c.first);
      if (c.type !== 'IHDR' || c.length !== 13) {
        this.verdict = 'the PNG does not start with its header';
        return;
      }
      if (f.readUInt32BE(0) === 0 || f.readUInt32BE(4) === 0) {
        this.verdict = 'the PNG header is invalid';
        return;
      }
      this.first = false;
    }
    if (c.type === 'IDAT') this.data = true;
    if (c.type === 'IEND') this.verdict = this.data ? null : 'the PNG has no image data';
  }
}
