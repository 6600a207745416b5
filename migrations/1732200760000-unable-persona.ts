import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox persona `reports_unable` (product-decisions §19): a simulated worker that accepts and starts, then
 * reports "could not do it" (the shop was closed, with a photo of it) through the sandbox action step `unable`, the
 * step any behaviour with outcome `unable` takes in place of `submit`.
 */
export class UnablePersona1732200760000 implements MigrationInterface {
  name = 'UnablePersona1732200760000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_workers DROP CONSTRAINT sandbox_workers_persona_check`);
    await q.query(`ALTER TABLE sandbox_workers ADD CONSTRAINT sandbox_workers_persona_check CHECK (persona IN
      ('reliable', 'slow', 'abandons', 'declines_offers', 'photo_too_far', 'no_exif', 'wrong_answers',
       'reuses_photo', 'edited_exif', 'teleports', 'disputes_rejection', 'reports_unable'))`);
    await q.query(`ALTER TABLE sandbox_actions DROP CONSTRAINT sandbox_actions_step_check`);
    await q.query(`ALTER TABLE sandbox_actions ADD CONSTRAINT sandbox_actions_step_check
      CHECK (step IN ('accept', 'decline', 'start', 'submit', 'abandon', 'unable', 'dispute'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    // The previous version knows no outcome `unable`: such workers submit instead, as reliable ones do.
    await q.query(`UPDATE sandbox_workers SET behavior = jsonb_set(behavior, '{outcome}', '"submit"')
      WHERE behavior->>'outcome' = 'unable'`);
    await q.query(`DELETE FROM sandbox_actions WHERE step = 'unable'`);
    await q.query(`ALTER TABLE sandbox_actions DROP CONSTRAINT sandbox_actions_step_check`);
    await q.query(`ALTER TABLE sandbox_actions ADD CONSTRAINT sandbox_actions_step_check
      CHECK (step IN ('accept', 'decline', 'start', 'submit', 'abandon', 'dispute'))`);
    await q.query(`UPDATE sandbox_workers SET persona = NULL WHERE persona = 'reports_unable'`);
    await q.query(`ALTER TABLE sandbox_workers DROP CONSTRAINT sandbox_workers_persona_check`);
    await q.query(`ALTER TABLE sandbox_workers ADD CONSTRAINT sandbox_workers_persona_check CHECK (persona IN
      ('reliable', 'slow', 'abandons', 'declines_offers', 'photo_too_far', 'no_exif', 'wrong_answers',
       'reuses_photo', 'edited_exif', 'teleports', 'disputes_rejection'))`);
  }
}
