import fc from 'fast-check';
import sharp from 'sharp';
import {
  bandsOf,
  hammingDistance,
  nearDuplicate,
  perceptualHash,
  probesOf,
  toSigned,
  toUnsigned,
} from './perceptual-hash';

/** A picture with structure: stripes and a disc, drawn by sharp from SVG. */
async function picture(seed: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">
    <rect width="400" height="300" fill="hsl(${seed * 37},60%,50%)"/>
    <rect x="${(seed * 53) % 300}" y="20" width="80" height="260" fill="hsl(${seed * 91},70%,20%)"/>
    <circle cx="${(seed * 71) % 400}" cy="${(seed * 29) % 300}" r="70" fill="hsl(${seed * 13},80%,80%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
}

describe('perceptualHash', () => {
  it('stays within a few bits through resizing, re-encoding and brightness; differs for another picture', async () => {
    const original = await picture(1);
    const h = (await perceptualHash(original))!;
    const copies = [
      await sharp(original).resize(200).jpeg({ quality: 60 }).toBuffer(),
      await sharp(original).modulate({ brightness: 1.15 }).jpeg().toBuffer(),
      await sharp(original).png().toBuffer(),
    ];
    for (const c of copies) expect(hammingDistance((await perceptualHash(c))!, h)).toBeLessThanOrEqual(4);
    expect(hammingDistance((await perceptualHash(await picture(2)))!, h)).toBeGreaterThan(10);
  });

  it('applies the EXIF orientation first: a rotated file marked to be shown upright hashes like the upright one', async () => {
    const upright = await picture(3);
    const stored = await sharp(upright)
      .rotate(90)
      .withMetadata({ orientation: 8 })
      .jpeg({ quality: 95 })
      .toBuffer();
    const d = hammingDistance((await perceptualHash(stored))!, (await perceptualHash(upright))!);
    expect(d).toBeLessThanOrEqual(4);
  });

  it('a featureless image has no hash (its bits would be noise); garbage has none either', async () => {
    const flat = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2878c8' } })
      .jpeg()
      .toBuffer();
    expect(await perceptualHash(flat)).toBeNull();
    expect(await perceptualHash(Buffer.from('not an image'))).toBeNull();
  });
});

describe('the banded index', () => {
  const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

  it('signed storage round-trips, and bands are the four 16-bit quarters', () => {
    fc.assert(
      fc.property(u64, (h) => {
        expect(toUnsigned(toSigned(h))).toBe(h);
        const [a, b, c, d] = bandsOf(h);
        expect((BigInt(a) << 48n) | (BigInt(b) << 32n) | (BigInt(c) << 16n) | BigInt(d)).toBe(h);
        expect(bandsOf(toSigned(h))).toEqual([a, b, c, d]);
      }),
    );
  });

  it('finds every hash within 7 bits (pigeonhole over the probes), none beyond the threshold', () => {
    const flips = fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { maxLength: 12 });
    fc.assert(
      fc.property(u64, flips, (h, bits) => {
        const other = bits.reduce((x, b) => x ^ (1n << BigInt(b)), h);
        expect(hammingDistance(h, other)).toBe(bits.length);
        expect(nearDuplicate(h, other)).toBe(bits.length <= 7);
        const probed = bandsOf(h).some((v, i) => probesOf(v).includes(bandsOf(other)[i]));
        if (bits.length <= 7) expect(probed).toBe(true);
      }),
    );
  });
});
