import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workers' reports of a task to the operators (product-decisions §19, "Also"): illegal, unsafe or misleading. At
 * most one open report per worker and task (the partial unique index: a second is 409 already_reported, and two
 * concurrent ones cannot both insert). A decision closes every open report of the task at once, so the decision
 * columns are written together or not at all.
 *
 * An operator's cancellation refunds held work whole, so a cancelled assignment may now have a `refunded` slot
 * (before, only an accepted slot cancelled by its agent settled, `compensated`, 70/30).
 */
export class TaskReports1732200730000 implements MigrationInterface {
  name = 'TaskReports1732200730000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE task_reports (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES tasks (id),
        agent_id uuid NOT NULL REFERENCES agents (id),
        worker_id uuid NOT NULL REFERENCES workers (id),
        reason text NOT NULL CHECK (reason IN ('illegal', 'unsafe', 'misleading')),
        note text NOT NULL CHECK (char_length(note) BETWEEN 1 AND 2000),
        created_at timestamptz NOT NULL,
        outcome text CHECK (outcome IN ('cancel_task', 'dismiss')),
        suspend_agent boolean,
        decision_note text CHECK (char_length(decision_note) BETWEEN 1 AND 2000),
        decided_by uuid REFERENCES admins (id),
        decided_at timestamptz,
        CHECK ((decided_at IS NULL) = (outcome IS NULL)),
        CHECK ((decided_at IS NULL) = (suspend_agent IS NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX task_reports_open_once ON task_reports (task_id, worker_id)
                    WHERE decided_at IS NULL`);
    await q.query(
      `CREATE INDEX task_reports_queue_idx ON task_reports (created_at, id) WHERE decided_at IS NULL`,
    );
    await q.query(`CREATE INDEX task_reports_task_idx ON task_reports (task_id)`);
    await q.query(`ALTER TABLE assignments DROP CONSTRAINT assignments_settlement_matches_status,
      ADD CONSTRAINT assignments_settlement_matches_status CHECK (
           (status = 'approved' AND slot_settlement = 'released')
        OR (status = 'rejected' AND slot_settlement = 'refunded')
        OR (status = 'expired' AND (slot_settlement IS NULL OR slot_settlement = 'refunded'))
        OR (status = 'cancelled' AND (slot_settlement IS NULL OR slot_settlement IN ('compensated', 'refunded')))
        OR (status IN ('pending', 'accepted', 'in_progress', 'submitted', 'declined', 'abandoned')
            AND slot_settlement IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE assignments DROP CONSTRAINT assignments_settlement_matches_status,
      ADD CONSTRAINT assignments_settlement_matches_status CHECK (
           (status = 'approved' AND slot_settlement = 'released')
        OR (status = 'rejected' AND slot_settlement = 'refunded')
        OR (status = 'expired' AND (slot_settlement IS NULL OR slot_settlement = 'refunded'))
        OR (status = 'cancelled' AND (slot_settlement IS NULL OR slot_settlement = 'compensated'))
        OR (status IN ('pending', 'accepted', 'in_progress', 'submitted', 'declined', 'abandoned')
            AND slot_settlement IS NULL))`);
    await q.query(`DROP TABLE task_reports`);
  }
}
