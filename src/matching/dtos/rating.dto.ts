import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class WorkerRatingCreate {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 5, description: 'Stars for the agent of the task.' })
  @IsInt()
  @Min(0)
  @Max(5)
  rating: number;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  comment?: string;
}

export class WorkerRatingResponse {
  @ApiProperty({ format: 'uuid' }) rating_id: string;
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ type: 'integer' }) rating: number;
  @ApiProperty({ type: String, nullable: true }) comment: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** Workers' ratings of an agent (two-sided reputation), shown with the agent's tasks. */
export class AgentRatingView {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 4.6,
    description: 'Mean stars (0 to 5); null when unrated.',
  })
  average: number | null;
  @ApiProperty({ type: 'integer', example: 12 }) count: number;
}
