import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Simulated workers of the self-running sandbox (product-decisions §12). A simulated worker is a real `workers` row, so
 * matching, escrow, reputation and events treat it like anyone; `simulated_by_agent_id` names the sandbox agent
 * that made it, which is the only agent whose tasks it is offered. Its phone number is `sandbox:<uuid>` (it can
 * never log in: login takes mobile numbers only). `sandbox_workers` keeps its behaviour; `sandbox_actions` is its
 * schedule: one row per step it will take on an assignment (unique per assignment and step, so a step is planned
 * once), run by a pg-boss job at `due_at` and marked done with what the service answered.
 */
export class SandboxWorkers1732200060000 implements MigrationInterface {
  name = 'SandboxWorkers1732200060000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE workers ADD COLUMN simulated_by_agent_id uuid REFERENCES agents(id),
                     DROP CONSTRAINT workers_phone_number_check,
                     ADD CONSTRAINT workers_phone_number_check CHECK (
                       phone_number ~ '^1[3-9][0-9]{9}$'
                       OR (simulated_by_agent_id IS NOT NULL AND phone_number ~ '^sandbox:[0-9a-f-]{36}$'))`);
    await q.query(`CREATE INDEX workers_simulated_by_agent ON workers (simulated_by_agent_id)
                     WHERE simulated_by_agent_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE sandbox_workers (
        worker_id uuid PRIMARY KEY REFERENCES workers(id),
        agent_id uuid NOT NULL REFERENCES agents(id),
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 50),
        persona text CHECK (persona IN ('reliable', 'slow', 'abandons', 'declines_offers', 'photo_too_far', 'no_exif')),
        behavior jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX sandbox_workers_agent ON sandbox_workers (agent_id, created_at)`);
    await q.query(`
      CREATE TABLE sandbox_actions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        worker_id uuid NOT NULL REFERENCES workers(id),
        task_id uuid NOT NULL REFERENCES tasks(id),
        assignment_id uuid NOT NULL REFERENCES assignments(id),
        step text NOT NULL CHECK (step IN ('accept', 'decline', 'start', 'submit', 'abandon')),
        due_at timestamptz NOT NULL,
        done_at timestamptz,
        outcome text,
        detail jsonb,
        created_at timestamptz NOT NULL,
        UNIQUE (assignment_id, step),
        CHECK ((done_at IS NULL) = (outcome IS NULL))
      )`);
    await q.query(`CREATE INDEX sandbox_actions_worker ON sandbox_actions (worker_id, created_at)`);
    await q.query(`CREATE INDEX sandbox_actions_open ON sandbox_actions (due_at) WHERE done_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_actions`);
    await q.query(`DROP TABLE sandbox_workers`);
    await q.query(`DELETE FROM worker_availability WHERE worker_id IN
                     (SELECT id FROM workers WHERE simulated_by_agent_id IS NOT NULL)`);
    await q.query(`ALTER TABLE workers DROP CONSTRAINT workers_phone_number_check`);
    await q.query(`ALTER TABLE workers DROP COLUMN simulated_by_agent_id,
                     ADD CONSTRAINT workers_phone_number_check CHECK (phone_number ~ '^1[3-9][0-9]{9}$')`);
  }
}
