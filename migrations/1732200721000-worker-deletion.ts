import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account deletion (PIPL art. 47; product-decisions §19). A deleted worker's row stays, as the pseudonym the ledger,
 * assignments and ratings point to: its phone number becomes `deleted:<id>` (the unique login key, so the number is
 * free again and nothing of it is kept), `deleted_at` is set and the account is closed.
 *
 * `withdrawal_identity_holds` keeps the payee of a deleted worker's withdrawals (account and name) out of the
 * withdrawals table, which every route reads, for the statutory period (`held_until`); nothing in the service reads
 * it, and the hold is erased when the period ends.
 *
 * Withdrawal journals named the payee in their description, which may be a phone number: the append-only ledger
 * could then never forget it. New journals name only the withdrawal; the old descriptions lose the payee here, the
 * one rewrite of the ledger's text (amounts and accounts are untouched), with its guard lifted for the statement.
 */
export class WorkerDeletion1732200721000 implements MigrationInterface {
  name = 'WorkerDeletion1732200721000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE workers ADD COLUMN deleted_at timestamptz,
                     ADD CONSTRAINT workers_deleted_closed CHECK (deleted_at IS NULL OR account_status = 'closed'),
                     DROP CONSTRAINT workers_phone_number_check,
                     ADD CONSTRAINT workers_phone_number_check CHECK (
                       phone_number ~ '^1[3-9][0-9]{9}$'
                       OR (simulated_by_agent_id IS NOT NULL AND phone_number ~ '^sandbox:[0-9a-f-]{36}$')
                       OR (deleted_at IS NOT NULL AND phone_number ~ '^deleted:[0-9a-f-]{36}$'))`);
    await q.query(`
      CREATE TABLE withdrawal_identity_holds (
        withdrawal_id text PRIMARY KEY REFERENCES withdrawals (id),
        payee_account text NOT NULL,
        payee_name text,
        held_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX withdrawal_identity_holds_until ON withdrawal_identity_holds (held_until)`);
    await q.query(`ALTER TABLE ledger_journals DISABLE TRIGGER ledger_journals_append_only`);
    await q.query(`UPDATE ledger_journals
                      SET description = regexp_replace(description, ' Alipay account .*$', ' Alipay')
                    WHERE description ~ '^Withdrawal [0-9A-Za-z]+ (paid )?to Alipay account '`);
    await q.query(`ALTER TABLE ledger_journals ENABLE TRIGGER ledger_journals_append_only`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE withdrawal_identity_holds`);
    await q.query(`ALTER TABLE workers DROP CONSTRAINT workers_phone_number_check,
                     ADD CONSTRAINT workers_phone_number_check CHECK (
                       phone_number ~ '^1[3-9][0-9]{9}$'
                       OR (simulated_by_agent_id IS NOT NULL AND phone_number ~ '^sandbox:[0-9a-f-]{36}$')),
                     DROP CONSTRAINT workers_deleted_closed, DROP COLUMN deleted_at`);
  }
}
