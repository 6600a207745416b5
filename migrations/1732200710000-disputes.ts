import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Disputes (product-decisions §19). A rejection may be disputed until `assignments.dispute_window_ends_at`, 72 hours
 * after it on the task's time (a sandbox test clock's for a task on one), written when the result is rejected; rows
 * rejected before this migration get theirs from reviewed_at. One dispute per assignment. Its status is derived from
 * its times (awaiting the agent's answer until answered or `response_due_at`, then awaiting a decision, then
 * decided), so a window closes at its instant with no timer to run; a decision records what it moved.
 */
export class Disputes1732200710000 implements MigrationInterface {
  name = 'Disputes1732200710000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE assignments ADD COLUMN dispute_window_ends_at timestamptz`);
    await q.query(`UPDATE assignments SET dispute_window_ends_at = reviewed_at + interval '72 hours'
                    WHERE status = 'rejected' AND reviewed_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE disputes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        assignment_id uuid NOT NULL UNIQUE REFERENCES assignments (id),
        task_id uuid NOT NULL REFERENCES tasks (id),
        agent_id uuid NOT NULL REFERENCES agents (id),
        worker_id uuid NOT NULL REFERENCES workers (id),
        statement text NOT NULL CHECK (char_length(statement) BETWEEN 1 AND 2000),
        photo_urls text[] NOT NULL DEFAULT '{}',
        opened_at timestamptz NOT NULL,
        response_due_at timestamptz NOT NULL,
        response_statement text CHECK (char_length(response_statement) BETWEEN 1 AND 2000),
        response_photo_urls text[],
        answered_at timestamptz,
        outcome text CHECK (outcome IN ('upheld', 'overturned', 'split')),
        worker_percent smallint CHECK (worker_percent BETWEEN 1 AND 99),
        decision_note text CHECK (char_length(decision_note) <= 2000),
        decided_by uuid REFERENCES admins (id),
        decided_at timestamptz,
        worker_cents integer CHECK (worker_cents >= 0),
        fee_cents integer CHECK (fee_cents >= 0),
        owed_cents integer CHECK (owed_cents >= 0),
        created_at timestamptz NOT NULL,
        CHECK ((answered_at IS NULL) = (response_statement IS NULL)),
        CHECK ((decided_at IS NULL) = (outcome IS NULL)),
        CHECK ((outcome = 'split') = (worker_percent IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX disputes_task_idx ON disputes (task_id, opened_at)`);
    await q.query(`CREATE INDEX disputes_open_idx ON disputes (agent_id) WHERE decided_at IS NULL`);
    await q.query(`CREATE INDEX disputes_queue_idx ON disputes (opened_at, id)`);
    await q.query(`CREATE INDEX assignments_disputable_idx ON assignments (dispute_window_ends_at)
                    WHERE status = 'rejected'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE disputes`);
    await q.query(`ALTER TABLE assignments DROP COLUMN dispute_window_ends_at`);
  }
}
