import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
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
  UpdateApiKeyRequest,
} from '../dtos/api-key.dto';
import { sqlRows } from '../../database/sql';
import { toApiKey, type AgentRow, type ApiKeyRow } from '../agent.repository';

export const DEFAULT_KEY_NAME = 'Primary API Key';

type KeyRow = Pick<
  ApiKeyRow,
  'id' | 'prefix' | 'name' | 'created_at' | 'last_used_at' | 'is_active' | 'usage_count' | 'permissions'
> &
  Pick<AgentRow, 'rate_limit_per_minute'>;

/** Selects a key row with the agent's rate limit; `k` is the api_keys row, joined to its agent. */
const KEY_VIEW = `SELECT k.id, k.prefix, k.name, k.created_at, k.last_used_at, k.is_active, k.usage_count,
                         k.permissions, a.rate_limit_per_minute
                    FROM api_keys k JOIN agents a ON a.id = k.agent_id`;

/**
 * The agent's API key. Each agent has exactly one (api_keys.agent_id is unique): "creating" a key rotates it in
 * place, keeping its id, so the old value stops working the moment the new one is returned.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly authCache: AuthCache,
  ) {}

  async list(agentId: string): Promise<ApiKeyResponse[]> {
    const rows = await sqlRows(this.ds, `${KEY_VIEW} WHERE k.agent_id = $1`, [agentId]);
    return rows.map((r) => toResponse(toApiKey<KeyRow>(r)));
  }

  /** Issues a new key value and secret; usage restarts from zero and the key is enabled. */
  async rotate(agentId: string, dto: CreateApiKeyRequest): Promise<CreateApiKeyResponse> {
    const key = generateApiKey(this.config.apiKeyPrefix);
    const rows = await sqlRows<Pick<ApiKeyRow, 'id'>>(
      this.ds,
      `INSERT INTO api_keys AS k (agent_id, key_hash, secret_hash, prefix, name, permissions, is_active,
                                  usage_count, last_used_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, true, 0, NULL, $7, $7)
       ON CONFLICT (agent_id) DO UPDATE SET
         key_hash = EXCLUDED.key_hash, secret_hash = EXCLUDED.secret_hash, prefix = EXCLUDED.prefix,
         name = EXCLUDED.name, permissions = EXCLUDED.permissions, is_active = true, usage_count = 0,
         last_used_at = NULL, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
       RETURNING k.id`,
      [
        agentId,
        key.keyHash,
        key.secretHash,
        key.prefix,
        dto.name ?? DEFAULT_KEY_NAME,
        canonical(dto.permissions ?? PERMISSIONS),
        this.clock.now(),
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
              permissions = COALESCE($5, permissions), updated_at = $6
        WHERE id = $1 AND agent_id = $2 RETURNING id`,
      [
        keyId,
        agentId,
        dto.is_active ?? null,
        dto.name ?? null,
        dto.permissions ? canonical(dto.permissions) : null,
        this.clock.now(),
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
    return toResponse(toApiKey<KeyRow>(rows[0]));
  }
}

/** Deduplicated, in the fixed PERMISSIONS order, so equal sets are stored and shown identically. */
function canonical(permissions: readonly Permission[]): Permission[] {
  return PERMISSIONS.filter((p) => permissions.includes(p));
}

function keyNotFound(): ApiError {
  return new ApiError('not_found', 'API key not found.');
}

function toResponse(row: KeyRow): ApiKeyResponse {
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
  };
}
