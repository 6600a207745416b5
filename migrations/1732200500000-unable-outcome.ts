import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "Could not do it" (product-decisions §19): a task's `unable_payout_percent` (0-50, default 20) is the share of a
 * slot's budget an accepted unable report pays (less the fee on that share); an assignment's `outcome` says whether
 * its submission is a result (`done`) or such a report (`unable`, with its reason). Existing rows are `done` with the
 * default percentage, so they behave exactly as before.
 */
export class UnableOutcome1732200500000 implements MigrationInterface {
  name = 'UnableOutcome1732200500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks ADD COLUMN unable_payout_percent integer NOT NULL DEFAULT 20
                     CONSTRAINT tasks_unable_payout_percent_range CHECK (unable_payout_percent BETWEEN 0 AND 50)`);
    await q.query(`ALTER TABLE assignments
      ADD COLUMN outcome text NOT NULL DEFAULT 'done' CHECK (outcome IN ('done', 'unable')),
      ADD COLUMN unable_reason text CHECK (unable_reason IN ('closed', 'not_found', 'no_access', 'unsafe', 'other')),
      ADD CONSTRAINT assignments_unable_has_reason CHECK ((outcome = 'unable') = (unable_reason IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE assignments DROP CONSTRAINT assignments_unable_has_reason,
                                           DROP COLUMN unable_reason, DROP COLUMN outcome`);
    await q.query(`ALTER TABLE tasks DROP COLUMN unable_payout_percent`);
  }
}
