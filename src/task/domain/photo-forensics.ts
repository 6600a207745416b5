import { distanceMeters, type LatLng } from '../../common/geo';
import type { ExifFacts } from '../../upload/photo-metadata';
import type { DeviceFix } from './location-proof';
import type { ProofSignal } from './proof-signals';

/**
 * EXIF forensics (product-decisions §18), as pure rules over what the upload read (src/upload/photo-metadata.ts):
 * an editor's Software tag or EXIF times that disagree (`exif_edited`), no camera make or model
 * (`no_camera_metadata`), EXIF GPS far from the device's own fix (`exif_device_disagree`). Each is a finding with
 * its reason in words; none refuses a photo.
 */

/**
 * Programs that write their name into Software when they save an edited photo. Matched case-insensitively as words
 * (Meitu's Chinese names as written). Camera firmware and phone systems ("iOS 17.1", "HDR+ 1.0", "Ver.1.00",
 * "G998BXXU5") are not in it: they write Software on every photo they take.
 */
const EDITORS: readonly (readonly [RegExp, string])[] = [
  [/photoshop/i, 'Adobe Photoshop'],
  [/lightroom/i, 'Adobe Lightroom'],
  [/\bgimp\b/i, 'GIMP'],
  [/snapseed/i, 'Snapseed'],
  [/meitu|美图|美顏|美颜/i, 'Meitu'],
  [/picsart/i, 'PicsArt'],
  [/pixelmator/i, 'Pixelmator'],
  [/affinity photo/i, 'Affinity Photo'],
  [/paint\.net/i, 'Paint.NET'],
  [/facetune/i, 'Facetune'],
  [/\bvsco\b/i, 'VSCO'],
  [/fotor/i, 'Fotor'],
  [/pixlr/i, 'Pixlr'],
  [/\bcanva\b/i, 'Canva'],
  [/polarr/i, 'Polarr'],
  [/photoscape/i, 'PhotoScape'],
  [/acdsee/i, 'ACDSee'],
  [/capture one/i, 'Capture One'],
  [/luminar/i, 'Luminar'],
  [/airbrush/i, 'AirBrush'],
  [/beautyplus/i, 'BeautyPlus'],
  [/醒图|hypic/i, 'Hypic'],
  [/inshot/i, 'InShot'],
  [/exiftool/i, 'ExifTool'],
  [/darktable/i, 'darktable'],
  [/rawtherapee/i, 'RawTherapee'],
];

/** The editor a Software tag names, or null for a camera's or phone's own tag. */
export function editorOf(software: string | null): string | null {
  if (!software) return null;
  return EDITORS.find(([re]) => re.test(software))?.[1] ?? null;
}

/**
 * The GPS stamp may lag the shutter (it is the time of the last fix): with a zone (OffsetTimeOriginal) the two times
 * may differ by this much. Without a zone DateTimeOriginal is local wall time, so the difference is a time zone
 * (whole quarter hours, at most 14 h) plus that lag: a remainder beyond TIME_ZONE_REMAINDER_MINUTES from the
 * nearest quarter hour cannot be a time zone.
 */
export const EXIF_TIME_TOLERANCE_MINUTES = 10;
export const TIME_ZONE_REMAINDER_MINUTES = 3;
const MAX_ZONE_MINUTES = 14 * 60;

/** How DateTimeOriginal and the GPS stamp disagree, in words; null when they agree or either is missing. */
export function exifTimesDisagree(exif: ExifFacts): string | null {
  if (!exif.original || !exif.gps_time) return null;
  const gps = Date.parse(exif.gps_time);
  if (exif.offset) {
    const local = Date.parse(`${exif.original}${exif.offset}`);
    if (Number.isNaN(local) || Number.isNaN(gps)) return null;
    const minutes = Math.abs(local - gps) / 60_000;
    return minutes > EXIF_TIME_TOLERANCE_MINUTES
      ? `DateTimeOriginal (${exif.original}${exif.offset}) and the GPS time (${exif.gps_time}) are ${Math.round(minutes)} minutes apart.`
      : null;
  }
  const asUtc = Date.parse(`${exif.original}Z`);
  if (Number.isNaN(asUtc) || Number.isNaN(gps)) return null;
  const minutes = (asUtc - gps) / 60_000;
  const remainder = Math.abs(minutes - Math.round(minutes / 15) * 15);
  if (
    Math.abs(minutes) <= MAX_ZONE_MINUTES + EXIF_TIME_TOLERANCE_MINUTES &&
    remainder <= TIME_ZONE_REMAINDER_MINUTES
  ) {
    return null;
  }
  return `DateTimeOriginal (${exif.original}, no zone) and the GPS time (${exif.gps_time}) differ by ${Math.round(Math.abs(minutes))} minutes, which no time zone explains.`;
}

/** The signals of a photo's EXIF by itself, and against the device fix sent with it. */
export function forensicSignals(
  exif: ExifFacts,
  gps: LatLng | null,
  device: DeviceFix | null,
): ProofSignal[] {
  const signals: ProofSignal[] = [];
  const editor = editorOf(exif.software);
  if (editor) {
    signals.push({ code: 'exif_edited', detail: `Saved by ${editor} (EXIF Software "${exif.software}").` });
  }
  const times = exifTimesDisagree(exif);
  if (times) signals.push({ code: 'exif_edited', detail: times });
  if (!exif.make || !exif.model) {
    signals.push({
      code: 'no_camera_metadata',
      detail:
        'The photo names no camera (EXIF Make or Model is missing); browsers and messaging apps often strip it.',
    });
  }
  if (gps && device) {
    const apart = Math.round(distanceMeters(gps, device));
    const allowed = Math.max(device.accuracy_m, 100);
    if (apart > allowed) {
      signals.push({
        code: 'exif_device_disagree',
        distance_meters: apart,
        detail: `The EXIF GPS is ${apart} m from the device location sent with the photo (at most ${Math.round(allowed)} m expected).`,
      });
    }
  }
  return signals;
}
