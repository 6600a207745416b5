import sharp from 'sharp';
import { imageProblem } from './image-check';
import { JPEG, PNG, sniffMediaType } from './media-type';

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
