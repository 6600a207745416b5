import piexif from 'piexifjs';
import sharp from 'sharp';
import { readPhotoMetadata } from './photo-metadata';

async function withExif(gps: Record<number, unknown>, exif: Record<number, unknown> = {}): Promise<Buffer> {
  const base = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();
  const bytes = piexif.dump({ GPS: gps, Exif: exif } as never);
  return Buffer.from(piexif.insert(bytes, base.toString('binary')), 'binary');
}

const G = piexif.GPSIFD;
const at = (deg: number, min: number, sec: number) => [
  [deg, 1],
  [min, 1],
  [Math.round(sec * 100), 100],
];

describe('readPhotoMetadata', () => {
  it('reads signed GPS coordinates', async () => {
    const photo = await withExif({
      [G.GPSLatitudeRef]: 'S',
      [G.GPSLatitude]: at(33, 51, 54),
      [G.GPSLongitudeRef]: 'W',
      [G.GPSLongitude]: at(70, 40, 12),
    });
    const meta = await readPhotoMetadata(photo);
    expect(meta.gps!.latitude).toBeCloseTo(-33.865, 3);
    expect(meta.gps!.longitude).toBeCloseTo(-70.67, 3);
  });

  it('capture time: the GPS stamp (UTC) before a zone-less DateTimeOriginal', async () => {
    const photo = await withExif(
      {
        [G.GPSDateStamp]: '2030:02:03',
        [G.GPSTimeStamp]: [
          [4, 1],
          [5, 1],
          [6, 1],
        ],
      },
      { [piexif.ExifIFD.DateTimeOriginal]: '2030:02:03 12:05:06' },
    );
    expect((await readPhotoMetadata(photo)).takenAt!.toISOString()).toBe('2030-02-03T04:05:06.000Z');
  });

  it('capture time: DateTimeOriginal read as UTC when nothing else says the zone', async () => {
    const photo = await withExif({}, { [piexif.ExifIFD.DateTimeOriginal]: '2030:02:03 12:05:06' });
    expect(await readPhotoMetadata(photo)).toMatchObject({
      gps: null,
      takenAt: new Date('2030-02-03T12:05:06.000Z'),
      // The EXIF facts the forensics read (product-decisions §18): no camera, no editor, no GPS time here.
      exif: { original: '2030-02-03T12:05:06', make: null, model: null, software: null, gps_time: null },
    });
  });

  it('no EXIF, 0,0 positions and non-images are "no metadata", never an error', async () => {
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    expect(await readPhotoMetadata(plain)).toMatchObject({ gps: null, takenAt: null });
    const nullIsland = await withExif({
      [G.GPSLatitudeRef]: 'N',
      [G.GPSLatitude]: at(0, 0, 0),
      [G.GPSLongitudeRef]: 'E',
      [G.GPSLongitude]: at(0, 0, 0),
    });
    expect((await readPhotoMetadata(nullIsland)).gps).toBeNull();
    expect(await readPhotoMetadata(Buffer.from('not an image'))).toMatchObject({ gps: null, takenAt: null });
  });
});
