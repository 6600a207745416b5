import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TIER_RATE_LIMITS } from '../../agent/agent-tiers';
import { Tokens } from '../../auth/tokens';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type {
  AdminAgentListResponse,
  AdminAgentResponse,
  ListAgentsQuery,
  UpdateAgentRequest,
} from '../dtos/admin-agents.dto';
import { sqlRows } from '../../database/sql';

const AGENT_VIEW = `SELECT a.id AS agent_id, a.email, a.organization_name, a.company_name, a.tier, a.fee_bps,
                           a.account_status, a.rate_limit_per_minute, a.rate_limit_per_day, a.max_concurrent_tasks,
                           k.prefix AS api_key_prefix, a.created_at, a.last_used_at
                      FROM agents a LEFT JOIN api_keys k ON k.agent_id = a.id`;

/** Operator view and control of agent accounts: tier (and with it the rate limits), fee override, status. */
@Injectable()
export class AdminAgentsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tokens: Tokens,
    private readonly clock: Clock,
  ) {}

  async list(query: ListAgentsQuery): Promise<AdminAgentListResponse> {
    const skip = query.skip ?? 0;
    const limit = query.limit ?? 20;
    const [items, count]: [AdminAgentResponse[], { total: string }[]] = await Promise.all([
      this.ds.query(`${AGENT_VIEW} ORDER BY a.created_at DESC, a.id DESC OFFSET $1 LIMIT $2`, [skip, limit]),
      this.ds.query(`SELECT count(*) AS total FROM agents`),
    ]);
    const total = Number(count[0].total);
    return { items, total, skip, limit, has_more: skip + items.length < total };
  }

  /**
   * Applies the change in one statement. A tier change sets both rate limits from TIER_RATE_LIMITS (they apply
   * from the agent's next request); suspending or closing also revokes the agent's refresh tokens.
   */
  async update(agentId: string, dto: UpdateAgentRequest): Promise<AdminAgentResponse> {
    const limits = dto.tier ? TIER_RATE_LIMITS[dto.tier] : null;
    const rows = await sqlRows<{ id: string }>(
      this.ds,
      `UPDATE agents SET
         tier = COALESCE($2, tier),
         rate_limit_per_minute = COALESCE($3, rate_limit_per_minute),
         rate_limit_per_day = COALESCE($4, rate_limit_per_day),
         fee_bps = CASE WHEN $5 THEN $6::integer ELSE fee_bps END,
         account_status = COALESCE($7, account_status),
         updated_at = $8
       WHERE id = $1 RETURNING id`,
      [
        agentId,
        dto.tier ?? null,
        limits?.perMinute ?? null,
        limits?.perDay ?? null,
        dto.fee_bps !== undefined,
        dto.fee_bps ?? null,
        dto.account_status ?? null,
        this.clock.now(),
      ],
    );
    if (rows.length === 0) throw new ApiError('not_found', 'Agent not found.');
    if (dto.account_status && dto.account_status !== 'active') {
      await this.tokens.revokeAllFor('agent', agentId);
    }
    const view: AdminAgentResponse[] = await this.ds.query(`${AGENT_VIEW} WHERE a.id = $1`, [agentId]);
    return view[0];
  }
}
