import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox persona `wrong_answers` (product-decisions §17): a simulated worker whose answers break the task's
 * answer_schema, so an agent sees the refusal (400 answer_invalid) its own integration must handle. The persona list
 * is src/simulation/behaviors.ts's PERSONAS; the CHECK keeps the table to it.
 */
export class WrongAnswersPersona1732200201000 implements MigrationInterface {
  name = 'WrongAnswersPersona1732200201000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_workers DROP CONSTRAINT sandbox_workers_persona_check`);
    await q.query(`ALTER TABLE sandbox_workers ADD CONSTRAINT sandbox_workers_persona_check CHECK (persona IN
      ('reliable', 'slow', 'abandons', 'declines_offers', 'photo_too_far', 'no_exif', 'wrong_answers'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE sandbox_workers SET persona = NULL WHERE persona = 'wrong_answers'`);
    await q.query(`ALTER TABLE sandbox_workers DROP CONSTRAINT sandbox_workers_persona_check`);
    await q.query(`ALTER TABLE sandbox_workers ADD CONSTRAINT sandbox_workers_persona_check CHECK (persona IN
      ('reliable', 'slow', 'abandons', 'declines_offers', 'photo_too_far', 'no_exif'))`);
  }
}
