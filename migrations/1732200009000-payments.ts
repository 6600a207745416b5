import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment orders (money in through a provider), their refunds (money back out to the payer) and worker withdrawals
 * (payouts). The money itself only moves in the ledger; these tables hold each flow's state machine, and the
 * constraints below keep the states honest whatever code path writes them:
 * - ids fit the providers' merchant-number rules (orders 32 characters, transfers letters and digits only);
 * - an order is paid exactly when it is completed or refunded, and refunds never exceed the order (cumulative);
 * - at most one open or completed order per task (a partial unique index, so concurrent creates cannot both win).
 * Also: the ledger learns one journal kind, `payer_refund_reversal` (a refund the provider refused or failed, whose
 * debit is returned to the agent).
 */
export class Payments1732200009000 implements MigrationInterface {
  name = 'Payments1732200009000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_orders (
        id text PRIMARY KEY CHECK (id ~ '^[0-9A-Za-z_-]{6,32}$'),
        agent_id uuid NOT NULL REFERENCES agents (id),
        -- Reference-surface orders pay for a task; recharges have none.
        task_id uuid REFERENCES tasks (id),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL CHECK (currency IN ('CNY', 'USD')),
        -- USD orders: CNY per USD in millionths, fixed when the order is made.
        fx_rate_micros bigint CHECK (fx_rate_micros > 0),
        -- What the provider charges, always CNY cents; the ledger credits exactly this.
        provider_amount_cents bigint NOT NULL CHECK (provider_amount_cents > 0),
        payment_method text NOT NULL CHECK (payment_method IN ('alipay', 'wechat', 'card', 'bank_transfer')),
        -- Where the money settles (its ledger clearing account): cards are taken by Alipay's cashier.
        provider text NOT NULL CHECK (provider IN ('alipay', 'wechat', 'bank')),
        payment_type text CHECK (payment_type IN ('page', 'wap', 'qr', 'native', 'jsapi', 'h5')),
        status text NOT NULL CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'expired', 'refunded')),
        -- Refunds requested and not failed, in the order's currency and in provider CNY cents.
        refunded_cents bigint NOT NULL DEFAULT 0,
        provider_refunded_cents bigint NOT NULL DEFAULT 0,
        payment_url text,
        qr_code_url text,
        jsapi_params jsonb,
        return_url text,
        callback_url text,
        metadata jsonb NOT NULL DEFAULT '{}',
        provider_txn_id text,
        failure_reason text,
        expires_at timestamptz NOT NULL,
        paid_at timestamptz,
        closed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT payment_orders_fx CHECK (
             (currency = 'CNY' AND fx_rate_micros IS NULL AND provider_amount_cents = amount_cents)
          OR (currency = 'USD' AND fx_rate_micros IS NOT NULL)),
        CONSTRAINT payment_orders_method_provider CHECK (
             (payment_method IN ('alipay', 'card') AND provider = 'alipay' AND payment_type IN ('page', 'wap', 'qr'))
          OR (payment_method = 'wechat' AND provider = 'wechat' AND payment_type IN ('native', 'jsapi', 'h5'))
          OR (payment_method = 'bank_transfer' AND provider = 'bank' AND payment_type IS NULL)),
        CONSTRAINT payment_orders_paid CHECK ((status IN ('completed', 'refunded')) = (paid_at IS NOT NULL)),
        CONSTRAINT payment_orders_closed CHECK ((status IN ('failed', 'expired')) = (closed_at IS NOT NULL)),
        CONSTRAINT payment_orders_refund_bounds CHECK (
              refunded_cents BETWEEN 0 AND amount_cents
          AND provider_refunded_cents BETWEEN 0 AND provider_amount_cents
          AND (refunded_cents = 0 OR status IN ('completed', 'refunded'))
          AND (status <> 'refunded' OR refunded_cents = amount_cents)),
        CONSTRAINT payment_orders_expiry CHECK (expires_at > created_at)
      )`);
    await q.query(`CREATE UNIQUE INDEX payment_orders_one_live_per_task ON payment_orders (task_id)
                   WHERE task_id IS NOT NULL AND status IN ('pending', 'processing', 'completed')`);
    // The agent's orders by time: daily limit sums and the transaction list's pending/failed rows.
    await q.query(
      `CREATE INDEX payment_orders_agent_idx ON payment_orders (agent_id, created_at DESC, id DESC)`,
    );
    // The expiry sweep and reconciliation scan open orders.
    await q.query(`CREATE INDEX payment_orders_open_idx ON payment_orders (expires_at)
                   WHERE status IN ('pending', 'processing')`);
    await q.query(`CREATE UNIQUE INDEX payment_orders_provider_txn ON payment_orders (provider, provider_txn_id)
                   WHERE provider_txn_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE payment_refunds (
        id text PRIMARY KEY CHECK (id ~ '^[0-9A-Za-z_-]{6,64}$'),
        order_id text NOT NULL REFERENCES payment_orders (id),
        agent_id uuid NOT NULL REFERENCES agents (id),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        provider_amount_cents bigint NOT NULL CHECK (provider_amount_cents > 0),
        reason_code text NOT NULL
          CHECK (reason_code IN ('task_cancelled', 'quality_issue', 'task_failed', 'duplicate_payment', 'other')),
        reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
        refund_method text NOT NULL CHECK (refund_method = 'original'),
        status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
        provider_refund_id text,
        failure_reason text,
        completed_at timestamptz,
        failed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT payment_refunds_completed CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
        CONSTRAINT payment_refunds_failed CHECK ((status = 'failed') = (failed_at IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX payment_refunds_order_idx ON payment_refunds (order_id, created_at)`);
    await q.query(
      `CREATE INDEX payment_refunds_processing_idx ON payment_refunds (created_at) WHERE status = 'processing'`,
    );

    await q.query(`
      CREATE TABLE withdrawals (
        id text PRIMARY KEY CHECK (id ~ '^[0-9A-Za-z]{6,32}$'),
        worker_id uuid NOT NULL REFERENCES workers (id),
        amount_cents bigint NOT NULL CHECK (amount_cents >= 1000),
        provider text NOT NULL CHECK (provider = 'alipay'),
        payee_account text NOT NULL CHECK (char_length(payee_account) BETWEEN 1 AND 100),
        payee_name text CHECK (char_length(payee_name) BETWEEN 1 AND 50),
        status text NOT NULL
          CHECK (status IN ('pending_review', 'processing', 'completed', 'failed', 'rejected')),
        -- Why an operator must look first: large amount or the worker's first withdrawal; null when none.
        review_reason text CHECK (review_reason IN ('large_amount', 'first_withdrawal')),
        reviewed_by uuid REFERENCES admins (id),
        reviewed_at timestamptz,
        rejection_reason text CHECK (char_length(rejection_reason) BETWEEN 1 AND 500),
        provider_transfer_id text,
        failure_reason text,
        completed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT withdrawals_review CHECK (status <> 'pending_review' OR review_reason IS NOT NULL),
        CONSTRAINT withdrawals_rejected CHECK ((status = 'rejected') = (rejection_reason IS NOT NULL)),
        CONSTRAINT withdrawals_completed CHECK ((status = 'completed') = (completed_at IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX withdrawals_worker_idx ON withdrawals (worker_id, created_at DESC)`);
    await q.query(`CREATE INDEX withdrawals_status_idx ON withdrawals (status, created_at)`);

    await q.query(`ALTER TABLE ledger_journals DROP CONSTRAINT ledger_journals_kind_check`);
    await q.query(`ALTER TABLE ledger_journals ADD CONSTRAINT ledger_journals_kind_check
      CHECK (kind IN ('deposit', 'escrow_hold', 'slot_release', 'slot_refund', 'cancel_compensation',
                      'withdrawal_start', 'withdrawal_complete', 'withdrawal_fail', 'payer_refund',
                      'payer_refund_reversal'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_journals DROP CONSTRAINT ledger_journals_kind_check`);
    await q.query(`ALTER TABLE ledger_journals ADD CONSTRAINT ledger_journals_kind_check
      CHECK (kind IN ('deposit', 'escrow_hold', 'slot_release', 'slot_refund', 'cancel_compensation',
                      'withdrawal_start', 'withdrawal_complete', 'withdrawal_fail', 'payer_refund'))`);
    await q.query(`DROP TABLE withdrawals, payment_refunds, payment_orders`);
  }
}
