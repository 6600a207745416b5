import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OAuth 2.1 for /mcp (product-decisions §21, docs/mcp.md "Signing in with OAuth"). Every secret is stored as a
 * SHA-256 hash of a high-entropy random value (client secrets, authorization requests, codes, refresh tokens), so
 * a copy of the database signs nobody in.
 *
 * - oauth_clients: dynamically registered clients (RFC 7591) and clients known by a Client ID Metadata Document
 *   (client_id is then the document's https URL). A registered client that never gets a grant expires
 *   (expires_at, cleared by its first grant).
 * - oauth_requests: an authorization request waiting for the person's consent in the console (10 minutes, once).
 * - oauth_grants: what a person approved for a client: the permissions (the API keys' names), the spend caps and
 *   the ceiling an over-cap approval may reach. Revoking a grant ends every token issued under it at once.
 * - oauth_codes: authorization codes (60 seconds, once; PKCE S256 challenge kept for the exchange).
 * - oauth_refresh_tokens: rotating refresh tokens, one family per code exchange; a used or revoked token presented
 *   again revokes its family.
 */
export class OAuth1732200600000 implements MigrationInterface {
  name = 'OAuth1732200600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE oauth_clients (
        client_id text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('registered', 'metadata_document')),
        client_name text,
        client_uri text,
        redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) BETWEEN 1 AND 10),
        token_endpoint_auth_method text NOT NULL
          CHECK (token_endpoint_auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
        secret_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        CHECK ((token_endpoint_auth_method = 'none') = (secret_hash IS NULL))
      )`);
    await q.query(
      `CREATE INDEX oauth_clients_expiry_idx ON oauth_clients (expires_at) WHERE expires_at IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE oauth_requests (
        id uuid PRIMARY KEY,
        handle_hash text NOT NULL UNIQUE,
        client_id text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
        redirect_uri text NOT NULL,
        state text,
        code_challenge text NOT NULL,
        permissions text[] NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        decided_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE oauth_grants (
        id uuid PRIMARY KEY,
        agent_id uuid NOT NULL REFERENCES agents (id),
        client_id text NOT NULL REFERENCES oauth_clients (client_id),
        client_name text,
        client_host text NOT NULL,
        permissions text[] NOT NULL,
        spend_caps jsonb,
        ceiling_cents bigint CHECK (ceiling_cents IS NULL OR ceiling_cents > 0),
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX oauth_grants_agent_idx ON oauth_grants (agent_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE oauth_codes (
        code_hash text PRIMARY KEY,
        grant_id uuid NOT NULL REFERENCES oauth_grants (id),
        client_id text NOT NULL,
        redirect_uri text NOT NULL,
        code_challenge text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`CREATE INDEX oauth_codes_grant_idx ON oauth_codes (grant_id)`);
    await q.query(`
      CREATE TABLE oauth_refresh_tokens (
        id uuid PRIMARY KEY,
        family_id uuid NOT NULL,
        grant_id uuid NOT NULL REFERENCES oauth_grants (id),
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX oauth_refresh_family_idx ON oauth_refresh_tokens (family_id)`);
    await q.query(`CREATE INDEX oauth_refresh_grant_idx ON oauth_refresh_tokens (grant_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE oauth_refresh_tokens`);
    await q.query(`DROP TABLE oauth_codes`);
    await q.query(`DROP TABLE oauth_grants`);
    await q.query(`DROP TABLE oauth_requests`);
    await q.query(`DROP TABLE oauth_clients`);
  }
}
