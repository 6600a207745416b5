import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateIf,
} from 'class-validator';
import { MAX_WORKER_SKILLS, WORKER_SKILLS, type WorkerSkill } from '../worker-skills';

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
    description: 'Reputation 0.0 to 5.0 (decisions §5); a worker with no history has 4.0.',
  })
  reputation: number;
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

  @ApiPropertyOptional({ enum: WORKER_SKILLS, isArray: true, maxItems: MAX_WORKER_SKILLS })
  @ValidateIf((o: UpdateWorkerProfile) => o.skills !== undefined)
  @IsArray()
  @ArrayMaxSize(MAX_WORKER_SKILLS)
  @ArrayUnique()
  @IsIn(WORKER_SKILLS, {
    each: true,
    message: `each value in skills must be one of ${WORKER_SKILLS.join(', ')}`,
  })
  skills?: WorkerSkill[];
}
