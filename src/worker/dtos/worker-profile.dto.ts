import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { WORKER_SKILLS, type WorkerSkill } from '../worker-skills';
import { WorkerSkillList } from './skill-list';

export class ReputationDetailsView {
  @ApiProperty({
    type: 'integer',
    description: 'Tasks taken and finished: approved, rejected, abandoned, or expired at the deadline.',
  })
  finished_tasks: number;
  @ApiProperty({ type: 'integer' }) approved_tasks: number;
  @ApiProperty({ type: 'integer', description: 'Agent review ratings (1 to 5) received.' })
  rating_count: number;
  @ApiProperty({ type: Number, nullable: true, example: 4.5 }) rating_average: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 22.5,
    description: 'Median time from accepting to submitting, in minutes.',
  })
  median_response_minutes: number | null;
  @ApiProperty({
    type: 'integer',
    example: 3,
    description: 'Unfinished assignments you may hold at once: 3, or 1 below reputation 3.5.',
  })
  live_assignment_limit: number;
}

export class WorkerResponse {
  @ApiProperty({ format: 'uuid' }) worker_id: string;
  @ApiProperty({ example: '13800138000', description: "The worker's own number, in full." })
  phone_number: string;
  @ApiProperty({ type: String, nullable: true, example: 'Li Wei' }) display_name: string | null;
  @ApiProperty({ enum: WORKER_SKILLS, isArray: true }) skills: string[];
  @ApiProperty({ enum: ['active', 'suspended', 'closed'] }) account_status: string;
  @ApiProperty({
    example: 4,
    minimum: 0,
    maximum: 5,
    description: 'Reputation 0.0 to 5.0 (product-decisions §5); a worker with no history has 4.0.',
  })
  reputation: number;
  @ApiProperty({ type: ReputationDetailsView }) reputation_details: ReputationDetailsView;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
}

export class UpdateWorkerProfile {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: 50,
    description: 'null clears the name.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  @Matches(/\S/, { message: 'display_name must not be blank' })
  display_name?: string | null;

  @WorkerSkillList()
  @ValidateIf((o: UpdateWorkerProfile) => o.skills !== undefined)
  skills?: WorkerSkill[];
}
