import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  ValidateIf,
} from 'class-validator';
import { PERMISSIONS, type Permission } from '../../common/actor';
import { Trim } from '../../common/http/transforms';

export class ApiKeyResponse {
  @ApiProperty({ format: 'uuid', description: 'Stays the same across rotations.' })
  id: string;

  @ApiProperty({ example: 'lw_test_4FhK', description: 'Only the prefix is ever shown after creation.' })
  prefix: string;

  @ApiProperty({ example: 'Primary API Key' })
  name: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the current key value was issued.' })
  created_at: Date;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_used_at: Date | null;

  @ApiProperty({ type: 'integer', example: 100, description: "The agent's per-minute rate limit (by tier)." })
  rate_limit_per_minute: number;

  @ApiProperty()
  is_active: boolean;

  @ApiProperty({
    type: 'integer',
    example: 0,
    description: 'Requests made with the current key value; written in batches.',
  })
  usage_count: number;

  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  permissions: Permission[];
}

export class CreateApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ example: 'lw_test_4FhK2…', description: 'The full API key, shown once.' })
  api_key: string;

  @ApiProperty({ example: 'lws_…', description: 'The API secret, shown once.' })
  api_secret: string;
}

export class CreateApiKeyRequest {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: 100,
    default: 'Primary API Key',
    description: 'null or omitted: the default name.',
  })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 100)
  name?: string | null;

  @ApiPropertyOptional({
    enum: PERMISSIONS,
    isArray: true,
    nullable: true,
    description: 'Permissions of the new key; all of them when null or omitted.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsIn(PERMISSIONS, { each: true })
  permissions?: Permission[] | null;
}

/** Only the fields sent change; null in a field leaves it out (product-decisions §16), so it changes nothing. */
export class UpdateApiKeyRequest {
  @ApiPropertyOptional({
    description: 'false disables the key (401 invalid_api_key), true enables it again.',
  })
  @ValidateIf((o: UpdateApiKeyRequest) => o.is_active !== undefined)
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @ValidateIf((o: UpdateApiKeyRequest) => o.name !== undefined)
  @Trim()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ enum: PERMISSIONS, isArray: true })
  @ValidateIf((o: UpdateApiKeyRequest) => o.permissions !== undefined)
  @IsArray()
  @ArrayMaxSize(20)
  @IsIn(PERMISSIONS, { each: true })
  permissions?: Permission[];
}
