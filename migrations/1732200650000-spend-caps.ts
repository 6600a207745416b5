import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Spend caps (product-decisions §21). An API key carries its caps (`spend_caps`, the same shape as an OAuth grant's:
 * `{daily_cents?, monthly_cents?}`) and the ceiling one approved task may cost when a person lets it pass the cap.
 * A task remembers the key (or grant) that created it, so the counting is "the tasks this spender created in the
 * period"; the index serves that range. created_by_grant_id gets its foreign key with the grants table.
 *
 * spend_approvals: a person's approval of one task over the cap, bound to the hash of that task's body, used at most
 * once (used_at and task_id are set in the creating transaction), and expiring.
 */
export class SpendCaps1732200650000 implements MigrationInterface {
  name = 'SpendCaps1732200650000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE api_keys
        ADD COLUMN spend_caps jsonb,
        ADD COLUMN approval_ceiling_cents bigint,
        ADD CONSTRAINT api_keys_spend_caps_object CHECK (spend_caps IS NULL OR jsonb_typeof(spend_caps) = 'object'),
        ADD CONSTRAINT api_keys_approval_ceiling_nonnegative CHECK (approval_ceiling_cents >= 0)`);
    await q.query(`
      ALTER TABLE tasks
        ADD COLUMN created_by_api_key_id uuid REFERENCES api_keys (id) ON DELETE SET NULL,
        ADD COLUMN created_by_grant_id uuid`);
    await q.query(
      `CREATE INDEX tasks_created_by_api_key_idx ON tasks (created_by_api_key_id, created_at)
        WHERE created_by_api_key_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX tasks_created_by_grant_idx ON tasks (created_by_grant_id, created_at)
        WHERE created_by_grant_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE spend_approvals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        spender_kind text NOT NULL CHECK (spender_kind IN ('api_key', 'grant')),
        spender_id uuid NOT NULL,
        body_hash text NOT NULL,
        task_body jsonb NOT NULL,
        total_cents bigint NOT NULL CHECK (total_cents > 0),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'declined', 'used')),
        expires_at timestamptz NOT NULL,
        decided_at timestamptz,
        used_at timestamptz,
        task_id uuid REFERENCES tasks (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT spend_approvals_used_has_time CHECK ((status = 'used') = (used_at IS NOT NULL)),
        CONSTRAINT spend_approvals_decided_has_time CHECK ((status = 'pending') = (decided_at IS NULL))
      )`);
    await q.query(`CREATE INDEX spend_approvals_agent_idx ON spend_approvals (agent_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE spend_approvals`);
    await q.query(`DROP INDEX tasks_created_by_grant_idx`);
    await q.query(`DROP INDEX tasks_created_by_api_key_idx`);
    await q.query(`ALTER TABLE tasks DROP COLUMN created_by_grant_id, DROP COLUMN created_by_api_key_id`);
    await q.query(
      `ALTER TABLE api_keys DROP CONSTRAINT api_keys_approval_ceiling_nonnegative,
         DROP CONSTRAINT api_keys_spend_caps_object, DROP COLUMN approval_ceiling_cents, DROP COLUMN spend_caps`,
    );
  }
}
