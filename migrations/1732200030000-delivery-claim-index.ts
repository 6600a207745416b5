import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery claim orders due deliveries by (next_attempt_at, event_seq) and takes the first 20. With an index on
 * next_attempt_at alone, a backlog whose rows share a next_attempt_at (a burst published in one batch, or retries
 * that fall due together) had to be read and sorted whole: 60 ms per claim at 60,000 pending, against 0.2 ms with
 * the index matching the ORDER BY, which lets the claim stop after its 20 rows (measured with EXPLAIN ANALYZE on
 * PostgreSQL 15). Plain CREATE INDEX: migrations run in a transaction, and the queue holds only pending rows.
 */
export class DeliveryClaimIndex1732200030000 implements MigrationInterface {
  name = 'DeliveryClaimIndex1732200030000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_deliveries_claim_idx ON webhook_deliveries (next_attempt_at, event_seq)
                   WHERE status = 'pending'`);
    await q.query(`DROP INDEX webhook_deliveries_due_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
                   WHERE status = 'pending'`);
    await q.query(`DROP INDEX webhook_deliveries_claim_idx`);
  }
}
