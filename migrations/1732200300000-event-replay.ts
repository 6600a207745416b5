import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A socket that reconnects names the last event it saw and is sent every later event of its account, in seq order
 * (src/events/gateway/event-replay.ts). events_agent_idx orders an agent's events by created_at, which is not seq's
 * order (created_at is the transaction's clock, a sandbox test clock's among them); these two let the replay read
 * "this account's events after seq N" as one index range, however many events the account has.
 */
export class EventReplay1732200300000 implements MigrationInterface {
  name = 'EventReplay1732200300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX events_agent_seq_idx ON events (agent_id, seq) WHERE agent_id IS NOT NULL`);
    await q.query(
      `CREATE INDEX events_worker_seq_idx ON events (worker_id, seq) WHERE worker_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX events_worker_seq_idx`);
    await q.query(`DROP INDEX events_agent_seq_idx`);
  }
}
