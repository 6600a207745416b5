import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PERMISSIONS, type Permission } from '../../common/actor';
import { Trim } from '../../common/http/transforms';

/** The largest cap or ceiling accepted: ten million RMB, far above any real limit, well inside a safe integer. */
export const SPEND_CAP_MAX_CENTS = 1_000_000_000;

const PERIODS = ['daily', 'monthly'] as const;

/** `{daily_cents?, monthly_cents?}`: sent whole, it replaces the caps (a period left out has no cap). */
export class SpendCapsRequest {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: SPEND_CAP_MAX_CENTS,
    description: 'Most the key may spend per China-time day, in cents.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(SPEND_CAP_MAX_CENTS)
  daily_cents?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: SPEND_CAP_MAX_CENTS,
    description: 'Most the key may spend per China-time calendar month, in cents.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(SPEND_CAP_MAX_CENTS)
  monthly_cents?: number;
}

export class SpendCapsView {
  @ApiProperty({ type: 'integer', nullable: true, description: 'null: no daily cap.' })
  daily_cents: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null: no monthly cap.' })
  monthly_cents: number | null;
}

/** One capped period now: the same figures a 402 spend_cap_exceeded carries. */
export class SpendPeriodView {
  @ApiProperty({ enum: PERIODS })
  period: 'daily' | 'monthly';

  @ApiProperty({ type: 'integer' })
  cap_cents: number;

  @ApiProperty({
    type: 'integer',
    description: 'Totals of the tasks created with the key in the period, less refunds later made on them.',
  })
  counted_cents: number;

  @ApiProperty({ type: 'integer' })
  remaining_cents: number;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the period ends (China time).' })
  resets_at: string;
}

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

  @ApiProperty({ type: SpendCapsView, description: 'Kept across rotations.' })
  spend_caps: SpendCapsView;

  @ApiProperty({
    type: 'integer',
    description:
      'The most one task approved by the person over the cap may cost, in cents; 0: no task may pass the cap.',
  })
  approval_ceiling_cents: number;

  @ApiProperty({ type: SpendPeriodView, isArray: true, description: 'Each capped period, counted now.' })
  spend: SpendPeriodView[];
}

export class CreateApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ example: 'lw_test_4FhK2…', description: 'The full API key, shown once.' })
  api_key: string;

  @ApiProperty({ example: 'lws_…', description: 'The API secret, shown once.' })
  api_secret: string;
}

/**
 * The spending limits a key is created or updated with (product-decisions §21), the same on both requests: each
 * field left out keeps what the key has.
 */
export class ApiKeySpendLimits {
  @ApiPropertyOptional({
    type: SpendCapsRequest,
    description: 'Replaces the spend caps when sent ({} removes them); left out, they stay as they are.',
  })
  @ValidateIf((o: { spend_caps?: unknown }) => o.spend_caps !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => SpendCapsRequest)
  spend_caps?: SpendCapsRequest;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: SPEND_CAP_MAX_CENTS,
    description:
      'The most one task approved over the cap may cost, in cents (0: none may); left out, unchanged.',
  })
  @ValidateIf((o: { approval_ceiling_cents?: unknown }) => o.approval_ceiling_cents !== undefined)
  @IsInt()
  @Min(0)
  @Max(SPEND_CAP_MAX_CENTS)
  approval_ceiling_cents?: number;
}

export class CreateApiKeyRequest extends ApiKeySpendLimits {
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
export class UpdateApiKeyRequest extends ApiKeySpendLimits {
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
