import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** The token pair every login and refresh returns (agents, workers, operators): access 15 minutes, refresh 7 days. */
export class TokenPairResponse {
  @ApiProperty({ description: 'Access JWT; send as `Authorization: Bearer <token>`.' })
  access_token: string;

  @ApiProperty({ description: 'Refresh JWT; single use, exchanged at the refresh endpoint for a new pair.' })
  refresh_token: string;

  @ApiProperty({ enum: ['bearer'], example: 'bearer' })
  token_type: 'bearer';

  @ApiProperty({ type: 'integer', description: 'Lifetime of the access token in seconds.', example: 900 })
  expires_in: number;
}

export class RefreshTokenRequest {
  @ApiProperty({
    description: 'The refresh token of the latest pair. Reusing an older one ends the session.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  refresh_token: string;
}
