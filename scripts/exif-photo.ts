import piexif from 'piexifjs';

/**
 * EXIF for JPEG fixtures, written by piexifjs: the photo-proof tests' fixtures (test/support/photos.ts) and the
 * walkthrough's sample photo (scripts/storefront-photo.ts). The service itself never writes EXIF (the sandbox's
 * simulated workers carry their own minimal writer, src/simulation/sandbox-photo.ts, so live code needs no
 * dev dependency).
 */
export interface Point {
  latitude: number;
  longitude: number;
}

export interface PhotoOptions {
  gps?: Point;
  /** EXIF DateTimeOriginal, "YYYY:MM:DD HH:MM:SS". */
  takenAt?: string;
  /** GPS date and time stamp (UTC). */
  gpsTime?: Date;
  /** EXIF OffsetTimeOriginal, "+08:00" (EXIF 2.31, which phones write). */
  offset?: string;
  /** IFD0 Make and Model. */
  camera?: { make: string; model: string };
  /** IFD0 Software (an editor's name marks an edited photo). */
  software?: string;
  width?: number;
}

/** piexifjs predates EXIF 2.31: its tag table learns OffsetTimeOriginal (0x9011, ASCII) here. */
const OFFSET_TIME_ORIGINAL = 0x9011;
piexif.TAGS.Exif[OFFSET_TIME_ORIGINAL] = { name: 'OffsetTimeOriginal', type: 'Ascii' };

function rational(x: number): [[number, number], [number, number], [number, number]] {
  const deg = Math.floor(x);
  const minFloat = (x - deg) * 60;
  const min = Math.floor(minFloat);
  return [
    [deg, 1],
    [min, 1],
    [Math.round((minFloat - min) * 60 * 1_000_000), 1_000_000],
  ];
}

/** The JPEG `base` with an EXIF block carrying what `opts` gives (unchanged when it gives nothing). */
export function withExif(base: Buffer, opts: PhotoOptions): Buffer {
  const gps: Record<number, unknown> = {};
  if (opts.gps) {
    gps[piexif.GPSIFD.GPSLatitudeRef] = opts.gps.latitude >= 0 ? 'N' : 'S';
    gps[piexif.GPSIFD.GPSLatitude] = rational(Math.abs(opts.gps.latitude));
    gps[piexif.GPSIFD.GPSLongitudeRef] = opts.gps.longitude >= 0 ? 'E' : 'W';
    gps[piexif.GPSIFD.GPSLongitude] = rational(Math.abs(opts.gps.longitude));
  }
  if (opts.gpsTime) {
    const d = opts.gpsTime;
    gps[piexif.GPSIFD.GPSDateStamp] = d.toISOString().slice(0, 10).replace(/-/g, ':');
    gps[piexif.GPSIFD.GPSTimeStamp] = [
      [d.getUTCHours(), 1],
      [d.getUTCMinutes(), 1],
      [d.getUTCSeconds(), 1],
    ];
  }
  const exif: Record<number, unknown> = {};
  if (opts.takenAt) exif[piexif.ExifIFD.DateTimeOriginal] = opts.takenAt;
  if (opts.offset) exif[OFFSET_TIME_ORIGINAL] = opts.offset;
  const zeroth: Record<number, unknown> = {};
  if (opts.camera) {
    zeroth[piexif.ImageIFD.Make] = opts.camera.make;
    zeroth[piexif.ImageIFD.Model] = opts.camera.model;
  }
  if (opts.software) zeroth[piexif.ImageIFD.Software] = opts.software;
  if (!opts.gps && !opts.gpsTime && !opts.takenAt && !opts.camera && !opts.software) return base;
  const bytes = piexif.dump({ '0th': zeroth, GPS: gps, Exif: exif } as never);
  return Buffer.from(piexif.insert(bytes, base.toString('binary')), 'binary');
}
