import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { AGENT_TIERS, type AgentTier } from '../../agent/agent-tiers';
import type { AccountStatus } from '../../common/actor';
import { OptionalInt } from '../../common/http/validators';

export const ACCOUNT_STATUSES: AccountStatus[] = ['active', 'suspended', 'closed'];

export class ListAgentsQuery {
  @OptionalInt({ min: 0, default: 0 })
  skip?: number;

  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit?: number;
}

/** Only the fields sent change. fee_bps: null returns the agent to the platform fee (PLATFORM_FEE_BPS). */
export class UpdateAgentRequest {
  @ApiPropertyOptional({
    enum: AGENT_TIERS,
    description: 'standard: 100/min and 10,000/day; verified and enterprise: 1,000/min and 100,000/day.',
  })
  @ValidateIf((o: UpdateAgentRequest) => o.tier !== undefined)
  @IsIn(AGENT_TIERS)
  tier?: AgentTier;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: 5000,
    description: "The agent's platform fee in basis points; null uses the platform default.",
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  fee_bps?: number | null;

  @ApiPropertyOptional({
    enum: ACCOUNT_STATUSES,
    description: 'suspended or closed: API key and tokens get 403 account_disabled and sessions end.',
  })
  @ValidateIf((o: UpdateAgentRequest) => o.account_status !== undefined)
  @IsIn(ACCOUNT_STATUSES)
  account_status?: AccountStatus;
}

export class AdminAgentResponse {
  @ApiProperty({ format: 'uuid' }) agent_id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ type: String, nullable: true }) organization_name: string | null;
  @ApiProperty({ type: String, nullable: true }) company_name: string | null;
  @ApiProperty({ enum: AGENT_TIERS }) tier: AgentTier;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null: the platform default applies.' })
  fee_bps: number | null;
  @ApiProperty({ enum: ACCOUNT_STATUSES }) account_status: AccountStatus;
  @ApiProperty({ type: 'integer' }) rate_limit_per_minute: number;
  @ApiProperty({ type: 'integer' }) rate_limit_per_day: number;
  @ApiProperty({ type: 'integer' }) max_concurrent_tasks: number;
  @ApiProperty({ type: String, nullable: true }) api_key_prefix: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at: Date | null;
}

export class AdminAgentListResponse {
  @ApiProperty({ type: AdminAgentResponse, isArray: true, description: 'Newest first.' })
  items: AdminAgentResponse[];
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({ type: 'integer' }) skip: number;
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty() has_more: boolean;
}
