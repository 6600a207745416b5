import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ISO_DATE_TIME_WITH_OFFSET, NOT_BLANK } from '../../common/http/validators';

/** The most one advance may move a clock (product-decisions §12). */
export const MAX_ADVANCE_SECONDS = 30 * 86_400;

export class CreateTestClockRequest {
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'The clock’s starting time (ISO 8601 with an offset); default now.',
  })
  @IsOptional()
  @IsString()
  @Matches(ISO_DATE_TIME_WITH_OFFSET, { message: 'must be an ISO 8601 date-time with a time zone offset' })
  frozen_time?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100, example: 'deadline scenario' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  @Matches(NOT_BLANK, { message: 'must not be blank' })
  name?: string;
}

export class AdvanceTestClockRequest {
  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'The time to move to: after the clock’s time, at most 30 days after it. Give this or by_seconds.',
  })
  @IsOptional()
  @IsString()
  @Matches(ISO_DATE_TIME_WITH_OFFSET, { message: 'must be an ISO 8601 date-time with a time zone offset' })
  to?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_ADVANCE_SECONDS, example: 259200 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ADVANCE_SECONDS)
  by_seconds?: number;
}

export class TestClockResponse {
  @ApiProperty({ format: 'uuid' }) clock_id: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ format: 'date-time', description: 'The clock’s time: what "now" is for its tasks.' })
  frozen_time: string;
  @ApiProperty({ enum: ['ready', 'advancing'] }) status: string;
  @ApiProperty({ type: 'integer', description: 'Tasks created on this clock.' }) task_count: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class TestClockList {
  @ApiProperty({ type: [TestClockResponse] }) data: TestClockResponse[];
}

export class DeletedTestClock {
  @ApiProperty({ format: 'uuid' }) clock_id: string;
  @ApiProperty({ example: true }) deleted: boolean;
  @ApiProperty({ type: 'integer', description: 'Live tasks that were ended, every held cent refunded.' })
  ended_tasks: number;
}
