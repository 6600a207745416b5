import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TIER_RATE_LIMITS } from '../../agent/agent-tiers';
import { AgentRepository, type AgentAccountRow, type AgentControls } from '../../agent/agent.repository';
import { recordOperatorAction, type AuditActor } from '../../audit/operator-audit';
import { AuthCache } from '../../auth/auth-cache';
import { revokeSessions } from '../../auth/tokens';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { inTransaction } from '../../database/transaction';
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
    private readonly ds: DataSource,
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
   * Applies the change, with its audit record, in one transaction. A tier change sets both rate limits from
   * TIER_RATE_LIMITS (they apply from the agent's next request); suspending or closing also revokes the agent's
   * refresh tokens.
   */
  async update(who: AuditActor, agentId: string, dto: UpdateAgentRequest): Promise<AdminAgentResponse> {
    const limits = dto.tier ? TIER_RATE_LIMITS[dto.tier] : undefined;
    try {
      return await inTransaction(this.ds, async (em) => {
        const now = this.clock.now();
        const before = await AgentRepository.lockControls(em, agentId);
        if (!before) throw new ApiError('not_found', 'Agent not found.');
        await AgentRepository.control(
          em,
          agentId,
          {
            tier: dto.tier,
            rate_limit_per_minute: limits?.perMinute,
            rate_limit_per_day: limits?.perDay,
            fee_bps: dto.fee_bps,
            account_status: dto.account_status,
          },
          now,
        );
        if (dto.account_status && dto.account_status !== 'active') {
          await revokeSessions(em, 'agent', agentId, now);
        }
        const view = (await AgentRepository.account(em, agentId))!;
        await recordOperatorAction(
          em,
          who,
          { action: 'agent.updated', target: { type: 'agent', id: agentId }, before, after: controls(view) },
          now,
        );
        return view;
      });
    } finally {
      // Status and rate limits are part of what a cached credential answers (AuthCache).
      this.authCache.invalidate();
    }
  }
}

function controls(view: AgentAccountRow): Required<AgentControls> {
  const { tier, rate_limit_per_minute, rate_limit_per_day, fee_bps, account_status } = view;
  return { tier, rate_limit_per_minute, rate_limit_per_day, fee_bps, account_status };
}
