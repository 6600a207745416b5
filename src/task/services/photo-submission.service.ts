import { Injectable } from '@nestjs/common';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { distanceMeters } from '../../common/geo';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../common/http/json-depth';
import { IncomingFile, UploadService } from '../../upload/services/upload.service';
import { PHOTO_MAX_DISTANCE_METERS, RESULT_DATA_MAX_BYTES } from '../domain/task-policy';
import type { SubmitWithPhotoForm, TaskSubmissionResponse } from '../dtos/worker-task.dto';
import { AssignmentService } from './assignment.service';

/**
 * Submission with a photo that proves presence: a real JPEG or PNG (by its bytes) whose EXIF GPS position is
 * within 100 m of the task. Every check runs before anything changes; the photo is stored only once it passed,
 * and recorded in the transaction of the submission, so a refusal leaves the assignment as it was and keeps no
 * file (a failed transaction removes the stored bytes again).
 *
 * Refusals: 404 assignment_not_found; 400 validation_error (form); 415 unsupported_media_type (not a JPEG/PNG by
 * content, whatever its name); 400 invalid_photo (a damaged JPEG/PNG); 400 photo_gps_missing; 400
 * photo_location_mismatch with distance_meters; 409 invalid_state (assignment not accepted or in progress).
 */
@Injectable()
export class PhotoSubmissionService {
  constructor(
    private readonly assignments: AssignmentService,
    private readonly uploads: UploadService,
    private readonly clock: Clock,
  ) {}

  async submit(
    actor: WorkerActor,
    assignmentId: string,
    photo: IncomingFile | undefined,
    form: SubmitWithPhotoForm,
  ): Promise<TaskSubmissionResponse> {
    const resultData = parseResultData(form.result_data);
    if (!photo) throw ApiError.field('photo', 'a JPEG or PNG photo is required');
    const { task } = await this.assignments.findOwned(actor, assignmentId);
    const checked = await this.uploads.check(photo, { field: 'photo', photoOnly: true });
    if (!checked.gps) {
      throw new ApiError('photo_gps_missing', 'The photo carries no GPS position in its EXIF data.');
    }
    const distance = Math.round(distanceMeters(checked.gps, task));
    if (distance > PHOTO_MAX_DISTANCE_METERS) {
      throw new ApiError(
        'photo_location_mismatch',
        `The photo was taken ${distance} m from the task location; at most ${PHOTO_MAX_DISTANCE_METERS} m is accepted.`,
        { distance_meters: distance, max_distance_meters: PHOTO_MAX_DISTANCE_METERS },
      );
    }
    const stored = await this.uploads.put('task-photos', checked, this.clock.now());
    const view = {
      url: this.uploads.url(stored.key),
      taken_at: checked.takenAt ? checked.takenAt.toISOString() : null,
      distance_meters: distance,
    };
    try {
      const response = await this.assignments.submitResult(
        actor,
        assignmentId,
        { result_data: resultData, worker_notes: form.worker_notes ?? null },
        async (em) => {
          await this.uploads.record(em, actor.id, stored, this.clock.now());
          return [view];
        },
      );
      return { ...response, photo: view };
    } catch (err) {
      await this.uploads.discard([stored]);
      throw err;
    }
  }
}

function parseResultData(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw ApiError.field('result_data', 'must be JSON text of an object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ApiError.field('result_data', 'must be JSON text of an object');
  }
  // The limit of a JSON body (the multipart text is parsed here, not by the body parser), less the level the
  // JSON submit's body adds around result_data, so both submissions accept the same result_data.
  if (nestsDeeperThan(value, MAX_JSON_DEPTH - 1)) {
    throw ApiError.field(
      'result_data',
      `may nest at most ${MAX_JSON_DEPTH - 1} levels of objects and arrays`,
    );
  }
  if (Buffer.byteLength(JSON.stringify(value)) > RESULT_DATA_MAX_BYTES) {
    throw ApiError.field('result_data', `must be at most ${RESULT_DATA_MAX_BYTES} bytes as JSON`);
  }
  return value as Record<string, unknown>;
}
