import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts and credentials for the three kinds of principal: agents (API consumers), workers (mobile app users)
 * and operators. Secrets are never stored in clear: passwords as argon2id hashes, API keys, API secrets, refresh
 * tokens and SMS codes as SHA-256 hashes.
 */
export class Accounts1732200000000 implements MigrationInterface {
  name = 'Accounts1732200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        password_hash text NOT NULL,
        organization_name text,
        company_name text,
        account_status text NOT NULL DEFAULT 'active' CHECK (account_status IN ('active', 'suspended', 'closed')),
        tier text NOT NULL DEFAULT 'standard' CHECK (tier IN ('standard', 'verified', 'enterprise')),
        rate_limit_per_minute integer NOT NULL DEFAULT 100 CHECK (rate_limit_per_minute > 0),
        rate_limit_per_day integer NOT NULL DEFAULT 10000 CHECK (rate_limit_per_day > 0),
        fee_bps integer CHECK (fee_bps BETWEEN 0 AND 5000),
        max_concurrent_tasks integer NOT NULL DEFAULT 100 CHECK (max_concurrent_tasks > 0),
        failed_login_count integer NOT NULL DEFAULT 0,
        failed_login_window_start timestamptz,
        locked_until timestamptz,
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Emails are unique regardless of case.
    await q.query(`CREATE UNIQUE INDEX agents_email_key ON agents (lower(email))`);

    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        agent_id uuid NOT NULL UNIQUE REFERENCES agents (id) ON DELETE CASCADE,
        key_hash text NOT NULL UNIQUE,
        secret_hash text NOT NULL,
        prefix text NOT NULL,
        name text NOT NULL,
        permissions text[] NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        usage_count bigint NOT NULL DEFAULT 0,
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE workers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        phone_number text NOT NULL UNIQUE CHECK (phone_number ~ '^1[3-9][0-9]{9}$'),
        password_hash text NOT NULL,
        display_name text,
        skills text[] NOT NULL DEFAULT '{}',
        account_status text NOT NULL DEFAULT 'active' CHECK (account_status IN ('active', 'suspended', 'closed')),
        failed_login_count integer NOT NULL DEFAULT 0,
        failed_login_window_start timestamptz,
        locked_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE admins (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        password_hash text NOT NULL,
        failed_login_count integer NOT NULL DEFAULT 0,
        failed_login_window_start timestamptz,
        locked_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX admins_email_key ON admins (lower(email))`);

    // One row per issued refresh token. A family is one login; rotation adds a token to the family and marks the
    // previous one used. Presenting a used token again revokes the whole family (reuse detection).
    await q.query(`
      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY,
        family_id uuid NOT NULL,
        subject_kind text NOT NULL CHECK (subject_kind IN ('agent', 'worker', 'admin')),
        subject_id uuid NOT NULL,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id)`);
    await q.query(`CREATE INDEX refresh_tokens_expiry_idx ON refresh_tokens (expires_at)`);

    await q.query(`
      CREATE TABLE sms_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        phone_number text NOT NULL,
        purpose text NOT NULL CHECK (purpose IN ('register', 'login', 'reset_password')),
        code_hash text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sms_codes_lookup_idx ON sms_codes (phone_number, purpose, created_at DESC)`);

    // Requests per agent per day, written in batches by the usage tracker (not one write per request).
    await q.query(`
      CREATE TABLE api_usage_daily (
        agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        day date NOT NULL,
        requests bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (agent_id, day)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP TABLE api_usage_daily, sms_codes, refresh_tokens, admins, workers, api_keys, agents CASCADE`,
    );
  }
}
