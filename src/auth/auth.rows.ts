import type { AccountStatus, ActorKind } from '../common/actor';

/**
 * The rows of the tables authentication owns. It also reads and writes the credential and lock-out columns of the
 * account tables (agents, api_keys, workers, admins): those modules sit above this one, so the shapes it needs are
 * declared here rather than imported from them.
 */

/** A refresh_tokens row: one issued refresh JWT, stored by its jti with a hash of the token. */
export interface RefreshTokenRow {
  id: string;
  family_id: string;
  subject_kind: ActorKind;
  subject_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  /** When the session (the family) was signed in; rotation copies it, so it bounds the session's age. */
  session_started_at: Date;
  created_at: Date;
}

/** An api_usage_daily row: authenticated requests per agent and UTC day, flushed by the UsageTracker. */
export interface ApiUsageDailyRow {
  agent_id: string;
  /** A date column: 'YYYY-MM-DD'. */
  day: string;
  requests: number;
}

/** What authentication reads of an account: its status and, for agents, its rate limits (0 for the others). */
export interface AccountAccessRow {
  account_status: AccountStatus;
  rate_limit_per_minute: number;
  rate_limit_per_day: number;
}

/** An API key as authentication sees it, with its agent's access columns. */
export interface KeyAccessRow extends AccountAccessRow {
  id: string;
  agent_id: string;
  permissions: string[];
  is_active: boolean;
}

/** What authentication reads of an operator on each request: whether the session is still live. */
export interface AdminSessionRow {
  /** The session's refresh family has a revoked token: signed out, ended by a reset, or past its limit. */
  ended: boolean;
  /** The account must use two-factor and has not enrolled: it may not act before enrolling. */
  needs_enrolment: boolean;
}

/** The lock-out columns every account table has. */
export interface LoginThrottleRow {
  failed_login_count: number;
  failed_login_window_start: Date | null;
  locked_until: Date | null;
}

/** What authentication reads of an OAuth grant on each use of its tokens (oauth_grants, owned by src/oauth). */
export interface GrantAccessRow extends AccountAccessRow {
  permissions: string[];
  /** The grant and the token's session (refresh family) are both unrevoked. */
  live: boolean;
}
