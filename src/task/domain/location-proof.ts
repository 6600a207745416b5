import { ApiError } from '../../common/errors/api-error';
import type { PhotoVerification } from '../../events/event-data';
import { distanceMeters, LatLng } from '../../common/geo';
import { PHOTO_MAX_DISTANCE_METERS } from './task-policy';
import { ProofSignal, riskOf } from './proof-signals';

/**
 * Location proof (product-decisions §11), as pure rules: where a photo was taken, by its EXIF GPS or, where the task allows
 * it, by the device's own fix sent with the submission; and what the agent is shown about it.
 */
export const LOCATION_PROOFS = ['photo_gps', 'photo_or_device_gps'] as const;
export type LocationProof = (typeof LOCATION_PROOFS)[number];
export const DEFAULT_LOCATION_PROOF: LocationProof = 'photo_gps';

/** A device fix proves presence only while fresh and precise (product-decisions §11). */
export const DEVICE_FIX_MAX_AGE_SECONDS = 300;
export const DEVICE_FIX_MAX_ACCURACY_METERS = 50;
/** A phone's clock may run a little ahead of ours; a fix further in the future than this is refused as invalid. */
export const DEVICE_FIX_MAX_AHEAD_SECONDS = 60;
/**
 * Capture times come from the phone's clock (EXIF seconds, or the device fix), so a photo counts as taken during
 * the assignment when it lies within its window widened by this much on each side.
 */
export const CAPTURE_WINDOW_SLACK_SECONDS = 60;

export interface DeviceFix extends LatLng {
  accuracy_m: number;
  captured_at: Date;
}

/** What a photo's bytes say about it. */
export interface PhotoFacts {
  gps: LatLng | null;
  takenAt: Date | null;
}

export type LocationSource = 'exif' | 'device';

/** Where a photo was placed, once the rule accepted it. */
export interface PlacedPhoto {
  source: LocationSource;
  distance: number;
  /** The device fix's accuracy (device source only). */
  accuracy: number | null;
  /** EXIF capture time, else (device source) the time of the fix. */
  takenAt: Date | null;
}

/**
 * Places a photo or refuses it: EXIF GPS when the photo has it (within 100 m); without it, under
 * `photo_or_device_gps`, the device fix (at most 5 minutes old, accuracy at most 50 m, within 100 m). Refusals are
 * the ApiErrors the worker receives; nothing about them depends on the database.
 */
export function placePhoto(
  photo: PhotoFacts,
  task: LatLng,
  proof: LocationProof,
  device: DeviceFix | null,
  now: Date,
): PlacedPhoto {
  if (photo.gps) {
    return {
      source: 'exif',
      distance: within(photo.gps, task, 'exif'),
      accuracy: null,
      takenAt: photo.takenAt,
    };
  }
  if (proof === 'photo_gps') {
    throw new ApiError('photo_gps_missing', 'The photo carries no GPS position in its EXIF data.');
  }
  if (!device) {
    throw new ApiError(
      'photo_gps_missing',
      'The photo carries no GPS position in its EXIF data, and the submission has no device_location.',
    );
  }
  const ageSeconds = Math.floor((now.getTime() - device.captured_at.getTime()) / 1000);
  if (ageSeconds > DEVICE_FIX_MAX_AGE_SECONDS) {
    throw new ApiError(
      'device_location_stale',
      `The device location is ${ageSeconds} s old; at most ${DEVICE_FIX_MAX_AGE_SECONDS} s is accepted.`,
      { age_seconds: ageSeconds, max_age_seconds: DEVICE_FIX_MAX_AGE_SECONDS },
    );
  }
  if (device.accuracy_m > DEVICE_FIX_MAX_ACCURACY_METERS) {
    throw new ApiError(
      'device_location_inaccurate',
      `The device location is accurate to ${device.accuracy_m} m; at most ${DEVICE_FIX_MAX_ACCURACY_METERS} m is accepted.`,
      { accuracy_m: device.accuracy_m, max_accuracy_m: DEVICE_FIX_MAX_ACCURACY_METERS },
    );
  }
  return {
    source: 'device',
    distance: within(device, task, 'device'),
    accuracy: device.accuracy_m,
    takenAt: photo.takenAt ?? device.captured_at,
  };
}

/** The distance in whole metres, or 400 photo_location_mismatch beyond 100 m. */
function within(at: LatLng, task: LatLng, source: LocationSource): number {
  const distance = Math.round(distanceMeters(at, task));
  if (distance > PHOTO_MAX_DISTANCE_METERS) {
    throw new ApiError(
      'photo_location_mismatch',
      `The photo was taken ${distance} m from the task location (by its ${source === 'exif' ? 'EXIF GPS' : 'device location'}); at most ${PHOTO_MAX_DISTANCE_METERS} m is accepted.`,
      { distance_meters: distance, max_distance_meters: PHOTO_MAX_DISTANCE_METERS, location_source: source },
    );
  }
  return distance;
}

/**
 * Whether a capture time lies between the assignment's acceptance and its submission (with the slack above); null
 * when the photo has no capture time to judge.
 */
export function takenDuringAssignment(
  takenAt: Date | null,
  acceptedAt: Date,
  submittedAt: Date,
): boolean | null {
  if (!takenAt) return null;
  const slack = CAPTURE_WINDOW_SLACK_SECONDS * 1000;
  const t = takenAt.getTime();
  return t >= acceptedAt.getTime() - slack && t <= submittedAt.getTime() + slack;
}

/** Earlier submissions of the same bytes (by SHA-256), across every task and worker. */
export interface EarlierUse {
  count: number;
  firstSubmittedAt: Date | null;
  /** How many of them were another worker's (the rest were this worker's own). */
  byOthers: number;
}

/** Earlier checked photos whose perceptual hash is near this one's (any task, any worker, any agent). */
export interface NearUse {
  count: number;
  byOthers: number;
  /** The smallest Hamming distance among them (0..64); null when none. */
  nearest: number | null;
}
export const NO_NEAR_USE: NearUse = { count: 0, byOthers: 0, nearest: null };

/**
 * One reused_photo signal for the same bytes (SHA-256) or a near-duplicate (perceptual hash), whichever found it:
 * `other` when any earlier photo was another worker's, else `own`. Its words say whose and how close, never which
 * task, agent or file: the earlier photo may be another agent's.
 */
export function reuseSignal(exact: EarlierUse, near: NearUse): ProofSignal | null {
  if (exact.count === 0 && near.count === 0) return null;
  const other = exact.byOthers > 0 || near.byOthers > 0;
  const whose = other ? 'another worker' : 'this worker';
  const detail =
    exact.count > 0
      ? `The same bytes were submitted before (${exact.count} earlier submission${exact.count === 1 ? '' : 's'}), by ${other && exact.byOthers === 0 ? 'this worker, and a near-duplicate by another worker' : whose}.`
      : `A near-duplicate of ${near.count === 1 ? 'a photo' : `${near.count} photos`} submitted before by ${whose} (perceptual hashes ${near.nearest} of 64 bits apart).`;
  return { code: 'reused_photo', scope: other ? 'other' : 'own', detail };
}

/**
 * What the agent is shown about a checked photo (product-decisions §11, §18): stale or reused photos are flagged, not
 * refused. The signals the location check can tell by itself (capture outside the window, the same bytes or a
 * near-duplicate submitted before) join the ones found elsewhere (`found`: EXIF forensics, travel), and the risk is
 * theirs (riskOf).
 */
export function verificationOf(
  placed: PlacedPhoto,
  sha256: string,
  window: { acceptedAt: Date; submittedAt: Date },
  earlier: EarlierUse,
  found: readonly ProofSignal[] = [],
  near: NearUse = NO_NEAR_USE,
): PhotoVerification {
  const during = takenDuringAssignment(placed.takenAt, window.acceptedAt, window.submittedAt);
  const signals: ProofSignal[] = [];
  const reuse = reuseSignal(earlier, near);
  if (reuse) signals.push(reuse);
  if (during === false && placed.takenAt) {
    signals.push({
      code: 'capture_outside_window',
      detail: `Taken at ${placed.takenAt.toISOString()}, outside the assignment (accepted ${window.acceptedAt.toISOString()}, submitted ${window.submittedAt.toISOString()}).`,
    });
  }
  signals.push(...found);
  return {
    location_source: placed.source,
    distance_meters: placed.distance,
    accuracy_m: placed.accuracy,
    taken_at: placed.takenAt ? placed.takenAt.toISOString() : null,
    taken_during_assignment: during,
    sha256,
    reused: earlier.count > 0,
    earlier_submissions: earlier.count,
    first_submitted_at: earlier.firstSubmittedAt ? earlier.firstSubmittedAt.toISOString() : null,
    risk: riskOf(signals),
    signals,
  };
}

/**
 * A verification stored before product-decisions §18 has no risk or signals: they are derived from what it recorded
 * (the same bytes submitted before, whose is unknown, so the cautious reading; a capture outside the window), so
 * every verification the agent reads carries them.
 */
export function withRisk(v: PhotoVerification): PhotoVerification {
  if (Array.isArray(v.signals) && v.risk) return v;
  const signals: ProofSignal[] = [];
  if (v.reused) {
    signals.push({
      code: 'reused_photo',
      detail: `The same bytes were submitted before (${v.earlier_submissions} earlier), by a worker not recorded at the time.`,
    });
  }
  if (v.taken_during_assignment === false && v.taken_at) {
    signals.push({
      code: 'capture_outside_window',
      detail: `Taken at ${v.taken_at}, outside the assignment.`,
    });
  }
  return { ...v, risk: riskOf(signals), signals };
}

/** A device fix dated further ahead than clock skew explains is invalid input (checked before anything else). */
export function deviceFixProblem(device: DeviceFix, now: Date): string | null {
  const ahead = (device.captured_at.getTime() - now.getTime()) / 1000;
  return ahead > DEVICE_FIX_MAX_AHEAD_SECONDS ? 'must not lie in the future' : null;
}
