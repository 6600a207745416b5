import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

/** A secret to add to an authenticator app: scanned as a QR code of `otpauth_uri`, or typed in as `secret`. */
export class TotpSetupResponse {
  @ApiProperty({
    example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    description: 'Base32, for typing into the app.',
  })
  secret: string;

  @ApiProperty({
    example: 'otpauth://totp/Legwork%20(ops.example.com):ops%40example.com?issuer=...&secret=...',
    description: 'Key URI (SHA-1, 6 digits, 30 s) to show as a QR code.',
  })
  otpauth_uri: string;
}

export class TotpCodeRequest {
  @ApiProperty({ pattern: '^[0-9]{6}$', example: '492039', description: 'The current code from the app.' })
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: 'must be the 6 digits the authenticator app shows' })
  code: string;
}

export class RecoveryCodesResponse {
  @ApiProperty({
    type: [String],
    example: ['k3mq7-xh2pa'],
    description: 'Ten single-use codes, shown this once; any earlier ones stop working.',
  })
  recovery_codes: string[];
}

/** The signed-in operator: account, two-factor state and this session's end. */
export class AdminMeResponse {
  @ApiProperty({ format: 'uuid' }) admin_id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty() totp_enabled: boolean;
  @ApiProperty({ description: 'The account must use two-factor (`admin:create --require-totp`).' })
  totp_required: boolean;
  @ApiProperty({ type: 'integer', description: 'Recovery codes not used yet (0 without two-factor).' })
  recovery_codes_left: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'When this session ends (12 hours after sign-in).',
  })
  session_expires_at: Date;
}

export class OperatorResponse {
  @ApiProperty({ format: 'uuid' }) admin_id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty() totp_enabled: boolean;
  @ApiProperty() totp_required: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
}

export class OperatorListResponse {
  @ApiProperty({ type: OperatorResponse, isArray: true, description: 'Every operator account, by email.' })
  items: OperatorResponse[];
}
