import { ApiProperty } from '@nestjs/swagger';
import { SpendCapsView, SpendPeriodView } from './api-key.dto';

/** Who an agent is: the first fields of its profile and of every sign-in answer. */
export class AgentIdentity {
  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({ format: 'email' })
  email: string;

  @ApiProperty({ type: String, nullable: true })
  organization_name: string | null;
}

export class ProfileSpendCaps extends SpendCapsView {
  @ApiProperty({
    type: 'integer',
    description: 'The most one task approved over the cap may cost, in cents (0: none may).',
  })
  approval_ceiling_cents: number;
}

export class AgentProfileResponse extends AgentIdentity {
  @ApiProperty({ type: String, nullable: true })
  company_name: string | null;

  @ApiProperty({ type: 'integer', example: 0, description: 'Available balance in cents.' })
  balance_cents: number;

  @ApiProperty({ example: 0, description: 'balance_cents / 100.' })
  balance_rmb: number;

  @ApiProperty({
    type: 'integer',
    example: 0,
    description: 'What you owe from dispute decisions your balance could not cover; top-ups repay it first.',
  })
  owed_cents: number;

  @ApiProperty({ example: 'lw_test_4FhK' })
  api_key_prefix: string;

  @ApiProperty({ enum: ['standard', 'verified', 'enterprise'] })
  tier: string;

  @ApiProperty({ type: 'integer', example: 100 })
  rate_limit_per_minute: number;

  @ApiProperty({ type: 'integer', example: 10000 })
  rate_limit_per_day: number;

  @ApiProperty({ type: 'integer', example: 100 })
  max_concurrent_tasks: number;

  @ApiProperty({ enum: ['active', 'suspended', 'closed'] })
  account_status: string;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'Last authenticated request (API key or JWT); written in batches, so it may lag a few seconds.',
  })
  last_used_at: Date | null;

  @ApiProperty({
    type: ProfileSpendCaps,
    nullable: true,
    description:
      'The spend caps of the API key (or OAuth grant) making this call; null for the console session, which has none.',
  })
  spend_caps: ProfileSpendCaps | null;

  @ApiProperty({ type: SpendPeriodView, isArray: true, description: 'Each capped period, counted now.' })
  spend: SpendPeriodView[];
}
