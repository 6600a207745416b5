import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import type { AgentActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { Balances } from '../../escrow/services/balances';
import { SpendCapsLedger, spenderOf } from '../../escrow/services/spend-caps';
import type { AgentRow, ApiKeyRow } from '../agent.repository';
import type { AgentProfileResponse } from '../dtos/agent-profile.dto';

type ProfileRow = Pick<
  AgentRow,
  | 'id'
  | 'email'
  | 'organization_name'
  | 'company_name'
  | 'tier'
  | 'rate_limit_per_minute'
  | 'rate_limit_per_day'
  | 'max_concurrent_tasks'
  | 'account_status'
  | 'created_at'
  | 'last_used_at'
> & { prefix: ApiKeyRow['prefix'] | null };

@Injectable()
export class AgentProfileService {
  constructor(
    private readonly ds: DataSource,
    private readonly balances: Balances,
    private readonly spendCaps: SpendCapsLedger,
    private readonly clock: Clock,
  ) {}

  async profile(actor: AgentActor): Promise<AgentProfileResponse> {
    const agentId = actor.id;
    const rows = await sqlRows<ProfileRow>(
      this.ds,
      `SELECT a.id, a.email, a.organization_name, a.company_name, a.tier, a.rate_limit_per_minute,
              a.rate_limit_per_day, a.max_concurrent_tasks, a.account_status, a.created_at, a.last_used_at, k.prefix
         FROM agents a LEFT JOIN api_keys k ON k.agent_id = a.id
        WHERE a.id = $1`,
      [agentId],
    );
    const a = rows[0];
    if (!a) throw new ApiError('not_found', 'Agent not found.');
    const funds = await this.balances.agentFunds(a.id);
    const balanceCents = funds.availableCents;
    const spending = await this.spending(actor);
    return {
      agent_id: a.id,
      email: a.email,
      organization_name: a.organization_name,
      company_name: a.company_name,
      balance_cents: balanceCents,
      balance_rmb: balanceCents / 100,
      owed_cents: funds.owedCents,
      api_key_prefix: a.prefix ?? '',
      tier: a.tier,
      rate_limit_per_minute: a.rate_limit_per_minute,
      rate_limit_per_day: a.rate_limit_per_day,
      max_concurrent_tasks: a.max_concurrent_tasks,
      account_status: a.account_status,
      created_at: a.created_at,
      last_used_at: a.last_used_at,
      ...spending,
    };
  }

  /** The caps of the credential in use (none for the console's own session), counted now. */
  private async spending(actor: AgentActor): Promise<Pick<AgentProfileResponse, 'spend_caps' | 'spend'>> {
    const spender = spenderOf(actor);
    const limits = spender ? await this.spendCaps.limits(this.ds, spender) : null;
    if (!spender || !limits) return { spend_caps: null, spend: [] };
    return {
      spend_caps: {
        daily_cents: limits.caps?.daily_cents ?? null,
        monthly_cents: limits.caps?.monthly_cents ?? null,
        approval_ceiling_cents: limits.ceilingCents ?? 0,
      },
      spend: await this.spendCaps.status(this.ds, spender, limits.caps, this.clock.now()),
    };
  }
}
