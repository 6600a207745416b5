import { Injectable } from '@nestjs/common';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../common/http/json-depth';
import { IncomingFile, UploadService } from '../../upload/services/upload.service';
import { ANSWER_DATA_MAX_BYTES } from '../domain/answer-schema';
import type { SubmitWithPhotoForm, TaskSubmissionResponse } from '../dtos/worker-task.dto';
import { AssignmentService } from './assignment.service';
import { CheckedPhoto, deviceFixFromForm, PhotoVerifier } from './photo-verifier';

/**
 * Submission with a photo that proves presence: a real JPEG or PNG (by its bytes) whose position is within 100 m of
 * the task, by its EXIF GPS or, where the task allows photo_or_device_gps, by the device_location sent with it
 * (product-decisions §11). Every check runs before anything changes; the photo is stored only once it passed, and recorded
 * in the transaction of the submission, so a refusal leaves the assignment as it was and keeps no file (a failed
 * transaction removes the stored bytes again).
 *
 * Refusals: 404 assignment_not_found; 400 validation_error (form); 415 unsupported_media_type (not a JPEG/PNG by
 * content, whatever its name); 400 invalid_photo (a damaged JPEG/PNG); 400 photo_gps_missing; 400
 * photo_location_mismatch with distance_meters; 400 device_location_stale or device_location_inaccurate; 409
 * invalid_state (assignment not accepted or in progress).
 */
@Injectable()
export class PhotoSubmissionService {
  constructor(
    private readonly assignments: AssignmentService,
    private readonly uploads: UploadService,
    private readonly verifier: PhotoVerifier,
    private readonly clock: Clock,
  ) {}

  async submit(
    actor: WorkerActor,
    assignmentId: string,
    photo: IncomingFile | undefined,
    form: SubmitWithPhotoForm,
  ): Promise<TaskSubmissionResponse> {
    const resultData = parseResultData(form.result_data);
    const device = deviceFixFromForm(form.device_location, this.clock.now());
    if (!photo) throw ApiError.field('photo', 'a JPEG or PNG photo is required');
    const { task } = await this.assignments.findOwned(actor, assignmentId);
    const checked = await this.uploads.check(photo, { field: 'photo', photoOnly: true });
    this.verifier.place(checked, task, device, this.clock.now());
    const stored = await this.uploads.put('task-photos', checked, this.clock.now());
    const url = this.uploads.url(stored.key);
    const shown: CheckedPhoto[] = [];
    try {
      const response = await this.assignments.submitResult(
        actor,
        assignmentId,
        { result_data: resultData, worker_notes: form.worker_notes ?? null, device },
        async (em, lockedTask, a, now) => {
          // Placed again under the lock, at the submission's own time (a device fix may have aged meanwhile).
          const placed = this.verifier.place(checked, lockedTask, device, now);
          shown.push(
            await this.verifier.verified(
              em,
              url,
              checked,
              placed,
              { task: lockedTask, assignment: a, device },
              now,
            ),
          );
          await this.uploads.record(em, actor.id, stored, now);
          return shown;
        },
      );
      return { ...response, photo: shown[0] };
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
  // The largest any task takes (a schema task's); the task's own limit is applied with its answers (judgeAnswers).
  if (Buffer.byteLength(JSON.stringify(value)) > ANSWER_DATA_MAX_BYTES) {
    throw ApiError.field('result_data', `must be at most ${ANSWER_DATA_MAX_BYTES} bytes as JSON`);
  }
  return value as Record<string, unknown>;
}
