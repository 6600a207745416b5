import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Permission } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { numericColumns, sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { OAuthGrantResponse } from '../dtos/consent.dto';
import type { OAuthGrantRow } from '../oauth.rows';

/** The grants an agent's people approved: listed in the console and revocable there. */
@Injectable()
export class OAuthGrants {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async list(agentId: string): Promise<OAuthGrantResponse[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.ds,
      `SELECT * FROM oauth_grants WHERE agent_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id LIMIT 200`,
      [agentId],
    );
    return rows.map((r) => view(numericColumns<OAuthGrantRow>(r, ['ceiling_cents'])));
  }

  /**
   * Revokes the grant and every refresh token under it in one transaction; its access tokens and the internal agent
   * tokens /mcp minted from them are refused from this commit on (GrantTokens reads the grant on every use).
   */
  async revoke(agentId: string, grantId: string): Promise<void> {
    await inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const done = await sqlRows(
        em,
        `UPDATE oauth_grants SET revoked_at = $3 WHERE id = $1 AND agent_id = $2 AND revoked_at IS NULL RETURNING id`,
        [grantId, agentId, now],
      );
      if (done.length === 0)
        throw new ApiError('oauth_grant_not_found', 'No such OAuth grant, or it was already revoked.');
      await sqlExec(
        em,
        `UPDATE oauth_refresh_tokens SET revoked_at = $2 WHERE grant_id = $1 AND revoked_at IS NULL`,
        [grantId, now],
      );
    });
  }
}

function view(g: OAuthGrantRow): OAuthGrantResponse {
  return {
    id: g.id,
    client_id: g.client_id,
    client_name: g.client_name,
    client_host: g.client_host,
    permissions: g.permissions as Permission[],
    spend_caps: g.spend_caps,
    ceiling_cents: g.ceiling_cents,
    created_at: g.created_at,
    last_used_at: g.last_used_at,
  };
}
