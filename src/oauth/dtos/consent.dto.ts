import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { PERMISSIONS, type Permission } from '../../common/actor';

/** At most 10 million RMB a period, in cents: far above any agent's spend, well inside a bigint. */
const MAX_CAP_CENTS = 1_000_000_000;

export class SpendCapsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Cap per China calendar day, in cents.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CAP_CENTS)
  daily_cents?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Cap per China calendar month, in cents.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CAP_CENTS)
  monthly_cents?: number;
}

export class ConsentRequestQuery {
  @ApiProperty({ description: 'The `request` parameter of /console/oauth/consent.' })
  @IsString()
  @Length(1, 200)
  request: string;
}

export class ConsentRequestView {
  @ApiProperty({
    description: 'The client id: an id this service registered, or the https URL of its metadata document.',
  })
  client_id: string;

  @ApiProperty({ type: String, nullable: true, description: 'The name the client gave itself (unverified).' })
  client_name: string | null;

  @ApiProperty({
    description:
      "The host to recognise: the metadata document's for a client known by one, else the redirect URI's.",
  })
  client_host: string;

  @ApiProperty({ description: 'Where the browser goes back to after the answer.' })
  redirect_uri: string;

  @ApiProperty({ enum: ['metadata_document', 'registration'] })
  verified_by: 'metadata_document' | 'registration';

  @ApiProperty({ enum: PERMISSIONS, isArray: true, description: 'The permissions the client asks for.' })
  permissions: Permission[];

  @ApiProperty({ type: String, format: 'date-time' })
  expires_at: string;
}

export class ConsentDecisionRequest {
  @ApiProperty({ description: 'The `request` parameter of /console/oauth/consent.' })
  @IsString()
  @Length(1, 200)
  request: string;

  @ApiProperty({ description: 'true approves (a grant is made), false declines.' })
  @IsBoolean()
  approve: boolean;

  @ApiPropertyOptional({
    enum: PERMISSIONS,
    isArray: true,
    description: "The permissions to grant (the API keys' names); the ones asked for when omitted.",
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsIn(PERMISSIONS, { each: true })
  permissions?: Permission[];

  @ApiPropertyOptional({
    type: SpendCapsDto,
    nullable: true,
    description:
      'Spend caps on tasks created through this grant (product-decisions §21); none when null or omitted.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => SpendCapsDto)
  spend_caps?: SpendCapsDto | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    nullable: true,
    description:
      'The most an over-cap task approved by URL may cost, in cents (over it, no approval is offered); none when null.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CAP_CENTS)
  ceiling_cents?: number | null;
}

export class ConsentDecisionResponse {
  @ApiProperty({
    description: "Where the console sends the browser: the client's redirect URI with the code or the error.",
  })
  redirect_to: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The grant made (approvals only).' })
  grant_id?: string;
}

export class OAuthGrantResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  client_id: string;

  @ApiProperty({ type: String, nullable: true })
  client_name: string | null;

  @ApiProperty()
  client_host: string;

  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  permissions: Permission[];

  @ApiProperty({ type: SpendCapsDto, nullable: true })
  spend_caps: SpendCapsDto | null;

  @ApiProperty({ type: 'integer', nullable: true })
  ceiling_cents: number | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last token issue (code or refresh).',
  })
  last_used_at: Date | null;
}
