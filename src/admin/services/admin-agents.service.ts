import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TIER_RATE_LIMITS } from '../../agent/agent-tiers';
import { AgentRepository } from '../../agent/agent.repository';
import { AuthCache } from '../../auth/auth-cache';
import { Tokens } from '../../auth/tokens';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type {
  AdminAgentListResponse,
  AdminAgentResponse,
  ListAgentsQuery,
  UpdateAgentRequest,
} from '../dtos/admin-agents.dto';

/** Operator view and control of agent accounts: tier (and with it the rate limits), fee override, status. */
@Injectable()
export class AdminAgentsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tokens: Tokens,
    private readonly clock: Clock,
    private readonly authCache: AuthCache,
  ) {}

  async list(query: ListAgentsQuery): Promise<AdminAgentListResponse> {
    const skip = query.skip ?? 0;
    const limit = query.limit ?? 20;
    const { items, total } = await AgentRepository.accounts(this.ds, skip, limit);
    return { items, total, skip, limit, has_more: skip + items.length < total };
  }

  /**
   * Applies the change in one statement. A tier change sets both rate limits from TIER_RATE_LIMITS (they apply
   * from the agent's next request); suspending or closing also revokes the agent's refresh tokens.
   */
  async update(agentId: string, dto: UpdateAgentRequest): Promise<AdminAgentResponse> {
    const limits = dto.tier ? TIER_RATE_LIMITS[dto.tier] : undefined;
    const found = await AgentRepository.control(
      this.ds,
      agentId,
      {
        tier: dto.tier,
        rate_limit_per_minute: limits?.perMinute,
        rate_limit_per_day: limits?.perDay,
        fee_bps: dto.fee_bps,
        account_status: dto.account_status,
      },
      this.clock.now(),
    );
    // Status and rate limits are part of what a cached credential answers (AuthCache).
    this.authCache.invalidate();
    if (!found) throw new ApiError('not_found', 'Agent not found.');
    if (dto.account_status && dto.account_status !== 'active') {
      await this.tokens.revokeAllFor('agent', agentId);
    }
    const view = await AgentRepository.account(this.ds, agentId);
    if (!view) throw new ApiError('not_found', 'Agent not found.');
    return view;
  }
}
