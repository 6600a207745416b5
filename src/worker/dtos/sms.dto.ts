import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { SMS_PURPOSES, type SmsPurpose } from '../sms/sms-codes';
import { PHONE_PATTERN } from '../worker-skills';

export const PHONE_MESSAGE = 'must be an 11-digit mainland China mobile number (1[3-9] followed by 9 digits)';
export const CODE_MESSAGE = 'must be the 6-digit code from the SMS';

export class SendSmsQuery {
  @ApiProperty({ example: '13800138000', pattern: PHONE_PATTERN.source })
  @IsString()
  @Matches(PHONE_PATTERN, { message: `phone_number ${PHONE_MESSAGE}` })
  phone_number: string;

  @ApiPropertyOptional({ enum: SMS_PURPOSES, default: 'register' })
  @IsOptional()
  @IsIn(SMS_PURPOSES, { message: `purpose must be one of ${SMS_PURPOSES.join(', ')}` })
  purpose: SmsPurpose = 'register';
}

export class VerifySmsQuery extends SendSmsQuery {
  @ApiProperty({ example: '123456', pattern: '^\\d{6}$' })
  @IsString()
  @Matches(/^\d{6}$/, { message: `code ${CODE_MESSAGE}` })
  code: string;
}

export class ResetPasswordQuery {
  @ApiProperty({ example: '13800138000', pattern: PHONE_PATTERN.source })
  @IsString()
  @Matches(PHONE_PATTERN, { message: `phone_number ${PHONE_MESSAGE}` })
  phone_number: string;

  @ApiProperty({
    example: '123456',
    pattern: '^\\d{6}$',
    description: 'A code sent with purpose reset_password.',
  })
  @IsString()
  @Matches(/^\d{6}$/, { message: `code ${CODE_MESSAGE}` })
  code: string;

  @ApiProperty({ minLength: 8, maxLength: 128, format: 'password' })
  @IsString()
  @Length(8, 128)
  new_password: string;
}

export class SendSmsResponse {
  @ApiProperty({ example: true }) sent: true;
  @ApiProperty({ example: 300, description: 'The code is valid this long.' }) expires_in_seconds: number;
  @ApiProperty({
    example: 60,
    description: 'Another code for this number and purpose can be sent after this.',
  })
  resend_after_seconds: number;
  @ApiPropertyOptional({
    example: '123456',
    description:
      'Sandbox mode only: the code itself, so tests need no phone. Absent in live mode, and absent when nothing was sent (login or reset_password for an unknown number).',
  })
  sandbox_code?: string;
}

export class VerifySmsResponse {
  @ApiProperty({ example: true }) valid: true;
}

export class ResetPasswordResponse {
  @ApiProperty({ example: true }) reset: true;
}
