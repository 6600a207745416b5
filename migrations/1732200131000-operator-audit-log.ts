import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator audit log (product-decisions §16): one row per operator action, written in the transaction of the
 * action itself, so an action and its record commit or roll back together.
 *
 * - `source`: `api` (an operator's request: `admin_id` names them) or `cli` (`npm run admin:create`, run by whoever
 *   holds the server: no operator to name).
 * - `session_id`: the refresh family of the session that acted, linking every action to its sign-in row.
 * - `before` / `after`: the target's relevant fields around the change (JSON, never a secret or a password).
 * - `ip`: kept on sign-in rows only (src/audit/operator-audit.ts says why).
 *
 * Append-only in the database: UPDATE, DELETE and TRUNCATE are refused by triggers, whoever sends them.
 */
export class OperatorAuditLog1732200131000 implements MigrationInterface {
  name = 'OperatorAuditLog1732200131000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE operator_audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        occurred_at timestamptz NOT NULL,
        source text NOT NULL CHECK (source IN ('api', 'cli')),
        admin_id uuid REFERENCES admins (id),
        session_id uuid,
        action text NOT NULL CHECK (action ~ '^[a-z_]+\\.[a-z_]+$'),
        target_type text NOT NULL CHECK (char_length(target_type) BETWEEN 1 AND 40),
        target_id text NOT NULL CHECK (char_length(target_id) BETWEEN 1 AND 100),
        before jsonb,
        after jsonb,
        request_id text CHECK (char_length(request_id) <= 128),
        ip inet,
        CHECK (source = 'cli' OR admin_id IS NOT NULL)
      )`);
    // The filters of GET /v1/admin/audit-log, each newest first.
    await q.query(`CREATE INDEX operator_audit_log_admin_idx ON operator_audit_log (admin_id, id DESC)`);
    await q.query(`CREATE INDEX operator_audit_log_action_idx ON operator_audit_log (action, id DESC)`);
    await q.query(
      `CREATE INDEX operator_audit_log_target_idx ON operator_audit_log (target_type, target_id, id DESC)`,
    );

    await q.query(`
      CREATE FUNCTION operator_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the operator audit log is append-only: % refused', TG_OP;
      END $$`);
    await q.query(`CREATE TRIGGER operator_audit_log_no_change BEFORE UPDATE OR DELETE ON operator_audit_log
                   FOR EACH ROW EXECUTE FUNCTION operator_audit_log_append_only()`);
    await q.query(`CREATE TRIGGER operator_audit_log_no_truncate BEFORE TRUNCATE ON operator_audit_log
                   FOR EACH STATEMENT EXECUTE FUNCTION operator_audit_log_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE operator_audit_log`);
    await q.query(`DROP FUNCTION operator_audit_log_append_only()`);
  }
}
