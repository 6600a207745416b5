import type { AccountStatus, Permission } from '../common/actor';
import { numericColumns, sqlRows, type SqlRunner } from '../database/sql';
import type { AgentTier } from './agent-tiers';

/**
 * An agents row. The lock-out columns are written by auth's LoginThrottle and last_used_at by its UsageTracker:
 * authentication sits below the account modules, so it reads and writes them itself.
 */
export interface AgentRow {
  id: string;
  email: string;
  password_hash: string;
  organization_name: string | null;
  company_name: string | null;
  account_status: AccountStatus;
  tier: AgentTier;
  rate_limit_per_minute: number;
  rate_limit_per_day: number;
  /** The agent's platform fee override; null uses PLATFORM_FEE_BPS. */
  fee_bps: number | null;
  max_concurrent_tasks: number;
  failed_login_count: number;
  failed_login_window_start: Date | null;
  locked_until: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An api_keys row (one per agent). Only hashes are stored: the key and secret are shown once. */
export interface ApiKeyRow {
  id: string;
  agent_id: string;
  /** SHA-256 of the full key. */
  key_hash: string;
  /** SHA-256 of the API secret required as X-API-Secret on the reference payment endpoints. */
  secret_hash: string;
  prefix: string;
  name: string;
  permissions: Permission[];
  is_active: boolean;
  usage_count: number;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** `{daily_cents?, monthly_cents?}`; null: no caps. Kept across rotation (docs/spend-caps.md). */
  spend_caps: { daily_cents?: number; monthly_cents?: number } | null;
  /** The most one task approved over the cap may cost; null (never set) counts as 0. */
  approval_ceiling_cents: number | null;
}

/** usage_count and approval_ceiling_cents are bigint (text from pg). Takes any selection of api_keys columns. */
export function toApiKey<T extends Partial<ApiKeyRow>>(row: Record<string, unknown>): T {
  return numericColumns<T>(row, ['usage_count', 'approval_ceiling_cents']);
}

/** An agent account as operators see it: the agents row with its key's prefix. */
export type AgentAccountRow = Pick<
  AgentRow,
  | 'email'
  | 'organization_name'
  | 'company_name'
  | 'tier'
  | 'fee_bps'
  | 'account_status'
  | 'rate_limit_per_minute'
  | 'rate_limit_per_day'
  | 'max_concurrent_tasks'
  | 'created_at'
  | 'last_used_at'
> & { agent_id: string; api_key_prefix: string | null };

/** Operator changes; a column left undefined keeps its value, fee_bps null returns the agent to the default. */
export interface AgentControls {
  tier?: AgentTier;
  rate_limit_per_minute?: number;
  rate_limit_per_day?: number;
  fee_bps?: number | null;
  account_status?: AccountStatus;
}

const ACCOUNT_VIEW = `SELECT a.id AS agent_id, a.email, a.organization_name, a.company_name, a.tier, a.fee_bps,
                             a.account_status, a.rate_limit_per_minute, a.rate_limit_per_day, a.max_concurrent_tasks,
                             k.prefix AS api_key_prefix, a.created_at, a.last_used_at
                        FROM agents a LEFT JOIN api_keys k ON k.agent_id = a.id`;

/** The agents table for the modules above this one (operators, task creation, payment orders). */
export const AgentRepository = {
  /** Newest first. */
  async accounts(
    db: SqlRunner,
    skip: number,
    limit: number,
  ): Promise<{ items: AgentAccountRow[]; total: number }> {
    const [items, count] = await Promise.all([
      sqlRows<AgentAccountRow>(
        db,
        `${ACCOUNT_VIEW} ORDER BY a.created_at DESC, a.id DESC OFFSET $1 LIMIT $2`,
        [skip, limit],
      ),
      sqlRows<{ total: number }>(db, `SELECT count(*)::int AS total FROM agents`),
    ]);
    return { items, total: count[0].total };
  },

  async account(db: SqlRunner, agentId: string): Promise<AgentAccountRow | null> {
    const rows = await sqlRows<AgentAccountRow>(db, `${ACCOUNT_VIEW} WHERE a.id = $1`, [agentId]);
    return rows[0] ?? null;
  },

  /** The columns operators control, locked for a change (what the change's audit record shows as before). */
  async lockControls(db: SqlRunner, agentId: string): Promise<Required<AgentControls> | null> {
    const rows = await sqlRows<Required<AgentControls>>(
      db,
      `SELECT tier, rate_limit_per_minute, rate_limit_per_day, fee_bps, account_status
         FROM agents WHERE id = $1 FOR UPDATE`,
      [agentId],
    );
    return rows[0] ?? null;
  },

  /** Applies the operator's changes in one statement; false when there is no such agent. */
  async control(db: SqlRunner, agentId: string, changes: AgentControls, now: Date): Promise<boolean> {
    const rows = await sqlRows<Pick<AgentRow, 'id'>>(
      db,
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
        changes.tier ?? null,
        changes.rate_limit_per_minute ?? null,
        changes.rate_limit_per_day ?? null,
        changes.fee_bps !== undefined,
        changes.fee_bps ?? null,
        changes.account_status ?? null,
        now,
      ],
    );
    return rows.length > 0;
  },

  /**
   * Locks the agent row for a task creation and returns what it needs. NO KEY UPDATE serialises the agent's
   * creations without blocking foreign-key checks on the row.
   */
  async lockForTaskCreation(
    db: SqlRunner,
    agentId: string,
  ): Promise<Pick<AgentRow, 'fee_bps' | 'max_concurrent_tasks'> | null> {
    const rows = await sqlRows<Pick<AgentRow, 'fee_bps' | 'max_concurrent_tasks'>>(
      db,
      `SELECT fee_bps, max_concurrent_tasks FROM agents WHERE id = $1 FOR NO KEY UPDATE`,
      [agentId],
    );
    return rows[0] ?? null;
  },

  async tier(db: SqlRunner, agentId: string): Promise<AgentTier | null> {
    const rows = await sqlRows<Pick<AgentRow, 'tier'>>(db, `SELECT tier FROM agents WHERE id = $1`, [
      agentId,
    ]);
    return rows[0]?.tier ?? null;
  },
};
