import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { flattenValidationErrors } from '../../common/http/validation.pipe';
import type { DeviceLocation, PhotoVerification } from '../../events/event-data';
import type { UploadRecord } from '../../upload/services/upload.service';
import {
  DeviceFix,
  deviceFixProblem,
  PhotoFacts,
  placePhoto,
  PlacedPhoto,
  verificationOf,
} from '../domain/location-proof';
import { DeviceLocationInput } from '../dtos/worker-task.dto';
import { forensicSignals } from '../domain/photo-forensics';
import { PhotoHashRepository } from '../photo-hash.repository';
import type { ExifFacts } from '../../upload/photo-metadata';
import { AssignmentRow, Photo, TaskRepository, TaskRow } from '../task.repository';

/** A photo whose location was proven, as stored with the submission. */
export interface CheckedPhoto extends Photo {
  distance_meters: number;
  verification: PhotoVerification;
}

/** A photo's bytes as checked: where and when it says it was taken, its SHA-256, perceptual hash and EXIF facts. */
export interface PhotoBytes extends PhotoFacts {
  sha256: string;
  /** Null for a featureless image, or an upload made before hashes were recorded. */
  phash: bigint | null;
  exif: ExifFacts | null;
}

/**
 * The location check of every photo a submission carries (product-decisions §11), whichever route brought it: the file of
 * submit-with-photo, or the uploads named in photo_urls (their GPS, capture time and SHA-256 were recorded when
 * they were uploaded). A photo is placed (or refused) by the pure rule in domain/location-proof.ts; its verification
 * adds the capture-time window and earlier submissions of the same bytes, read under the caller's transaction.
 */
@Injectable()
export class PhotoVerifier {
  /** Refuses the photo (400, nothing changed) unless its location is proven; no database access. */
  place(photo: PhotoFacts, task: TaskRow, device: DeviceFix | null, now: Date): PlacedPhoto {
    return placePhoto(photo, task, task.location_proof, device, now);
  }

  /**
   * The photo as stored with the submission and shown to the agent, with its proof-integrity signals
   * (product-decisions §18): the same bytes or a near-duplicate of any earlier checked photo, EXIF forensics, the
   * capture window. Its hash is recorded for later searches. All in the caller's transaction, under the task lock.
   */
  async verified(
    em: EntityManager,
    url: string,
    photo: PhotoBytes,
    placed: PlacedPhoto,
    at: { task: TaskRow; assignment: AssignmentRow; device: DeviceFix | null },
    now: Date,
  ): Promise<CheckedPhoto> {
    const a = at.assignment;
    const earlier = await TaskRepository.earlierUses(em, photo.sha256, a.worker_id);
    const near = photo.phash === null ? [] : await PhotoHashRepository.near(em, photo.phash, a.id);
    const verification = verificationOf(
      placed,
      photo.sha256,
      { acceptedAt: a.accepted_at ?? a.created_at, submittedAt: now },
      { count: earlier.count, firstSubmittedAt: earlier.first, byOthers: earlier.byOthers },
      photo.exif ? forensicSignals(photo.exif, photo.gps, at.device) : [],
      {
        count: near.length,
        byOthers: near.filter((n) => n.worker_id !== a.worker_id).length,
        nearest: near.length > 0 ? Math.min(...near.map((n) => n.distance)) : null,
      },
    );
    if (photo.phash !== null) {
      await PhotoHashRepository.record(
        em,
        {
          phash: photo.phash,
          worker_id: a.worker_id,
          agent_id: at.task.agent_id,
          task_id: at.task.id,
          assignment_id: a.id,
        },
        now,
      );
    }
    return {
      url,
      taken_at: photo.takenAt ? photo.takenAt.toISOString() : null,
      distance_meters: placed.distance,
      verification,
    };
  }

  /**
   * An upload named in photo_urls: an image is checked like a submit-with-photo file; another proof file (PDF,
   * video) carries no position and is attached unchecked (verification null).
   */
  async fromUpload(
    em: EntityManager,
    u: UploadRecord,
    url: string,
    task: TaskRow,
    a: AssignmentRow,
    device: DeviceFix | null,
    now: Date,
  ): Promise<Photo> {
    if (!u.content_type.startsWith('image/')) {
      return { url, taken_at: null, distance_meters: null, verification: null };
    }
    const photo: PhotoBytes = {
      gps:
        u.latitude !== null && u.longitude !== null ? { latitude: u.latitude, longitude: u.longitude } : null,
      takenAt: u.taken_at,
      sha256: u.sha256,
      phash: u.phash === null ? null : BigInt(u.phash),
      exif: u.exif,
    };
    const placed = this.place(photo, task, device, now);
    return this.verified(em, url, photo, placed, { task, assignment: a, device }, now);
  }
}

/** A validated device_location of a JSON body, as the rules use it. */
export function deviceFixOf(input: DeviceLocationInput | undefined, now: Date): DeviceFix | null {
  if (!input) return null;
  const fix: DeviceFix = {
    latitude: input.latitude,
    longitude: input.longitude,
    accuracy_m: input.accuracy_m,
    captured_at: new Date(input.captured_at),
  };
  if (Number.isNaN(fix.captured_at.getTime())) {
    throw ApiError.field('device_location.captured_at', 'is not a valid date-time');
  }
  const problem = deviceFixProblem(fix, now);
  if (problem) throw ApiError.field('device_location.captured_at', problem);
  return fix;
}

/** The device_location field of the multipart form (JSON text), validated like the JSON body's. */
export function deviceFixFromForm(text: string | undefined, now: Date): DeviceFix | null {
  if (text === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw ApiError.field('device_location', 'must be JSON text of an object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ApiError.field('device_location', 'must be JSON text of an object');
  }
  const input = plainToInstance(DeviceLocationInput, value);
  const errors = validateSync(input, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw ApiError.validation(flattenValidationErrors(errors, 'device_location'));
  return deviceFixOf(input, now);
}

/** The fix as stored with the assignment and shown to the agent. */
export function deviceLocationView(fix: DeviceFix | null): DeviceLocation | null {
  if (!fix) return null;
  return {
    latitude: fix.latitude,
    longitude: fix.longitude,
    accuracy_m: fix.accuracy_m,
    captured_at: fix.captured_at.toISOString(),
  };
}
