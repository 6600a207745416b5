import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { TokenPairResponse } from '../../auth/dtos/token-pair.dto';
import { EmailAddress, NotWhen, SignInPassword } from '../../common/http/validators';
import { TotpSetupResponse } from './admin-account.dto';

export class AdminLoginRequest {
  @EmailAddress()
  email: string;

  @SignInPassword()
  password: string;
}

/** The second step of a sign-in: the challenge from the first, and a code or a recovery code (one of the two). */
export class AdminSecondFactorRequest {
  @ApiProperty({ description: 'The `challenge_token` the password step answered (valid 5 minutes).' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  challenge_token: string;

  @ApiPropertyOptional({
    pattern: '^[0-9]{6}$',
    example: '492039',
    description:
      'The current 6-digit code from the authenticator app. Required unless `recovery_code` is sent; after a ' +
      '`totp_enrolment_required` answer it is the first code of the new secret and confirms the enrolment.',
  })
  @ValidateIf((o: AdminSecondFactorRequest) => o.recovery_code == null)
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: 'must be the 6 digits the authenticator app shows' })
  code?: string;

  @ApiPropertyOptional({
    maxLength: 20,
    example: 'k3mq7-xh2pa',
    description:
      'One of the recovery codes, instead of `code` (each works once; case, spaces and dash are ignored).',
  })
  @IsOptional()
  @NotWhen((o: AdminSecondFactorRequest) => o.code != null, { message: 'send either code or recovery_code' })
  @IsString()
  @MaxLength(20)
  recovery_code?: string;
}

/** Signed in: a session of at most 12 hours from now. */
export class AdminSignedInResponse extends TokenPairResponse {
  @ApiProperty({ enum: ['signed_in'] })
  status: 'signed_in';

  @ApiProperty({ format: 'uuid' })
  admin_id: string;

  @ApiProperty({ format: 'email' })
  email: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description:
      'When the session ends whatever the activity (12 hours after sign-in): refreshing does not extend it.',
  })
  session_expires_at: Date;

  @ApiProperty({ description: 'Whether the account signs in with a second factor.' })
  totp_enabled: boolean;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Only in the answer that completes an enrolment: the ten recovery codes, shown this once. Each signs in ' +
      'once in place of a code when the authenticator is lost.',
  })
  recovery_codes?: string[];

  @ApiPropertyOptional({
    type: 'integer',
    description: 'Only after signing in with a recovery code: how many are left.',
  })
  recovery_codes_left?: number;
}

/** The password was right; a second factor is due at POST /v1/admin/login/totp. */
export class AdminSignInChallengeResponse {
  @ApiProperty({
    enum: ['totp_required', 'totp_enrolment_required'],
    description:
      '`totp_required`: send the current code (or a recovery code). `totp_enrolment_required`: the account must ' +
      'use two-factor and has none yet: add `totp_setup` to an authenticator app and send its first code.',
  })
  status: 'totp_required' | 'totp_enrolment_required';

  @ApiProperty({
    description: 'Send it back with the code. It proves the password step only, for 5 minutes.',
  })
  challenge_token: string;

  @ApiProperty({ type: 'integer', example: 300, description: 'Seconds the challenge stays valid.' })
  expires_in: number;

  @ApiPropertyOptional({ type: TotpSetupResponse, description: 'With `totp_enrolment_required` only.' })
  totp_setup?: TotpSetupResponse;
}

export type AdminLoginResponse = AdminSignedInResponse | AdminSignInChallengeResponse;
