import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operator sessions end 12 hours after sign-in, and operators sign in with a TOTP second factor (product-decisions
 * §16).
 *
 * - `refresh_tokens.session_started_at`: when the session (the family) was signed in. Rotation copies it to the next
 *   token, so a session's age is known at every refresh whatever the activity. Existing families take the creation
 *   time of their first token.
 * - `admins.totp_*`: the confirmed secret (sealed, src/common/secret-box.ts), when it was confirmed, the last time
 *   step a code was accepted for (a code is refused for that step or an earlier one, so a code seen once cannot be
 *   replayed within its window), an enrolment started but not yet confirmed (sealed too), and whether the account
 *   must use two-factor (`admin:create --require-totp`).
 * - `admin_recovery_codes`: single-use codes, stored as keyed hashes only; a used code keeps its row (used_at) so
 *   the count left can be shown.
 */
export class OperatorSessions1732200130000 implements MigrationInterface {
  name = 'OperatorSessions1732200130000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refresh_tokens ADD COLUMN session_started_at timestamptz`);
    await q.query(`
      UPDATE refresh_tokens r SET session_started_at = f.started
        FROM (SELECT family_id, min(created_at) AS started FROM refresh_tokens GROUP BY family_id) f
       WHERE f.family_id = r.family_id`);
    await q.query(`ALTER TABLE refresh_tokens ALTER COLUMN session_started_at SET NOT NULL`);

    await q.query(`
      ALTER TABLE admins
        ADD COLUMN totp_secret text,
        ADD COLUMN totp_enabled_at timestamptz,
        ADD COLUMN totp_last_step bigint,
        ADD COLUMN totp_pending_secret text,
        ADD COLUMN totp_required boolean NOT NULL DEFAULT false,
        ADD CONSTRAINT admins_totp_enabled CHECK ((totp_secret IS NULL) = (totp_enabled_at IS NULL))`);

    await q.query(`
      CREATE TABLE admin_recovery_codes (
        admin_id uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        used_at timestamptz,
        PRIMARY KEY (admin_id, code_hash)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE admin_recovery_codes`);
    await q.query(`
      ALTER TABLE admins DROP CONSTRAINT admins_totp_enabled, DROP COLUMN totp_secret, DROP COLUMN totp_enabled_at,
        DROP COLUMN totp_last_step, DROP COLUMN totp_pending_secret, DROP COLUMN totp_required`);
    await q.query(`ALTER TABLE refresh_tokens DROP COLUMN session_started_at`);
  }
}
