import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { TASK_STATUSES } from '../domain/task-status';
import { MaxDecimalPlaces, OptionalInt } from '../../common/http/validators';

export class TaskFeedbackRequest {
  @ApiProperty({ description: 'true approves (pays the worker), false rejects (refunds the slot).' })
  @IsBoolean()
  accept_result: boolean;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 5 })
  @IsInt()
  @Min(1)
  @Max(5)
  rating: number;

  @ApiProperty({ minimum: 0, maximum: 5, example: 4.5, description: 'One decimal place at most.' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @MaxDecimalPlaces(1)
  @Min(0)
  @Max(5)
  quality_score: number;

  @ApiPropertyOptional({ maxLength: 500 })
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
