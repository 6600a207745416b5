/** The rows of the tables src/oauth owns (migrations/1732200600000-oauth.ts). */

export type ClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';

export interface OAuthClientRow {
  client_id: string;
  kind: 'registered' | 'metadata_document';
  client_name: string | null;
  client_uri: string | null;
  redirect_uris: string[];
  token_endpoint_auth_method: ClientAuthMethod;
  secret_hash: string | null;
  created_at: Date;
  expires_at: Date | null;
}

export interface OAuthRequestRow {
  id: string;
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  permissions: string[];
  expires_at: Date;
  decided_at: Date | null;
}

export interface SpendCaps {
  daily_cents?: number;
  monthly_cents?: number;
}

export interface OAuthGrantRow {
  id: string;
  agent_id: string;
  client_id: string;
  client_name: string | null;
  client_host: string;
  permissions: string[];
  spend_caps: SpendCaps | null;
  /** bigint, read as a string by pg: numericColumns turns it into a number. */
  ceiling_cents: number | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface OAuthCodeRow {
  grant_id: string;
  agent_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  permissions: string[];
  expires_at: Date;
  used_at: Date | null;
  grant_revoked: boolean;
}
