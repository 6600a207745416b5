import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit record of operator credits (manual deposits, e.g. a bank transfer received): who credited whom, how
 * much, why, under which Idempotency-Key, and the balance right after, so a repeated request can answer with the
 * original body. One row per deposit journal, written in the same transaction; append-only like the ledger.
 */
export class AdminCredits1732200006000 implements MigrationInterface {
  name = 'AdminCredits1732200006000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE admin_credits (
        journal_id bigint PRIMARY KEY REFERENCES ledger_journals (id),
        admin_id uuid NOT NULL REFERENCES admins (id),
        agent_id uuid NOT NULL REFERENCES agents (id),
        amount_cents bigint NOT NULL CHECK (amount_cents BETWEEN 1 AND 100000000),
        reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
        idempotency_key text CHECK (char_length(idempotency_key) BETWEEN 1 AND 255),
        balance_after_cents bigint NOT NULL CHECK (balance_after_cents >= 0),
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX admin_credits_agent_idx ON admin_credits (agent_id, created_at DESC)`);
    await q.query(`CREATE TRIGGER admin_credits_append_only BEFORE UPDATE OR DELETE ON admin_credits
                   FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE admin_credits`);
  }
}
