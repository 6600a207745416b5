import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { PHONE_PATTERN, type WorkerSkill } from '../worker-skills';
import { WorkerSkillList } from './skill-list';
import { CODE_MESSAGE, PHONE_MESSAGE } from './sms.dto';

export class WorkerRegister {
  @ApiProperty({ example: '13800138000', pattern: PHONE_PATTERN.source })
  @IsString()
  @Matches(PHONE_PATTERN, { message: `phone_number ${PHONE_MESSAGE}` })
  phone_number: string;

  @ApiProperty({ minLength: 8, maxLength: 128, format: 'password' })
  @IsString()
  @Length(8, 128)
  password: string;

  @ApiProperty({ example: '123456', description: 'A code sent with purpose register.' })
  @IsString()
  @Matches(/^\d{6}$/, { message: `sms_code ${CODE_MESSAGE}` })
  sms_code: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 50, example: 'Li Wei' })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  @Matches(/\S/, { message: 'display_name must not be blank' })
  display_name?: string;

  @WorkerSkillList()
  @IsOptional()
  skills?: WorkerSkill[];
}

export class WorkerLogin {
  @ApiProperty({ example: '13800138000', pattern: PHONE_PATTERN.source })
  @IsString()
  @Matches(PHONE_PATTERN, { message: `phone_number ${PHONE_MESSAGE}` })
  phone_number: string;

  @ApiProperty({ format: 'password', maxLength: 128 })
  @IsString()
  @Length(1, 128)
  password: string;
}

export class WorkerRefreshRequest {
  @ApiProperty({ description: 'The refresh token of the current pair; it can be used once.' })
  @IsString()
  @Length(1, 4096)
  refresh_token: string;
}

/** Token pair (product-decisions §6) plus the worker's id; answered by register, login and refresh. */
export class WorkerTokenResponse {
  @ApiProperty({ format: 'uuid' }) worker_id: string;
  @ApiProperty({ description: 'JWT, audience legwork:worker, valid expires_in seconds.' })
  access_token: string;
  @ApiProperty({ description: 'JWT valid 7 days; single use: refresh returns a new pair.' })
  refresh_token: string;
  @ApiProperty({ example: 'bearer' }) token_type: 'bearer';
  @ApiProperty({ example: 900 }) expires_in: number;
}
