import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { OpaqueJson } from '../../common/http/opaque-json';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Max,
  MaxLength,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { LOCATION_PROOFS } from '../domain/location-proof';
import {
  REJECTION_REASONS,
  RESULT_DATA_MAX_BYTES,
  TASK_TYPES,
  UNABLE_REASONS,
  type UnableReason,
} from '../domain/task-policy';
import { ASSIGNMENT_STATUSES, TASK_STATUSES } from '../domain/task-status';
import { AgentRatingView } from '../../matching/dtos/rating.dto';
import { AgentRecordView } from '../../matching/dtos/agent-record.dto';
import { NEARBY_SORTS } from '../../matching/nearby-tasks.query';
import { PhotoVerification } from '../../events/event-data';
import { OfferDeliveryItem } from '../../events/dtos/offer-delivery.dto';
import { TaskLocationView } from './task-response.dto';
import {
  ISO_DATE_TIME_WITH_OFFSET,
  GeoPoint,
  MaxJsonBytes,
  OptionalInt,
  stacked,
} from '../../common/http/validators';
import { AnswerSchema } from './answer-schema.dto';
import { ANSWER_DATA_MAX_BYTES } from '../domain/answer-schema';

export const AVAILABLE_SORTS = NEARBY_SORTS;
export type AvailableSort = (typeof AVAILABLE_SORTS)[number];

export class AvailableTasksQuery {
  @ApiPropertyOptional({ minimum: -90, maximum: 90, description: 'With longitude, or neither.' })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  latitude?: number;

  @ApiPropertyOptional({ minimum: -180, maximum: 180, description: 'With latitude, or neither.' })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  longitude?: number;

  @ApiPropertyOptional({ minimum: 0, exclusiveMinimum: true, maximum: 50, default: 5 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(50)
  max_distance_km?: number;

  @ApiPropertyOptional({ enum: AVAILABLE_SORTS, default: 'payment_desc' })
  @IsOptional()
  @IsIn(AVAILABLE_SORTS)
  sort_by?: AvailableSort;

  @OptionalInt({ min: 1 })
  min_payment_cents?: number;

  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit?: number;
}

export class AvailableTaskItem {
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: TASK_TYPES }) task_type: string;
  @ApiProperty({
    type: 'integer',
    description: 'What this worker is paid for an approved result (per-slot payout).',
  })
  payment_cents: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null when the query has no coordinates' })
  distance_meters: number | null;
  @ApiProperty({ format: 'date-time' }) deadline_at: string;
  @ApiProperty({ type: Number, nullable: true }) estimated_duration_minutes: number | null;
  @ApiProperty({ type: [String] }) required_skills: string[];
  @ApiProperty({ type: TaskLocationView, nullable: true }) location: TaskLocationView | null;
  @ApiProperty({ type: 'integer' }) open_slots: number;
  @ApiProperty({
    enum: LOCATION_PROOFS,
    description: 'photo_or_device_gps: a photo without EXIF GPS passes with a fresh device_location.',
  })
  location_proof: string;
  @ApiProperty({
    type: () => AnswerSchema,
    nullable: true,
    description:
      'What you must answer, field by field (product-decisions §17): result_data must follow it, and a photo field holds the URL of a photo you uploaded. null: result_data is free-form.',
  })
  answer_schema: Record<string, unknown> | null;
  @ApiProperty({ type: AgentRatingView, description: "Workers' ratings of the agent who posted the task." })
  agent_rating: AgentRatingView;
  @ApiProperty({
    type: AgentRecordView,
    description:
      'How the agent who posted the task decided results in the last 90 days: its rejection rate and disputes it lost.',
  })
  agent_record: AgentRecordView;
}

export class AvailableTasksResponse {
  @ApiProperty({ type: [AvailableTaskItem] }) tasks: AvailableTaskItem[];

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { total_eligible: 12, total_is_estimate: 0, returned: 12, max_distance_meters: 5000 },
    description:
      'total_eligible: tasks matching every filter before the limit, exact up to 200; above that, around a position, an estimate from a sample of the matches (typically within 20 %, never below 201); total_is_estimate: 1 when total_eligible is such an estimate, else 0; returned: items in this page; max_distance_meters: the radius applied (only with a position); last_known_position: 1 when the query had no coordinates and your last reported position was used.',
  })
  metadata: Record<string, number>;
}

export class TaskAcceptResponse {
  @ApiProperty({ format: 'uuid' }) assignment_id: string;
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ enum: ['accepted'] }) status: string;
  @ApiProperty({ format: 'date-time' }) accepted_at: string;
  @ApiProperty({ type: 'integer' }) payment_cents: number;
  @ApiProperty({ format: 'date-time' }) deadline_at: string;
}

export class AssignmentResponse {
  @ApiProperty({ format: 'uuid' }) assignment_id: string;
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ enum: ASSIGNMENT_STATUSES }) status: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

/** The device's own position, read by the app when the photo was taken (product-decisions §11). */
export class DeviceLocationInput extends GeoPoint {
  @ApiProperty({
    minimum: 0,
    maximum: 100_000,
    example: 12,
    description: 'Accuracy radius reported by the device, in metres, above 0 (at most 50 passes the check).',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(100_000)
  accuracy_m: number;

  @ApiProperty({
    format: 'date-time',
    description:
      'When the device read it, ISO 8601 with an offset; at most 5 minutes before the submission passes.',
  })
  @IsString()
  @Matches(ISO_DATE_TIME_WITH_OFFSET, { message: 'must be an ISO 8601 date-time with a time zone offset' })
  captured_at: string;
}

/** Proof photos as a submission and a "could not do it" report take them: up to 5 URLs from the upload endpoints. */
function ProofPhotoUrls(description: string): PropertyDecorator {
  return stacked(
    // Length's bounds, for each item (Nest's swagger plugin reads them only from a Length written on the field).
    ApiPropertyOptional({ type: [String], maxItems: 5, minLength: 1, maxLength: 2048, description }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(5),
    IsString({ each: true }),
    Length(1, 2048, { each: true }),
  );
}

/** Where the device was, as a submission and a "could not do it" report take it (checked as DeviceLocationInput). */
function ProofDeviceLocation(description: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ type: DeviceLocationInput, description }),
    IsOptional(),
    IsObject(),
    ValidateNested(),
    Type(() => DeviceLocationInput),
  );
}

export class TaskSubmissionRequest {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      `The result. When the task has an answer_schema, the answers it asks for (checked field by field: 400 ` +
      `answer_invalid; a photo field holds the URL of one of your uploads; null on an optional field means no answer), ` +
      `at most ${ANSWER_DATA_MAX_BYTES} bytes as JSON; otherwise free-form, at most ${RESULT_DATA_MAX_BYTES} bytes.`,
  })
  @IsObject()
  @OpaqueJson()
  @MaxJsonBytes(ANSWER_DATA_MAX_BYTES)
  result_data: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  worker_notes?: string;

  @ProofPhotoUrls('URLs returned by the upload endpoints.')
  photo_urls?: string[];

  @ProofDeviceLocation(
    'Where the device was when the photos were taken. Used for photos without EXIF GPS on tasks whose requirements.location_proof is photo_or_device_gps; recorded with the submission in any case.',
  )
  device_location?: DeviceLocationInput;
}

/** "Could not do it" (product-decisions §19): the worker reports why, with what they saw. */
export class UnableReportRequest {
  @ApiProperty({
    enum: UNABLE_REASONS,
    description:
      'closed: the place was closed; not_found: it could not be found; no_access: no way in; unsafe: it was not safe; ' +
      'other: the note says.',
  })
  @IsIn(UNABLE_REASONS)
  reason: UnableReason;

  @ApiProperty({
    minLength: 1,
    maxLength: 2000,
    description: 'What happened, in your words (the agent reads it).',
  })
  @IsString()
  @Length(1, 2000)
  @Matches(/\S/, { message: 'must not be blank' })
  note: string;

  @ProofPhotoUrls(
    'Photos of what you found (the closed shop), from the upload endpoints; checked like proof photos.',
  )
  photo_urls?: string[];

  @ProofDeviceLocation('Where the device was when the photos were taken.')
  device_location?: DeviceLocationInput;
}

export class UnableReportResponse {
  @ApiProperty({ format: 'uuid' }) assignment_id: string;
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ enum: ['submitted'] }) status: string;
  @ApiProperty({ enum: ['unable'] }) outcome: 'unable';
  @ApiProperty({ format: 'date-time' }) submitted_at: string;
  @ApiProperty({
    type: 'integer',
    example: 900,
    description: 'What you are paid if the agent accepts the report (or nobody decides within 72 hours).',
  })
  payment_cents: number;
}

export class CheckedPhotoView {
  @ApiProperty() url: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Capture time from EXIF.' })
  taken_at: string | null;
  @ApiProperty({
    type: 'integer',
    description: 'From the photo’s position (EXIF GPS, else the device location) to the task (at most 100).',
  })
  distance_meters: number;
  @ApiProperty({ type: PhotoVerification }) verification: PhotoVerification;
}

export class TaskSubmissionResponse {
  @ApiProperty({ format: 'uuid' }) assignment_id: string;
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ enum: ['submitted'] }) status: string;
  @ApiProperty({ format: 'date-time' }) submitted_at: string;
  @ApiPropertyOptional({
    type: CheckedPhotoView,
    description: 'The GPS-checked photo (submit-with-photo only).',
  })
  photo?: CheckedPhotoView;
}

/** The text fields of the submit-with-photo form (the file is the `photo` part). */
export class SubmitWithPhotoForm {
  @ApiProperty({
    description: `The result as JSON text: an object, checked as the JSON submission's result_data is (answer_schema, sizes).`,
  })
  @IsString()
  @Length(1, 64 * 1024)
  result_data: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  worker_notes?: string;

  @ApiPropertyOptional({
    description:
      'The device location as JSON text: {"latitude", "longitude", "accuracy_m", "captured_at"} (see TaskSubmissionRequest.device_location).',
  })
  @IsOptional()
  @IsString()
  @Length(1, 1024)
  device_location?: string;
}

/**
 * The worker-facing filter names and the assignment statuses each one covers. Only work the worker took is listed
 * (accepted at some point), except under `offered`: offers waiting for an answer. Offers turned down or left to
 * lapse are not the worker's tasks and are never listed.
 */
export const MY_TASK_FILTERS = {
  offered: ['pending'],
  accepted: ['accepted'],
  in_progress: ['in_progress'],
  submitted: ['submitted'],
  completed: ['approved'],
  failed: ['rejected', 'expired', 'abandoned', 'cancelled'],
} as const;
export type MyTaskFilter = keyof typeof MY_TASK_FILTERS;

export class MyTasksQuery {
  @ApiPropertyOptional({
    enum: Object.keys(MY_TASK_FILTERS),
    description:
      'offered = offers awaiting your answer (not listed otherwise); completed = approved; failed = rejected, expired, abandoned or cancelled. Without a filter: everything you accepted.',
  })
  @IsOptional()
  @IsIn(Object.keys(MY_TASK_FILTERS))
  status?: MyTaskFilter;

  @OptionalInt({ min: 1, max: 100, default: 50 })
  limit?: number;

  @OptionalInt({ min: 0, default: 0 })
  offset?: number;
}

/** An operator's confirmed fraud on the worker's result (product-decisions §18), as the worker reads it. */
export class VerdictProofReview {
  @ApiProperty({ enum: ['confirmed_fraud'] }) outcome: 'confirmed_fraud';
  @ApiProperty({ format: 'date-time' }) decided_at: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When a person reversed the finding after you asked them to look again (your reputation restored); the verdict itself stands.',
  })
  reversed_at: string | null;
}

/** The verdict on the worker's result (the agent's, or an operator's confirmed fraud), as the worker reads it. */
export class AssignmentReviewView {
  @ApiProperty({ enum: ['approved', 'rejected'] }) decision: string;
  @ApiProperty({
    type: String,
    enum: REJECTION_REASONS,
    nullable: true,
    description: 'Why the agent rejected the result (rejections only).',
  })
  reason_code: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The agent’s words, if any (on an operator’s confirmed fraud, see proof_review, the platform’s).',
  })
  feedback_text: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'null when approved automatically or not given.',
  })
  rating: number | null;
  @ApiProperty({ type: Number, nullable: true }) quality_score: number | null;
  @ApiProperty({
    type: VerdictProofReview,
    nullable: true,
    description:
      'Set when an operator (a person), not the agent, reviewed the photos and confirmed they were not genuine ' +
      '(product-decisions §18): a rejection is then theirs and feedback_text is the platform’s explanation, not ' +
      'the agent’s words (an approval after 14 days keeps its money). Ask a person to look again with POST ' +
      '/v1/worker/reviews {subject: fraud_hold, subject_id: this assignment_id}. null otherwise.',
  })
  proof_review: VerdictProofReview | null;
}

export class MyTaskItem {
  @ApiProperty({ format: 'uuid' }) assignment_id: string;
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty() title: string;
  @ApiProperty({ enum: TASK_TYPES }) task_type: string;
  @ApiProperty({ enum: ASSIGNMENT_STATUSES, description: 'The assignment’s own status.' }) status: string;
  @ApiProperty({ enum: TASK_STATUSES }) task_status: string;
  @ApiProperty({ type: 'integer' }) payment_cents: number;
  @ApiProperty({ format: 'date-time' }) deadline_at: string;
  @ApiProperty({ type: TaskLocationView }) location: TaskLocationView;
  @ApiProperty({ enum: LOCATION_PROOFS, description: 'What proves where your photos were taken.' })
  location_proof: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'For an offer: answer before this (accept with POST /v1/worker/tasks/{task_id}/accept).',
  })
  offer_expires_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) accepted_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) submitted_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) reviewed_at: string | null;
  @ApiProperty({
    type: AssignmentReviewView,
    nullable: true,
    description:
      'The verdict on your result once the agent (or the 72 h auto-approval) decided; null before.',
  })
  review: AssignmentReviewView | null;
}

export class MyTasksResponse {
  @ApiProperty({ type: [MyTaskItem] }) tasks: MyTaskItem[];
  @ApiProperty({ type: 'integer', description: 'Matching assignments in all pages.' }) total: number;
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty({ type: 'integer' }) offset: number;
}

export class SubmittedPhotoView {
  @ApiProperty() url: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Capture time from EXIF.' })
  taken_at: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'From the photo’s position to the task (null for proof files that are not checked).',
  })
  distance_meters: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The answer_schema photo field it answers, if any.',
  })
  field: string | null;
  @ApiProperty({ type: PhotoVerification, nullable: true }) verification: PhotoVerification | null;
}

/** What the worker sent for review. */
export class WorkerSubmissionView {
  @ApiProperty({ type: 'object', additionalProperties: true }) result_data: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true }) worker_notes: string | null;
  @ApiProperty({ type: [SubmittedPhotoView] }) photos: SubmittedPhotoView[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The device fix sent with the submission, if any.',
  })
  device_location: Record<string, unknown> | null;
  @ApiProperty({
    description:
      'True while a person must look at this submission before it can be approved (a high-risk photo, ' +
      'product-decisions §18); false once the agent or an operator has decided, or an operator cleared it.',
  })
  review_required: boolean;
  @ApiPropertyOptional({
    enum: UNABLE_REASONS,
    description:
      'Present when you reported that you could not do it (POST /v1/worker/assignments/{id}/unable): the reason you ' +
      'gave; worker_notes holds your note.',
  })
  unable_reason?: UnableReason;
}

/** One of the worker's assignments with its task, submission and verdict (the page a deep link opens). */
export class WorkerAssignmentDetail extends MyTaskItem {
  @ApiProperty() description: string;
  @ApiProperty({ type: [String] }) required_skills: string[];
  @ApiProperty({
    type: () => AnswerSchema,
    nullable: true,
    description: 'What you must answer (product-decisions §17); null: result_data is free-form.',
  })
  answer_schema: Record<string, unknown> | null;
  @ApiProperty({
    type: WorkerSubmissionView,
    nullable: true,
    description: 'What you submitted; null before you submit.',
  })
  submission: WorkerSubmissionView | null;
  @ApiProperty({
    type: [OfferDeliveryItem],
    description:
      'For an assignment that began as an offer: how the offer was sent to you, per channel; else [].',
  })
  deliveries: OfferDeliveryItem[];
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'A rejected result may be disputed until then (72 hours after the rejection, on the task’s time; ' +
      'POST /v1/worker/assignments/{id}/dispute); null unless rejected.',
  })
  dispute_window_ends_at: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'The dispute you opened on this rejection (GET /v1/worker/assignments/{id}/dispute); null if none.',
  })
  dispute_id: string | null;
}
