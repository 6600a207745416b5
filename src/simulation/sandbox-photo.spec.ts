import fc from 'fast-check';
import { distanceMeters } from '../common/geo';
import { imageProblem } from '../upload/image-check';
import { sniffMediaType } from '../upload/media-type';
import { readPhotoMetadata } from '../upload/photo-metadata';
import { pointAtDistance, sandboxPhoto, STALE_PHOTO_AGE_MS } from './sandbox-photo';

describe('sandbox photos', () => {
  const now = new Date('2030-05-06T07:08:09Z');
  const arbPoint = fc.record({
    latitude: fc.double({ min: -80, max: 80, noNaN: true }),
    longitude: fc.double({ min: -179, max: 179, noNaN: true }),
  });

  it('are whole JPEGs whose EXIF GPS lies at the chosen distance from the task', async () => {
    await fc.assert(
      fc.asyncProperty(arbPoint, fc.integer({ min: 0, max: 100_000 }), async (task, meters) => {
        fc.pre(Math.abs(task.latitude) > 0.01 || Math.abs(task.longitude) > 0.01);
        const at = pointAtDistance(task, meters);
        expect(Math.abs(distanceMeters(task, at) - meters)).toBeLessThan(0.5);
        const photo = sandboxPhoto({ at, exif: 'present', now });
        const type = sniffMediaType(photo);
        expect(type?.ext).toBe('jpg');
        expect(imageProblem(photo, type!)).toBeNull();
        const meta = await readPhotoMetadata(photo);
        expect(meta.takenAt).toEqual(now);
        // Seconds are written to a millionth: a few centimetres.
        expect(distanceMeters(meta.gps!, at)).toBeLessThan(0.1);
      }),
      { numRuns: 50 },
    );
  });

  it('missing EXIF GPS reads as no position; a stale photo was taken two days earlier', async () => {
    const at = { latitude: 31.2304, longitude: 121.4737 };
    const missing = await readPhotoMetadata(sandboxPhoto({ at, exif: 'missing', now }));
    expect(missing).toMatchObject({ gps: null, takenAt: now });
    const stale = await readPhotoMetadata(sandboxPhoto({ at, exif: 'stale', now }));
    expect(stale.takenAt).toEqual(new Date(now.getTime() - STALE_PHOTO_AGE_MS));
    expect(distanceMeters(stale.gps!, at)).toBeLessThan(0.1);
  });

  it('southern and western positions keep their signs', async () => {
    const at = { latitude: -33.8688, longitude: -70.6693 };
    const meta = await readPhotoMetadata(sandboxPhoto({ at, exif: 'present', now }));
    expect(distanceMeters(meta.gps!, at)).toBeLessThan(0.1);
  });
});
