import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test clocks of the self-running sandbox (product-decisions §12, Stripe's shape). A task created with `test_clock` lives on
 * that clock: the job runner's real-time sweeps leave it alone, and advancing the clock runs its simulated workers'
 * steps, offer lapses, deadline and auto-approval in time order at the clock's time. `status` is `advancing` while an
 * advance (or the deletion) runs, so two never overlap; `advancing_since` lets a later call take over from one whose
 * process died.
 */
export class TestClocks1732200070000 implements MigrationInterface {
  name = 'TestClocks1732200070000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE test_clocks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        agent_id uuid NOT NULL REFERENCES agents(id),
        name text CHECK (name IS NULL OR char_length(name) BETWEEN 1 AND 100),
        frozen_time timestamptz NOT NULL,
        status text NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'advancing')),
        advancing_since timestamptz,
        created_at timestamptz NOT NULL,
        deleted_at timestamptz,
        CHECK ((status = 'advancing') = (advancing_since IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX test_clocks_agent ON test_clocks (agent_id, created_at)`);
    await q.query(`ALTER TABLE tasks ADD COLUMN test_clock_id uuid REFERENCES test_clocks(id)`);
    await q.query(`CREATE INDEX tasks_test_clock ON tasks (test_clock_id) WHERE test_clock_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks DROP COLUMN test_clock_id`);
    await q.query(`DROP TABLE test_clocks`);
  }
}
