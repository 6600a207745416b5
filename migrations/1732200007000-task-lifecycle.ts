import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the task lifecycle needs beyond the base task schema: slot bookkeeping (so money for every slot leaves
 * escrow exactly once), the moments that close a task to new workers, the body idempotency key's request hash,
 * agent feedback records, and the indexes the time-based sweeps scan.
 *
 * Slot accounting, which must stay true for every task (checked in code under the task row lock):
 *   max_workers = live assignments + assignments that settled their slot + closed_slots + open slots
 * and the task's escrow holds budget_cents for every live or open slot.
 */
export class TaskLifecycle1732200007000 implements MigrationInterface {
  name = 'TaskLifecycle1732200007000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE tasks
        -- Slots closed while nobody held them (refunded 100 %); also numbers their refund journals.
        ADD COLUMN closed_slots integer NOT NULL DEFAULT 0,
        -- Set when the task stops taking workers (agent accepted a result, deadline, cancellation): open slots
        -- are refunded then, and a slot freed later is refunded at once instead of reopening.
        ADD COLUMN intake_closed_at timestamptz,
        ADD COLUMN deadline_processed_at timestamptz,
        ADD COLUMN cancelled_at timestamptz,
        -- Hash of the creation body, so a repeated body idempotency_key with a different body is a conflict.
        ADD COLUMN idempotency_request_hash text,
        ADD CONSTRAINT tasks_closed_slots_range CHECK (closed_slots BETWEEN 0 AND max_workers),
        ADD CONSTRAINT tasks_cancelled_status CHECK (cancelled_at IS NULL OR status = 'cancelled')`);

    // How an assignment's slot money left escrow, if it did through the assignment. The CHECK ties it to the
    // status so no code path can approve without releasing or expire a held slot without deciding its money.
    await q.query(`
      ALTER TABLE assignments
        ADD COLUMN slot_settlement text CHECK (slot_settlement IN ('released', 'refunded', 'compensated')),
        ADD CONSTRAINT assignments_settlement_matches_status CHECK (
             (status = 'approved' AND slot_settlement = 'released')
          OR (status = 'rejected' AND slot_settlement = 'refunded')
          OR (status = 'expired' AND (slot_settlement IS NULL OR slot_settlement = 'refunded'))
          OR (status = 'cancelled' AND (slot_settlement IS NULL OR slot_settlement = 'compensated'))
          OR (status IN ('pending', 'accepted', 'in_progress', 'submitted', 'declined', 'abandoned')
              AND slot_settlement IS NULL))`);

    await q.query(`
      CREATE TABLE task_feedback (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES tasks (id),
        agent_id uuid NOT NULL REFERENCES agents (id),
        assignment_ids uuid[] NOT NULL CHECK (cardinality(assignment_ids) >= 1),
        accept_result boolean NOT NULL,
        rating integer NOT NULL CHECK (rating BETWEEN 1 AND 5),
        quality_score numeric(2, 1) NOT NULL CHECK (quality_score BETWEEN 0 AND 5),
        feedback_text text CHECK (char_length(feedback_text) <= 500),
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX task_feedback_task_idx ON task_feedback (task_id, created_at)`);

    // The deadline sweep: live tasks whose deadline has not been processed yet.
    await q.query(`CREATE INDEX tasks_deadline_due_idx ON tasks (deadline_at)
                   WHERE deadline_processed_at IS NULL
                     AND status IN ('pending', 'assigned', 'in_progress', 'submitted')`);
    // The auto-approval sweep: submitted results by age.
    await q.query(
      `CREATE INDEX assignments_submitted_idx ON assignments (submitted_at) WHERE status = 'submitted'`,
    );
    // Available-task listing: live tasks still taking workers.
    await q.query(`CREATE INDEX tasks_open_intake_idx ON tasks (deadline_at)
                   WHERE intake_closed_at IS NULL AND status IN ('pending', 'assigned', 'in_progress', 'submitted')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP INDEX tasks_open_intake_idx, assignments_submitted_idx, tasks_deadline_due_idx, task_feedback_task_idx`,
    );
    await q.query(`DROP TABLE task_feedback`);
    await q.query(`ALTER TABLE assignments DROP CONSTRAINT assignments_settlement_matches_status,
                   DROP COLUMN slot_settlement`);
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT tasks_cancelled_status, DROP CONSTRAINT tasks_closed_slots_range,
                   DROP COLUMN idempotency_request_hash, DROP COLUMN cancelled_at, DROP COLUMN deadline_processed_at,
                   DROP COLUMN intake_closed_at, DROP COLUMN closed_slots`);
  }
}
