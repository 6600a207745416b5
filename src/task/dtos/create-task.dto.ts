import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { OpaqueJson } from '../../common/http/opaque-json';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { DEFAULT_LOCATION_PROOF, LOCATION_PROOFS } from '../domain/location-proof';
import { MAX_TASK_RADIUS_METERS } from '../../matching/offer-policy';
import type { LocationProof } from '../domain/location-proof';
import {
  BUDGET_MAX_CENTS,
  BUDGET_MIN_CENTS,
  DEFAULT_MAX_DISTANCE_METERS,
  DEFAULT_UNABLE_PAYOUT_PERCENT,
  MAX_UNABLE_PAYOUT_PERCENT,
  MAX_WORKERS_LIMIT,
  METADATA_MAX_BYTES,
  TASK_TYPES,
} from '../domain/task-policy';
import {
  ANSWER_SCHEMA_DESCRIPTION,
  AnswerSchema,
  REVIEW_POLICY_DESCRIPTION,
  ReviewPolicy,
} from './answer-schema.dto';
import {
  ISO_DATE_TIME_WITH_OFFSET,
  GeoPoint,
  MaxDecimalPlaces,
  MaxJsonBytes,
  NOT_BLANK,
} from '../../common/http/validators';

export class TaskLocation extends GeoPoint {
  @ApiPropertyOptional({ maxLength: 500, example: '88 Century Avenue, Pudong, Shanghai' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  address?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_TASK_RADIUS_METERS,
    default: DEFAULT_MAX_DISTANCE_METERS,
    description: 'How far from the location a worker may be offered the task (push matching).',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_TASK_RADIUS_METERS)
  max_distance_meters?: number;
}

export class TaskRequirements {
  @ApiPropertyOptional({
    type: [String],
    maxItems: 20,
    example: ['photography'],
    description: 'Every listed skill must be among the worker’s skills.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 50, { each: true })
  skills?: string[];

  @ApiPropertyOptional({ minimum: 0, maximum: 5, example: 3.5 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @MaxDecimalPlaces(1)
  @Min(0)
  @Max(5)
  min_reputation?: number;

  @ApiPropertyOptional({
    enum: LOCATION_PROOFS,
    default: DEFAULT_LOCATION_PROOF,
    description:
      'What proves where a photo was taken: photo_gps = its EXIF GPS, within 100 m (the default); ' +
      'photo_or_device_gps = EXIF GPS when present, else the device location sent with the submission ' +
      '(at most 5 minutes old, accurate to 50 m, within 100 m), for phone browsers that strip EXIF GPS.',
  })
  @IsOptional()
  @IsIn(LOCATION_PROOFS)
  location_proof?: LocationProof;
}

/** Task creation (both surfaces). Unknown fields, here and in nested objects, are refused. */
export class CreateTaskRequest {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Photograph the storefront of 88 Century Avenue' })
  @IsString()
  @Length(1, 200)
  @Matches(NOT_BLANK, { message: 'must not be blank' })
  title: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 10_000,
    example: 'Two photos: the full storefront and the opening hours sign.',
  })
  @IsString()
  @MaxLength(10_000)
  @Matches(NOT_BLANK, { message: 'must not be empty' })
  description: string;

  @ApiProperty({ type: TaskLocation })
  @IsObject()
  @ValidateNested()
  @Type(() => TaskLocation)
  location: TaskLocation;

  @ApiProperty({
    type: 'integer',
    minimum: BUDGET_MIN_CENTS,
    maximum: BUDGET_MAX_CENTS,
    example: 5000,
    description:
      'Gross price of one worker’s work in cents (fee included). The task costs budget × max_workers.',
  })
  @IsInt()
  @Min(BUDGET_MIN_CENTS)
  @Max(BUDGET_MAX_CENTS)
  budget_cents: number;

  @ApiProperty({
    format: 'date-time',
    example: '2030-01-01T12:00:00Z',
    description: 'ISO 8601 with an offset (Z or ±hh:mm); in the future and at most 365 days ahead.',
  })
  @IsString()
  @Matches(ISO_DATE_TIME_WITH_OFFSET, { message: 'must be an ISO 8601 date-time with a time zone offset' })
  deadline_at: string;

  @ApiProperty({ enum: TASK_TYPES, example: 'photo' })
  @IsIn(TASK_TYPES)
  task_type: (typeof TASK_TYPES)[number];

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_WORKERS_LIMIT, default: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_WORKERS_LIMIT)
  max_workers?: number;

  @ApiPropertyOptional({ type: TaskRequirements })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TaskRequirements)
  requirements?: TaskRequirements;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: `Free-form JSON for the agent, at most ${METADATA_MAX_BYTES} bytes serialised.`,
  })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(METADATA_MAX_BYTES)
  @OpaqueJson()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ type: () => AnswerSchema, description: ANSWER_SCHEMA_DESCRIPTION })
  @IsOptional()
  @IsObject()
  @OpaqueJson()
  answer_schema?: Record<string, unknown>;

  @ApiPropertyOptional({ type: () => ReviewPolicy, description: REVIEW_POLICY_DESCRIPTION })
  @IsOptional()
  @IsObject()
  @OpaqueJson()
  review_policy?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_UNABLE_PAYOUT_PERCENT,
    default: DEFAULT_UNABLE_PAYOUT_PERCENT,
    description:
      'The share of a slot’s budget, in percent, that a worker’s accepted "could not do it" report pays (the shop was ' +
      'closed, the place not found): that share less the platform fee on it goes to the worker, the rest of the slot ' +
      'back to you (product-decisions §19).',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_UNABLE_PAYOUT_PERCENT)
  unable_payout_percent?: number;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 255,
    description:
      'Repeating a key (on either surface) returns the original 201 response of the task it created; the same key with a different body is 409 idempotency_conflict. Kept with the task for good; a refused creation leaves the key free.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  idempotency_key?: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'Sandbox only: the test clock (POST /v1/sandbox/clocks) the task lives on. Its "now" is the clock’s time: the ' +
      'deadline is checked against it, and only advancing the clock moves the task through time. Refused in live mode.',
  })
  @IsOptional()
  @IsUUID()
  test_clock?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "A person's approval of this very task over the spend cap (POST /v1/spend-approvals, approved in the " +
      'console). Used only when the task would pass the cap: then the approval must be approved, unexpired, unused, ' +
      'for this API key and for this exact body (every field but this one and idempotency_key), and it is used up ' +
      'by this creation. Within the cap it is left unused.',
  })
  @IsOptional()
  @IsUUID()
  spend_approval_id?: string;
}
