import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox persona `disputes_rejection` (product-decisions §19): a simulated worker that disputes a rejection of
 * its result, through the sandbox action step `dispute`.
 */
export class DisputesPersona1732200711000 implements MigrationInterface {
  name = 'DisputesPersona1732200711000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_workers DROP CONSTRAINT sandbox_workers_persona_check`);
    await q.query(`ALTER TABLE sandbox_workers ADD CONSTRAINT sandbox_workers_persona_check CHECK (persona IN
      ('reliable', 'slow', 'abandons', 'declines_offers', 'photo_too_far', 'no_exif', 'wrong_answers',
       'reuses_photo', 'edited_exif', 'teleports', 'disputes_rejection'))`);
    await q.query(`ALTER TABLE sandbox_actions DROP CONSTRAINT sandbox_actions_step_check`);
    await q.query(`ALTER TABLE sandbox_actions ADD CONSTRAINT sandbox_actions_step_check
      CHECK (step IN ('accept', 'decline', 'start', 'submit', 'abandon', 'dispute'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sandbox_actions WHERE step = 'dispute'`);
    await q.query(`ALTER TABLE sandbox_actions DROP CONSTRAINT sandbox_actions_step_check`);
    await q.query(`ALTER TABLE sandbox_actions ADD CONSTRAINT sandbox_actions_step_check
      CHECK (step IN ('accept', 'decline', 'start', 'submit', 'abandon'))`);
    await q.query(`UPDATE sandbox_workers SET persona = NULL WHERE persona = 'disputes_rejection'`);
    await q.query(`ALTER TABLE sandbox_workers DROP CONSTRAINT sandbox_workers_persona_check`);
    await q.query(`ALTER TABLE sandbox_workers ADD CONSTRAINT sandbox_workers_persona_check CHECK (persona IN
      ('reliable', 'slow', 'abandons', 'declines_offers', 'photo_too_far', 'no_exif', 'wrong_answers',
       'reuses_photo', 'edited_exif', 'teleports'))`);
  }
}
