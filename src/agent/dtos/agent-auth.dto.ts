import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { EmailAddress, SignInPassword } from '../../common/http/validators';
import { AgentIdentity } from './agent-profile.dto';

export class AgentRegisterRequest {
  @EmailAddress('ops@example.com')
  email: string;

  @ApiProperty({ minLength: 6, maxLength: 128, example: 'a long passphrase' })
  @IsString()
  @MinLength(6)
  @MaxLength(128)
  password: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Acme Robotics' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  organization_name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Acme Robotics Ltd.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  company_name?: string | null;
}

export class AgentLoginRequest {
  @EmailAddress('ops@example.com')
  email: string;

  @SignInPassword()
  password: string;
}

/** Returned by register (with the API key and secret, shown once) and login (without them). */
export class AgentAuthResponse extends AgentIdentity {
  @ApiProperty({ description: 'Access JWT (15 minutes).' })
  access_token: string;

  @ApiProperty({ description: 'Refresh JWT (7 days, single use).' })
  refresh_token: string;

  @ApiProperty({ enum: ['bearer'], example: 'bearer' })
  token_type: 'bearer';

  @ApiProperty({ type: 'integer', example: 900 })
  expires_in: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'lw_test_4FhK2…',
    description: 'The full API key: only in the register response, shown once; null on login.',
  })
  api_key: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The API secret (X-API-Secret on /api/v1/payment/*): only in the register response, shown once; null on login.',
  })
  api_secret: string | null;

  @ApiProperty({ example: 'lw_test_4FhK', description: 'The first 12 characters of the API key.' })
  api_key_prefix: string;

  @ApiProperty({ type: 'integer', example: 0, description: 'Available balance in cents.' })
  balance_cents: number;
}
