import { Body, Controller, Get, HttpCode, Post, Query, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import {
  AssignmentResponse,
  AvailableTasksQuery,
  AvailableTasksResponse,
  MyTasksQuery,
  MyTasksResponse,
  SubmitWithPhotoForm,
  WorkerAssignmentDetail,
  TaskAcceptResponse,
  TaskSubmissionRequest,
  TaskSubmissionResponse,
  UnableReportRequest,
  UnableReportResponse,
} from '../dtos/worker-task.dto';
import { AssignmentService } from '../services/assignment.service';
import { TaskAcceptService } from '../services/task-accept.service';
import { WorkerTaskQueryService } from '../services/worker-task-query.service';
import { WorkerOffersService } from '../services/worker-offers.service';
import { WorkerOffersResponse } from '../dtos/worker-offer.dto';
import { PhotoSubmissionService } from '../services/photo-submission.service';
import { MultipartUpload } from '../../upload/multipart';
import type { IncomingFile } from '../../upload/services/upload.service';
import { UuidParam } from '../../common/http/uuid-param';

/** The 400s of every route that takes proof photos (submit, unable, submit-with-photo): bad input, the location check. */
const PROOF_PHOTO_ERRORS = [
  'validation_error',
  'photo_gps_missing',
  'photo_location_mismatch',
  'device_location_stale',
  'device_location_inaccurate',
] as const;

/** The worker's side of a task (worker JWT), on both prefixes like the other worker routes. */
@ApiTags('worker tasks')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerTasksController {
  constructor(
    private readonly query: WorkerTaskQueryService,
    private readonly accepting: TaskAcceptService,
    private readonly assignments: AssignmentService,
    private readonly photoSubmissions: PhotoSubmissionService,
    private readonly waitingOffers: WorkerOffersService,
  ) {}

  @Get('tasks/available')
  @ApiOperation({
    summary: 'Tasks you can take now, optionally near a position',
    description:
      'Open tasks you are eligible for (skills, reputation, not already involved), with distance when you give a position; sort by payment, distance or deadline. Tasks offered to someone else are hidden until the offer ends.',
  })
  @ApiOkResponse({ type: AvailableTasksResponse })
  @ApiErrors({ 400: ['validation_error'] })
  available(
    @CurrentActor() actor: WorkerActor,
    @Query() q: AvailableTasksQuery,
  ): Promise<AvailableTasksResponse> {
    return this.query.available(actor, q);
  }

  @Get('tasks/my-tasks')
  @ApiOperation({
    summary: 'Your assignments, newest first',
    description:
      'Your assignments with their task, newest first, optionally by status (`completed` means approved; `failed` covers rejected, expired, abandoned and cancelled). Offset paging.',
  })
  @ApiOkResponse({ type: MyTasksResponse })
  mine(@CurrentActor() actor: WorkerActor, @Query() q: MyTasksQuery): Promise<MyTasksResponse> {
    return this.query.mine(actor, q);
  }

  @Get('offers')
  @ApiOperation({
    summary: 'Offers waiting for your answer, with their real time left',
    description:
      'Every offer still open (a slot held for you until expires_at), the soonest to expire first: the task as the available list shows it, how the offer was sent to you (deliveries per channel) and why it went to you (distance, reputation, responsiveness when it was made). The app shows these on load; new ones also arrive live as assignment.offered.',
  })
  @ApiOkResponse({ type: WorkerOffersResponse })
  offers(@CurrentActor() actor: WorkerActor): Promise<WorkerOffersResponse> {
    return this.waitingOffers.list(actor);
  }

  @Get('assignments/:assignment_id')
  @ApiOperation({
    summary: 'One of your assignments with its task, submission and verdict',
    description:
      'Your assignment with its task (description, place, deadline, payout, required skills), what you submitted (result, notes, photos with their distance and checks), the agent’s verdict with the rejection reason, and, for an offer, how it was sent to you (deliveries). Only your own: another worker’s assignment answers 404 assignment_not_found like an unknown id.',
  })
  @ApiOkResponse({ type: WorkerAssignmentDetail })
  @ApiErrors({ 400: ['validation_error'], 404: ['assignment_not_found'] })
  one(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
  ): Promise<WorkerAssignmentDetail> {
    return this.query.one(actor, assignmentId);
  }

  @Post('tasks/:task_id/accept')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Take a free slot of a task (or accept the offer of one made to you)',
    description:
      'Takes an open slot, or accepts the offer made to you, under the task lock: a full task is 409 task_full, a second slot of the same task 409 already_assigned, and your live-assignment cap (3, or 1 below reputation 3.5) 409 assignment_limit_reached. An offer of the task you declined or let lapse does not stop you: if a slot is open you take it (that same assignment becomes accepted).',
  })
  @ApiOkResponse({ type: TaskAcceptResponse })
  @ApiErrors({
    403: ['not_eligible'],
    404: ['task_not_found'],
    409: ['invalid_state', 'task_full', 'already_assigned', 'assignment_limit_reached'],
  })
  accept(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('task_id') taskId: string,
  ): Promise<TaskAcceptResponse> {
    return this.accepting.accept(actor, taskId);
  }

  @Post('assignments/:assignment_id/start')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start work on an accepted assignment',
    description:
      'Moves an accepted assignment to in_progress, and the task to in_progress when it is the first. Refused (409) from the deadline on.',
  })
  @ApiOkResponse({ type: AssignmentResponse })
  @ApiErrors({ 404: ['assignment_not_found'], 409: ['invalid_state'] })
  start(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
  ): Promise<AssignmentResponse> {
    return this.assignments.start(actor, assignmentId);
  }

  @Post('assignments/:assignment_id/submit')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Submit the result of an accepted or in-progress assignment',
    description:
      'Sends the result data (and optionally photo URLs of your own uploads) for the agent to review. Photos attached by photo_urls are checked like a submit-with-photo photo: EXIF GPS within 100 m of the task, or, where the task allows photo_or_device_gps, the device_location. Other proof files (PDF, video) are attached unchecked. A photo task needs at least one checked photo. When the task has an answer_schema, result_data must follow it: 400 answer_invalid lists each wrong field; a photo field holds the URL of one of your uploads, checked like a photo_urls photo. Refused (409) from the deadline on; nothing changes on a refusal.',
  })
  @ApiOkResponse({ type: TaskSubmissionResponse })
  @ApiErrors({
    400: [...PROOF_PHOTO_ERRORS, 'photo_required', 'answer_invalid'],
    404: ['assignment_not_found'],
    409: ['invalid_state'],
  })
  submit(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
    @Body() dto: TaskSubmissionRequest,
  ): Promise<TaskSubmissionResponse> {
    return this.assignments.submit(actor, assignmentId, dto);
  }

  @Post('assignments/:assignment_id/unable')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Report that you could not do it (the shop was closed, the place not found)',
    description:
      'From an accepted or in-progress assignment before the deadline: submits a "could not do it" report (outcome unable) with a reason, a note and optionally photos of what you found (checked like proof photos). The agent reviews it like a result; accepted, or not decided within 72 hours, it pays the task’s unable_payout_percent of the budget less the fee on it (payment_cents). Nothing changes on a refusal.',
  })
  @ApiOkResponse({ type: UnableReportResponse })
  @ApiErrors({
    400: [...PROOF_PHOTO_ERRORS],
    404: ['assignment_not_found'],
    409: ['invalid_state'],
  })
  unable(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
    @Body() dto: UnableReportRequest,
  ): Promise<UnableReportResponse> {
    return this.assignments.unable(actor, assignmentId, dto);
  }

  @Post('assignments/:assignment_id/submit-with-photo')
  @HttpCode(200)
  @UseInterceptors(MultipartUpload('photo', 1))
  @ApiOperation({
    summary: 'Submit with a photo proving presence: a JPEG or PNG taken within 100 m of the task',
    description:
      'Its EXIF GPS places it; where the task allows photo_or_device_gps, a photo without EXIF GPS is placed by device_location (at most 5 minutes old, accurate to 50 m). Nothing changes on a refusal: the assignment stays as it was and no file is kept.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['photo', 'result_data'],
      properties: {
        photo: { type: 'string', format: 'binary', description: 'JPEG or PNG with EXIF GPS, at most 10 MB.' },
        result_data: { type: 'string', description: 'The result as JSON text (an object).' },
        worker_notes: { type: 'string', maxLength: 2000 },
        device_location: {
          type: 'string',
          description:
            'JSON text: {"latitude": 31.2304, "longitude": 121.4737, "accuracy_m": 12, "captured_at": "2030-01-01T12:00:00Z"}.',
        },
      },
    },
  })
  @ApiOkResponse({ type: TaskSubmissionResponse })
  @ApiErrors({
    400: [...PROOF_PHOTO_ERRORS, 'invalid_photo', 'answer_invalid', 'photo_required'],
    404: ['assignment_not_found'],
    409: ['invalid_state'],
    413: ['payload_too_large'],
    415: ['unsupported_media_type'],
    429: ['too_many_concurrent_uploads', 'upload_quota_exceeded'],
  })
  submitWithPhoto(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
    @UploadedFile() photo: IncomingFile | undefined,
    @Body() form: SubmitWithPhotoForm,
  ): Promise<TaskSubmissionResponse> {
    return this.photoSubmissions.submit(actor, assignmentId, photo, form);
  }

  @Post('assignments/:assignment_id/decline')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Turn down a task offered to you; it goes to the next worker (no effect on your reputation)',
    description:
      'Only for a pending offer made to you. The slot is offered to the next eligible worker; declining does not affect your reputation.',
  })
  @ApiOkResponse({ type: AssignmentResponse })
  @ApiErrors({ 404: ['assignment_not_found'], 409: ['invalid_state'] })
  decline(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
  ): Promise<AssignmentResponse> {
    return this.assignments.decline(actor, assignmentId);
  }

  @Post('assignments/:assignment_id/abandon')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give the assignment up; the slot reopens for another worker (counts against you)',
    description:
      'Gives up an accepted or in-progress assignment. The slot reopens (offered to the next worker) at no cost to the agent; abandoning lowers your reputation.',
  })
  @ApiOkResponse({ type: AssignmentResponse })
  @ApiErrors({ 404: ['assignment_not_found'], 409: ['invalid_state'] })
  abandon(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
  ): Promise<AssignmentResponse> {
    return this.assignments.abandon(actor, assignmentId);
  }
}
