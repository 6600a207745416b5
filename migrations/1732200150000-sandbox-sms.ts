import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox's SMS outbox (product-decisions §16): what sandbox mode "sends" (verification codes and offer links)
 * instead of sending it. A worker reads the messages sent to their own number (GET /v1/sandbox/sms); they are kept
 * 7 days. Nothing is written here in live mode.
 */
export class SandboxSms1732200150000 implements MigrationInterface {
  name = 'SandboxSms1732200150000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_sms (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        phone_number text NOT NULL,
        template text NOT NULL CHECK (template IN ('verification_code', 'offer')),
        params jsonb NOT NULL,
        text text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sandbox_sms_phone ON sandbox_sms (phone_number, created_at DESC)`);
    await q.query(`CREATE INDEX sandbox_sms_created ON sandbox_sms (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_sms`);
  }
}
