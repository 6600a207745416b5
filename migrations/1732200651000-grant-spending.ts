import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A task created through an OAuth grant (at /mcp, product-decisions §21) names its grant, as a task created with an
 * API key names its key: the spend caps of the grant count those tasks. The column came with the spend caps; its
 * foreign key waited for the grants table. A grant is revoked, never deleted, so SET NULL only guards the rule.
 */
export class GrantSpending1732200651000 implements MigrationInterface {
  name = 'GrantSpending1732200651000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE tasks
        ADD CONSTRAINT tasks_created_by_grant_id_fkey
        FOREIGN KEY (created_by_grant_id) REFERENCES oauth_grants (id) ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT tasks_created_by_grant_id_fkey`);
  }
}
