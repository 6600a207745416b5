import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The double-entry ledger. Accounts carry a cached balance; journals group postings that sum to zero; both journals
 * and postings are append-only (a correction is a new journal). What must stay true is enforced here, not only in
 * code: non-negative customer balances (CHECK), unique journal references (a retry cannot post twice), journals that
 * balance (a deferred constraint trigger checked at commit), and no UPDATE or DELETE of history (trigger).
 */
export class Ledger1732200003000 implements MigrationInterface {
  name = 'Ledger1732200003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger_accounts (
        id bigserial PRIMARY KEY,
        code text NOT NULL UNIQUE,
        kind text NOT NULL CHECK (kind IN ('agent_available', 'task_escrow', 'worker_available',
                                           'worker_withdrawing', 'platform_fees', 'provider_clearing')),
        owner_id uuid,
        agent_id uuid,
        balance bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        -- Clearing accounts mirror money in transit with the outside world and may go negative; nothing else may.
        CONSTRAINT ledger_accounts_non_negative CHECK (kind = 'provider_clearing' OR balance >= 0)
      )`);
    await q.query(
      `CREATE INDEX ledger_accounts_agent_idx ON ledger_accounts (agent_id, kind) WHERE agent_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ledger_accounts_owner_idx ON ledger_accounts (owner_id) WHERE owner_id IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE ledger_journals (
        id bigserial PRIMARY KEY,
        reference text NOT NULL UNIQUE,
        kind text NOT NULL CHECK (kind IN ('deposit', 'escrow_hold', 'slot_release', 'slot_refund',
                                           'cancel_compensation', 'withdrawal_start', 'withdrawal_complete',
                                           'withdrawal_fail', 'payer_refund')),
        agent_id uuid,
        worker_id uuid,
        task_id uuid,
        order_id text,
        description text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX ledger_journals_agent_idx ON ledger_journals (agent_id, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX ledger_journals_worker_idx ON ledger_journals (worker_id, created_at DESC, id DESC)`,
    );
    await q.query(`CREATE INDEX ledger_journals_task_idx ON ledger_journals (task_id)`);

    await q.query(`
      CREATE TABLE ledger_postings (
        id bigserial PRIMARY KEY,
        journal_id bigint NOT NULL REFERENCES ledger_journals (id),
        account_id bigint NOT NULL REFERENCES ledger_accounts (id),
        amount bigint NOT NULL CHECK (amount <> 0)
      )`);
    await q.query(`CREATE INDEX ledger_postings_journal_idx ON ledger_postings (journal_id)`);
    await q.query(`CREATE INDEX ledger_postings_account_idx ON ledger_postings (account_id)`);

    await q.query(`
      CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ledger history is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
      END $$`);
    await q.query(`CREATE TRIGGER ledger_journals_append_only BEFORE UPDATE OR DELETE ON ledger_journals
                   FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`);
    await q.query(`CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings
                   FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`);

    await q.query(`
      CREATE FUNCTION ledger_journal_balances() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE total bigint;
      BEGIN
        SELECT COALESCE(sum(amount), 0) INTO total FROM ledger_postings WHERE journal_id = NEW.journal_id;
        IF total <> 0 THEN
          RAISE EXCEPTION 'ledger journal % does not balance (sum %)', NEW.journal_id, total;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE CONSTRAINT TRIGGER ledger_postings_balance AFTER INSERT ON ledger_postings
                   DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_journal_balances()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ledger_postings, ledger_journals, ledger_accounts`);
    await q.query(`DROP FUNCTION ledger_journal_balances(), ledger_append_only()`);
  }
}
