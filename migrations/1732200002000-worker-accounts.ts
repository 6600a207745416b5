import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Worker accounts: SMS codes learn "superseded" (a new send replaces the open code of the same phone and purpose,
 * and the partial unique index makes that an invariant rather than a habit), and the worker profile rules the
 * API validates are also held by the table.
 */
export class WorkerAccounts1732200002000 implements MigrationInterface {
  name = 'WorkerAccounts1732200002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sms_codes ADD COLUMN superseded_at timestamptz`);
    // Five wrong tries burn a code: the counter never goes past the limit.
    await q.query(
      `ALTER TABLE sms_codes ADD CONSTRAINT sms_codes_attempts_check CHECK (attempts BETWEEN 0 AND 5)`,
    );
    await q.query(
      `ALTER TABLE sms_codes ADD CONSTRAINT sms_codes_expiry_check CHECK (expires_at > created_at)`,
    );
    await q.query(
      `ALTER TABLE sms_codes ADD CONSTRAINT sms_codes_phone_check CHECK (phone_number ~ '^1[3-9][0-9]{9}$')`,
    );
    // At most one open (neither consumed nor superseded) code per phone and purpose.
    await q.query(
      `CREATE UNIQUE INDEX sms_codes_one_open_idx ON sms_codes (phone_number, purpose)
        WHERE consumed_at IS NULL AND superseded_at IS NULL`,
    );
    await q.query(
      `ALTER TABLE workers ADD CONSTRAINT workers_display_name_check
        CHECK (display_name IS NULL OR char_length(display_name) BETWEEN 1 AND 50)`,
    );
    await q.query(
      `ALTER TABLE workers ADD CONSTRAINT workers_skills_check CHECK (cardinality(skills) <= 20)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE workers DROP CONSTRAINT workers_skills_check`);
    await q.query(`ALTER TABLE workers DROP CONSTRAINT workers_display_name_check`);
    await q.query(`DROP INDEX sms_codes_one_open_idx`);
    await q.query(`ALTER TABLE sms_codes DROP CONSTRAINT sms_codes_phone_check`);
    await q.query(`ALTER TABLE sms_codes DROP CONSTRAINT sms_codes_expiry_check`);
    await q.query(`ALTER TABLE sms_codes DROP CONSTRAINT sms_codes_attempts_check`);
    await q.query(`ALTER TABLE sms_codes DROP COLUMN superseded_at`);
  }
}
