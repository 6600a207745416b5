import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * assignments.task_deadline_at: a copy of the task's deadline, so the nearby search can read the worker's own tasks
 * that it could list (deadline ahead) from one index range, instead of probing assignments once per candidate row.
 *
 * The search excludes every task the worker ever held an assignment on. A probe per candidate row took 1,240 of
 * the 1,676 buffers of a dense search at a million open tasks (about 600 candidates); reading all of the worker's
 * assignments instead grows with the worker's whole history. A task whose deadline has passed is never listed, so only the
 * assignments whose task's deadline is ahead can matter: a set bounded by what the worker took recently, whatever
 * the backlog or the history (bench/results/nearby-explain.md).
 *
 * Two triggers keep the copy exact: an assignment takes its task's deadline when inserted, and a change of a task's
 * deadline (no code path makes one today) follows to its assignments.
 */
export class AssignmentDeadline1732200092000 implements MigrationInterface {
  name = 'AssignmentDeadline1732200092000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE assignments ADD COLUMN task_deadline_at timestamptz`);
    await q.query(
      `UPDATE assignments a SET task_deadline_at = t.deadline_at FROM tasks t WHERE t.id = a.task_id`,
    );
    await q.query(`ALTER TABLE assignments ALTER COLUMN task_deadline_at SET NOT NULL`);
    await q.query(`
      CREATE FUNCTION assignments_take_task_deadline() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.task_deadline_at := (SELECT deadline_at FROM tasks WHERE id = NEW.task_id);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER assignments_task_deadline BEFORE INSERT ON assignments
        FOR EACH ROW EXECUTE FUNCTION assignments_take_task_deadline()`);
    await q.query(`
      CREATE FUNCTION tasks_deadline_to_assignments() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE assignments SET task_deadline_at = NEW.deadline_at WHERE task_id = NEW.id;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER tasks_deadline_to_assignments AFTER UPDATE OF deadline_at ON tasks
        FOR EACH ROW WHEN (NEW.deadline_at IS DISTINCT FROM OLD.deadline_at)
        EXECUTE FUNCTION tasks_deadline_to_assignments()`);
    // The search reads worker_id = $worker AND task_deadline_at > now, index-only.
    await q.query(`CREATE INDEX assignments_worker_deadline_idx ON assignments (worker_id, task_deadline_at)
                     INCLUDE (task_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX assignments_worker_deadline_idx`);
    await q.query(`DROP TRIGGER tasks_deadline_to_assignments ON tasks`);
    await q.query(`DROP FUNCTION tasks_deadline_to_assignments()`);
    await q.query(`DROP TRIGGER assignments_task_deadline ON assignments`);
    await q.query(`DROP FUNCTION assignments_take_task_deadline()`);
    await q.query(`ALTER TABLE assignments DROP COLUMN task_deadline_at`);
  }
}
