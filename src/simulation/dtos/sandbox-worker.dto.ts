import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { GeoPoint, MaxDecimalPlaces, MaxJsonBytes, NOT_BLANK } from '../../common/http/validators';
import { RESULT_DATA_MAX_BYTES } from '../../task/domain/task-policy';
import { MAX_WORKER_SKILLS, WORKER_SKILLS } from '../../worker/worker-skills';
import {
  ANSWER_STYLES,
  type AnswerStyle,
  BEHAVIOR_LIMITS,
  EXIF_KINDS,
  type ExifKind,
  OUTCOMES,
  type Outcome,
  PERSONAS,
  type Persona,
  STEPS,
} from '../behaviors';

export class SandboxPoint extends GeoPoint {}

export class NearTask {
  @ApiProperty({ format: 'uuid', description: 'One of your tasks.' })
  @IsUUID()
  task_id: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: BEHAVIOR_LIMITS.maxPhotoDistanceMeters, example: 50 })
  @IsInt()
  @Min(0)
  @Max(BEHAVIOR_LIMITS.maxPhotoDistanceMeters)
  distance_m: number;
}

export class PhotoBehaviorInput {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: BEHAVIOR_LIMITS.maxPhotoDistanceMeters,
    description: 'How far from the task the photo’s EXIF GPS puts it (the check accepts 100 m).',
  })
  @IsInt()
  @Min(0)
  @Max(BEHAVIOR_LIMITS.maxPhotoDistanceMeters)
  distance_m: number;

  @ApiProperty({
    enum: EXIF_KINDS,
    description: 'present: GPS and capture time; missing: no GPS; stale: taken two days before submitting.',
  })
  @IsIn(EXIF_KINDS)
  exif: ExifKind;
}

const delay = (what: string) =>
  ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: BEHAVIOR_LIMITS.maxDelaySeconds,
    description: what,
  });

export class BehaviorInput {
  @delay('Seconds from an offer to the answer (offers lapse after 120 s).')
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(BEHAVIOR_LIMITS.maxDelaySeconds)
  accept_after_s?: number;

  @delay('Seconds from accepting to starting.')
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(BEHAVIOR_LIMITS.maxDelaySeconds)
  start_after_s?: number;

  @delay('Seconds from starting to submitting (or abandoning).')
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(BEHAVIOR_LIMITS.maxDelaySeconds)
  submit_after_s?: number;

  @ApiPropertyOptional({
    enum: OUTCOMES,
    description:
      'submit; abandon (after starting); no_show (accepts, never comes: expires at the deadline); decline (the offer); ' +
      'unable (after starting, reports "could not do it": the shop was closed, with `photo` as the photo of it).',
  })
  @IsOptional()
  @IsIn(OUTCOMES)
  outcome?: Outcome;

  @ApiPropertyOptional({
    type: PhotoBehaviorInput,
    nullable: true,
    description: 'null submits without a photo.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PhotoBehaviorInput)
  photo?: PhotoBehaviorInput | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      `The result_data submitted (at most ${RESULT_DATA_MAX_BYTES} bytes), as it is, on any task. Without it, a ` +
      'task with an answer_schema is answered field by field (see `answers`), others get a short default.',
  })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(RESULT_DATA_MAX_BYTES)
  data?: Record<string, unknown>;

  @ApiPropertyOptional({
    enum: ANSWER_STYLES,
    description:
      'How a task’s answer_schema is answered when `data` is not set: plausible values for every field (photo ' +
      'fields get a generated photo), or wrong ones, which the submission refuses (400 answer_invalid; the worker ' +
      'then gives the work up). The `wrong_answers` persona sets `wrong`.',
  })
  @IsOptional()
  @IsIn(ANSWER_STYLES)
  answers?: AnswerStyle;
}

/** Fields shared by creation and update; on creation exactly one of `location` and `near_task` is required. */
export class UpdateSandboxWorkerRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: 50, example: 'Reliable Li' })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  @Matches(NOT_BLANK, { message: 'must not be blank' })
  name?: string;

  @ApiPropertyOptional({ type: SandboxPoint, description: 'Where the worker is (it stays online there).' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SandboxPoint)
  location?: SandboxPoint;

  @ApiPropertyOptional({ type: NearTask, description: 'Place the worker this far from one of your tasks.' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => NearTask)
  near_task?: NearTask;

  @ApiPropertyOptional({ type: [String], enum: WORKER_SKILLS, maxItems: MAX_WORKER_SKILLS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_WORKER_SKILLS)
  @IsIn(WORKER_SKILLS, { each: true })
  skills?: string[];

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 5,
    example: 4.5,
    description: 'Starting reputation (default 4.0).',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @MaxDecimalPlaces(2)
  @Min(0)
  @Max(5)
  reputation?: number;

  @ApiPropertyOptional({ enum: PERSONAS, description: 'A preset behaviour; `behavior` fields override it.' })
  @IsOptional()
  @IsIn(PERSONAS)
  persona?: Persona;

  @ApiPropertyOptional({ type: BehaviorInput })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BehaviorInput)
  behavior?: BehaviorInput;
}

export class CreateSandboxWorkerRequest extends UpdateSandboxWorkerRequest {}

export class PhotoBehaviorView {
  @ApiProperty({ type: 'integer' }) distance_m: number;
  @ApiProperty({ enum: EXIF_KINDS }) exif: ExifKind;
}

export class BehaviorView {
  @ApiProperty({ type: 'integer' }) accept_after_s: number;
  @ApiProperty({ type: 'integer' }) start_after_s: number;
  @ApiProperty({ type: 'integer' }) submit_after_s: number;
  @ApiProperty({ enum: OUTCOMES }) outcome: Outcome;
  @ApiProperty({ type: PhotoBehaviorView, nullable: true }) photo: PhotoBehaviorView | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) data: Record<string, unknown>;
  @ApiProperty({
    enum: ANSWER_STYLES,
    description: 'How an answer_schema is answered when data is the default.',
  })
  answers: AnswerStyle;
}

export class SandboxActionView {
  @ApiProperty({ enum: STEPS }) step: string;
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ format: 'uuid' }) assignment_id: string;
  @ApiProperty({ format: 'date-time' }) due_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) done_at: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: '`ok`, or the error code the service answered (for example `photo_location_mismatch`).',
  })
  outcome: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  detail: Record<string, unknown> | null;
}

export class SandboxWorkerResponse {
  @ApiProperty({ format: 'uuid' }) worker_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: PERSONAS, nullable: true }) persona: Persona | null;
  @ApiProperty({ type: BehaviorView }) behavior: BehaviorView;
  @ApiProperty({ type: SandboxPoint }) location: SandboxPoint;
  @ApiProperty({ type: [String] }) skills: string[];
  @ApiProperty() reputation: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiProperty({ type: [SandboxActionView], description: 'Its latest steps, newest first (at most 50).' })
  activity: SandboxActionView[];
}

export class SandboxWorkerList {
  @ApiProperty({ type: [SandboxWorkerResponse] }) data: SandboxWorkerResponse[];
}

export class DeletedSandboxWorker {
  @ApiProperty({ format: 'uuid' }) worker_id: string;
  @ApiProperty({ example: true }) deleted: boolean;
}
