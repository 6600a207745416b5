import type { LatLng } from '../../common/geo';
import type { PositionReport } from '../../matching/services/position-trail';
import type { DeviceFix } from './location-proof';
import type { Photo } from '../task.repository';

/**
 * Where a submission says the worker was, for the position trail (product-decisions §18): the device location sent
 * with it (its own accuracy, at its capture time); else a checked photo placed by its EXIF GPS. That position lies
 * within the photo's distance_meters of the task, so it is recorded as the task's point with that distance as its
 * accuracy (at the photo's capture time when it has one, not later than the submission). Null when the submission
 * carries no position at all.
 */
export function submissionPosition(
  workerId: string,
  task: LatLng,
  device: DeviceFix | null,
  photos: readonly Photo[],
  now: Date,
): PositionReport | null {
  if (device) {
    return {
      workerId,
      latitude: device.latitude,
      longitude: device.longitude,
      accuracyM: device.accuracy_m,
      source: 'submission_device',
      at: device.captured_at.getTime() <= now.getTime() ? device.captured_at : now,
    };
  }
  const placed = photos.find((p) => p.verification?.location_source === 'exif');
  if (!placed?.verification) return null;
  const takenAt = placed.verification.taken_at ? new Date(placed.verification.taken_at) : null;
  return {
    workerId,
    latitude: task.latitude,
    longitude: task.longitude,
    accuracyM: placed.verification.distance_meters,
    source: 'submission_photo',
    at: takenAt && takenAt.getTime() <= now.getTime() ? takenAt : now,
  };
}
