import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A human before any penalty (product-decisions §18).
 *
 * - assignments.review_required: the submission's risk was `high` when it came in, so it is held from the 72-hour
 *   auto-approval until the agent or an operator decides; the 14-day sweep approves one nobody decided and writes
 *   review_note for the operators' queue. The partial index serves that sweep and the operators' queue.
 * - The sandbox persona `teleports` (a simulated worker whose position jumps 1,000 km just before it submits). The
 *   CHECK lists every persona of product-decisions §18, so this and the photo personas' migration agree in any order.
 */
export class ProofHold1732200451000 implements MigrationInterface {
  name = 'ProofHold1732200451000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE assignments ADD COLUMN review_required boolean NOT NULL DEFAULT false,
                                           ADD COLUMN review_note text`);
    await q.query(`CREATE INDEX assignments_review_required ON assignments (submitted_at)
                     WHERE review_required`);
    await q.query(`ALTER TABLE sandbox_workers DROP CONSTRAINT sandbox_workers_persona_check`);
    await q.query(`ALTER TABLE sandbox_workers ADD CONSTRAINT sandbox_workers_persona_check CHECK (persona IN
      ('reliable', 'slow', 'abandons', 'declines_offers', 'photo_too_far', 'no_exif', 'wrong_answers',
       'reuses_photo', 'edited_exif', 'teleports'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE sandbox_workers SET persona = NULL WHERE persona = 'teleports'`);
    await q.query(`ALTER TABLE sandbox_workers DROP CONSTRAINT sandbox_workers_persona_check`);
    await q.query(`ALTER TABLE sandbox_workers ADD CONSTRAINT sandbox_workers_persona_check CHECK (persona IN
      ('reliable', 'slow', 'abandons', 'declines_offers', 'photo_too_far', 'no_exif', 'wrong_answers',
       'reuses_photo', 'edited_exif'))`);
    await q.query(`DROP INDEX assignments_review_required`);
    await q.query(`ALTER TABLE assignments DROP COLUMN review_required, DROP COLUMN review_note`);
  }
}
