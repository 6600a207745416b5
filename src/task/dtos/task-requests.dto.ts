import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { TASK_STATUSES } from '../domain/task-status';
import { MaxDecimalPlaces, NotWhen, OptionalInt } from '../../common/http/validators';
import { REJECTION_REASONS } from '../domain/task-policy';
import type { RejectionReason } from '../domain/task-policy';

const accepting = (o: TaskFeedbackRequest) => o.accept_result === true;

/**
 * The verdict on submitted results (product-decisions §10): `rating` and `quality_score` are required to accept and
 * optional to reject; a rejection may name its `reason_code` (absent is `other`, so the interface spec's shape,
 * which has none, works) and the worker sees it with `feedback_text`; an acceptance has none.
 */
export class TaskFeedbackRequest {
  @ApiProperty({ description: 'true approves (pays the worker), false rejects (refunds the slot).' })
  @IsBoolean()
  accept_result: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 5,
    description: 'Required to accept; optional to reject.',
  })
  @ValidateIf((o: TaskFeedbackRequest) => accepting(o) || o.rating !== undefined)
  @IsDefined({ message: 'is required to accept a result' })
  @IsInt()
  @Min(1)
  @Max(5)
  rating?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 5,
    example: 4.5,
    description: 'One decimal place at most. Required to accept; optional to reject.',
  })
  @ValidateIf((o: TaskFeedbackRequest) => accepting(o) || o.quality_score !== undefined)
  @IsDefined({ message: 'is required to accept a result' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @MaxDecimalPlaces(1)
  @Min(0)
  @Max(5)
  quality_score?: number;

  @ApiPropertyOptional({
    enum: REJECTION_REASONS,
    description:
      'Why a rejection rejects; the worker sees it with the assignment. Omitted on a rejection: `other`. Refused on ' +
      'an acceptance.',
  })
  @ValidateIf((o: TaskFeedbackRequest) => o.reason_code !== undefined)
  @IsIn(REJECTION_REASONS)
  @NotWhen(accepting, { message: 'is only given with a rejection' })
  reason_code?: RejectionReason;

  @ApiPropertyOptional({
    maxLength: 500,
    description: 'Free text; on a rejection it is your note to the worker, shown with the reason.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  feedback_text?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The submitted assignment the verdict is for; without it, every submitted assignment.',
  })
  @IsOptional()
  @IsUUID()
  assignment_id?: string;
}

export class ListTasksQuery {
  @ApiPropertyOptional({ enum: TASK_STATUSES })
  @IsOptional()
  @IsIn(TASK_STATUSES)
  status?: (typeof TASK_STATUSES)[number];

  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit?: number;

  @ApiPropertyOptional({ format: 'uuid', description: 'The task_id of the last item of the previous page.' })
  @IsOptional()
  @IsUUID()
  starting_after?: string;
}
