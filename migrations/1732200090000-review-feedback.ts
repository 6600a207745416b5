import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reviewing before deciding (product-decisions §10): `rating` and `quality_score` are required to accept a result and
 * optional to reject one, and a rejection names its reason, which the worker sees.
 *
 * task_feedback: the two scores become nullable, tied to acceptance by a CHECK; `reason_code` is set on a rejection
 * and only there. Rejections recorded before this migration have no reason, so that rule is added NOT VALID: it
 * holds for every row written from now on (the table is append-only) without inventing a reason for old ones.
 * assignments: the reason of the rejection the worker reads with the assignment.
 */
export class ReviewFeedback1732200090000 implements MigrationInterface {
  name = 'ReviewFeedback1732200090000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE task_feedback
        ALTER COLUMN rating DROP NOT NULL,
        ALTER COLUMN quality_score DROP NOT NULL,
        ADD COLUMN reason_code text CHECK (reason_code IN (${REASONS})),
        ADD CONSTRAINT task_feedback_acceptance_scored
          CHECK (NOT accept_result OR (rating IS NOT NULL AND quality_score IS NOT NULL))`);
    await q.query(`ALTER TABLE task_feedback ADD CONSTRAINT task_feedback_reason_on_rejection
                     CHECK (accept_result = (reason_code IS NULL)) NOT VALID`);
    await q.query(`
      ALTER TABLE assignments
        ADD COLUMN rejection_reason_code text CHECK (rejection_reason_code IN (${REASONS})),
        ADD CONSTRAINT assignments_rejection_reason_status
          CHECK (rejection_reason_code IS NULL OR status = 'rejected')`);
  }

  async down(q: QueryRunner): Promise<void> {
    // A rejection recorded without scores has no value the old NOT NULL columns would take: refuse to go back
    // rather than delete the agent's decisions or invent scores for them.
    const [{ n }] = (await q.query(
      `SELECT count(*)::int AS n FROM task_feedback WHERE rating IS NULL OR quality_score IS NULL`,
    )) as { n: number }[];
    if (n > 0)
      throw new Error(`${n} rejections were recorded without scores; this migration cannot be reverted`);
    await q.query(`ALTER TABLE assignments DROP CONSTRAINT assignments_rejection_reason_status,
                     DROP COLUMN rejection_reason_code`);
    await q.query(`ALTER TABLE task_feedback DROP CONSTRAINT task_feedback_reason_on_rejection,
                     DROP CONSTRAINT task_feedback_acceptance_scored, DROP COLUMN reason_code,
                     ALTER COLUMN rating SET NOT NULL, ALTER COLUMN quality_score SET NOT NULL`);
  }
}

/** The reason codes as this migration knew them (src/task/domain/task-policy.ts REJECTION_REASONS). */
const REASONS = `'wrong_location', 'poor_quality', 'incomplete', 'not_as_described', 'other'`;
