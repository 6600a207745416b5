import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owed, never negative (product-decisions §19). A dispute decision charges the agent's balance outside escrow; when
 * the balance is short, the shortfall is advanced by the platform (`platform:advances`, which may go negative: the
 * platform's own money paid out) and recorded as the agent's debt, `agent:{id}:owed` (never below 0), against
 * `platform:credit` (its mirror, never above 0: owed = -credit, per agent and in total, which the ledger check
 * verifies). Later credits to the agent repay the debt first (`owed_repayment`). Dispute money moves as
 * `dispute_settlement` journals.
 */
export class AgentOwed1732200510000 implements MigrationInterface {
  name = 'AgentOwed1732200510000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check,
      ADD CONSTRAINT ledger_accounts_kind_check CHECK (kind IN ('agent_available', 'task_escrow', 'worker_available',
        'worker_withdrawing', 'platform_fees', 'provider_clearing', 'agent_owed', 'platform_credit', 'platform_advances')),
      DROP CONSTRAINT ledger_accounts_non_negative,
      ADD CONSTRAINT ledger_accounts_non_negative CHECK (
        kind IN ('provider_clearing', 'platform_credit', 'platform_advances') OR balance >= 0),
      ADD CONSTRAINT ledger_accounts_credit_not_positive CHECK (kind <> 'platform_credit' OR balance <= 0)`);
    await q.query(`ALTER TABLE ledger_journals DROP CONSTRAINT ledger_journals_kind_check,
      ADD CONSTRAINT ledger_journals_kind_check
      CHECK (kind IN ('deposit', 'escrow_hold', 'slot_release', 'slot_refund', 'cancel_compensation',
                      'withdrawal_start', 'withdrawal_complete', 'withdrawal_fail', 'payer_refund',
                      'payer_refund_reversal', 'dispute_settlement', 'owed_repayment'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_journals DROP CONSTRAINT ledger_journals_kind_check,
      ADD CONSTRAINT ledger_journals_kind_check
      CHECK (kind IN ('deposit', 'escrow_hold', 'slot_release', 'slot_refund', 'cancel_compensation',
                      'withdrawal_start', 'withdrawal_complete', 'withdrawal_fail', 'payer_refund',
                      'payer_refund_reversal'))`);
    await q.query(`ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_credit_not_positive,
      DROP CONSTRAINT ledger_accounts_non_negative,
      ADD CONSTRAINT ledger_accounts_non_negative CHECK (kind = 'provider_clearing' OR balance >= 0),
      DROP CONSTRAINT ledger_accounts_kind_check,
      ADD CONSTRAINT ledger_accounts_kind_check CHECK (kind IN ('agent_available', 'task_escrow', 'worker_available',
        'worker_withdrawing', 'platform_fees', 'provider_clearing'))`);
  }
}
