import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PERMISSIONS, type Permission } from '../../common/actor';
import { generateApiKey } from '../../auth/api-keys';
import { AuthCache } from '../../auth/auth-cache';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import type {
  ApiKeyResponse,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  SpendCapsRequest,
  UpdateApiKeyRequest,
} from '../dtos/api-key.dto';
import { type SpendCaps, SpendCapsLedger } from '../../escrow/services/spend-caps';
import { sqlRows } from '../../database/sql';
import { toApiKey, type AgentRow, type ApiKeyRow } from '../agent.repository';

export const DEFAULT_KEY_NAME = 'Primary API Key';

type KeyRow = Pick<
  ApiKeyRow,
  | 'id'
  | 'prefix'
  | 'name'
  | 'created_at'
  | 'last_used_at'
  | 'is_active'
  | 'usage_count'
  | 'permissions'
  | 'spend_caps'
  | 'approval_ceiling_cents'
> &
  Pick<AgentRow, 'rate_limit_per_minute'>;

/** Selects a key row with the agent's rate limit; `k` is the api_keys row, joined to its agent. */
const KEY_VIEW = `SELECT k.id, k.prefix, k.name, k.created_at, k.last_used_at, k.is_active, k.usage_count,
                         k.permissions, k.spend_caps, k.approval_ceiling_cents, a.rate_limit_per_minute
                    FROM api_keys k JOIN agents a ON a.id = k.agent_id`;

/**
 * The agent's API key. Each agent has exactly one (api_keys.agent_id is unique): "creating" a key rotates it in
 * place, keeping its id, so the old value stops working the moment the new one is returned.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly authCache: AuthCache,
    private readonly spendCaps: SpendCapsLedger,
  ) {}

  async list(agentId: string): Promise<ApiKeyResponse[]> {
    const rows = await sqlRows(this.ds, `${KEY_VIEW} WHERE k.agent_id = $1`, [agentId]);
    return Promise.all(rows.map((r) => this.toResponse(toApiKey<KeyRow>(r))));
  }

  /**
   * Issues a new key value and secret; usage restarts from zero and the key is enabled. The spend caps and the
   * approval ceiling stay unless sent: they belong to the key's id, which rotation keeps, as do the tasks it
   * created, so the period's count carries on across a rotation.
   */
  async rotate(agentId: string, dto: CreateApiKeyRequest): Promise<CreateApiKeyResponse> {
    const key = generateApiKey(this.config.apiKeyPrefix);
    const rows = await sqlRows<Pick<ApiKeyRow, 'id'>>(
      this.ds,
      `INSERT INTO api_keys AS k (agent_id, key_hash, secret_hash, prefix, name, permissions, is_active,
                                  usage_count, last_used_at, created_at, updated_at, spend_caps,
                                  approval_ceiling_cents)
       VALUES ($1, $2, $3, $4, $5, $6, true, 0, NULL, $7, $7, $8, $9)
       ON CONFLICT (agent_id) DO UPDATE SET
         key_hash = EXCLUDED.key_hash, secret_hash = EXCLUDED.secret_hash, prefix = EXCLUDED.prefix,
         name = EXCLUDED.name, permissions = EXCLUDED.permissions, is_active = true, usage_count = 0,
         last_used_at = NULL, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
         spend_caps = CASE WHEN $10 THEN EXCLUDED.spend_caps ELSE k.spend_caps END,
         approval_ceiling_cents = COALESCE(EXCLUDED.approval_ceiling_cents, k.approval_ceiling_cents)
       RETURNING k.id`,
      [
        agentId,
        key.keyHash,
        key.secretHash,
        key.prefix,
        dto.name ?? DEFAULT_KEY_NAME,
        canonical(dto.permissions ?? PERMISSIONS),
        this.clock.now(),
        capsJson(dto.spend_caps),
        dto.approval_ceiling_cents ?? null,
        dto.spend_caps !== undefined,
      ],
    );
    // The old value must stop working here at once (other instances drop it on the trigger's notification).
    this.authCache.invalidate();
    return { ...(await this.get(agentId, rows[0].id)), api_key: key.apiKey, api_secret: key.apiSecret };
  }

  async update(agentId: string, keyId: string, dto: UpdateApiKeyRequest): Promise<ApiKeyResponse> {
    const rows = await sqlRows<{ id: string }>(
      this.ds,
      `UPDATE api_keys SET is_active = COALESCE($3, is_active), name = COALESCE($4, name),
              permissions = COALESCE($5, permissions), updated_at = $6,
              spend_caps = CASE WHEN $7 THEN $8::jsonb ELSE spend_caps END,
              approval_ceiling_cents = COALESCE($9, approval_ceiling_cents)
        WHERE id = $1 AND agent_id = $2 RETURNING id`,
      [
        keyId,
        agentId,
        dto.is_active ?? null,
        dto.name ?? null,
        dto.permissions ? canonical(dto.permissions) : null,
        this.clock.now(),
        dto.spend_caps !== undefined,
        capsJson(dto.spend_caps),
        dto.approval_ceiling_cents ?? null,
      ],
    );
    this.authCache.invalidate();
    if (rows.length === 0) throw keyNotFound();
    return this.get(agentId, keyId);
  }

  /** DELETE disables the key (401 invalid_api_key from then on); it can be enabled again or rotated. */
  async disable(agentId: string, keyId: string): Promise<void> {
    const rows = await sqlRows<{ id: string }>(
      this.ds,
      `UPDATE api_keys SET is_active = false, updated_at = $3 WHERE id = $1 AND agent_id = $2 RETURNING id`,
      [keyId, agentId, this.clock.now()],
    );
    this.authCache.invalidate();
    if (rows.length === 0) throw keyNotFound();
  }

  private async get(agentId: string, keyId: string): Promise<ApiKeyResponse> {
    const rows = await sqlRows(this.ds, `${KEY_VIEW} WHERE k.id = $1 AND k.agent_id = $2`, [keyId, agentId]);
    if (!rows[0]) throw keyNotFound();
    return this.toResponse(toApiKey<KeyRow>(rows[0]));
  }

  private async toResponse(row: KeyRow): Promise<ApiKeyResponse> {
    const spend = await this.spendCaps.status(
      this.ds,
      { kind: 'api_key', id: row.id },
      row.spend_caps,
      this.clock.now(),
    );
    return {
      id: row.id,
      prefix: row.prefix,
      name: row.name,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
      rate_limit_per_minute: row.rate_limit_per_minute,
      is_active: row.is_active,
      usage_count: row.usage_count,
      permissions: canonical(row.permissions),
      spend_caps: {
        daily_cents: row.spend_caps?.daily_cents ?? null,
        monthly_cents: row.spend_caps?.monthly_cents ?? null,
      },
      approval_ceiling_cents: row.approval_ceiling_cents ?? 0,
      spend,
    };
  }
}

/** The caps as stored: only the periods given (so `{}` is "no caps"), or null when the request leaves them be. */
function capsJson(caps: SpendCapsRequest | undefined): string | null {
  if (caps === undefined) return null;
  const stored: SpendCaps = {};
  if (caps.daily_cents !== undefined) stored.daily_cents = caps.daily_cents;
  if (caps.monthly_cents !== undefined) stored.monthly_cents = caps.monthly_cents;
  return JSON.stringify(stored);
}

/** Deduplicated, in the fixed PERMISSIONS order, so equal sets are stored and shown identically. */
function canonical(permissions: readonly Permission[]): Permission[] {
  return PERMISSIONS.filter((p) => permissions.includes(p));
}

function keyNotFound(): ApiError {
  return new ApiError('not_found', 'API key not found.');
}
