import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Offers that reach a closed app (product-decisions §16): Web Push subscriptions, and the worker's choice about offer SMS.
 *
 * - push_subscriptions: one row per browser (its PushSubscription). The endpoint is unique: a phone that another
 *   worker signs in on registers the same endpoint again, which then moves to that worker, so nobody gets another's
 *   offers. The keys are what the payload is encrypted to (RFC 8291), stored as unpadded base64url (a 65-byte point,
 *   a 16-byte secret); they are the browser's, not secrets of ours. A push service answering 404 or 410 deletes the
 *   row.
 * - workers.offer_sms_enabled: offer SMS are on until the worker turns them off (PUT /v1/worker/notification-settings).
 */
export class PushSubscriptions1732200151000 implements MigrationInterface {
  name = 'PushSubscriptions1732200151000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE workers ADD COLUMN offer_sms_enabled boolean NOT NULL DEFAULT true`);
    await q.query(`
      CREATE TABLE push_subscriptions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        worker_id uuid NOT NULL REFERENCES workers(id) ON DELETE CASCADE,
        endpoint text NOT NULL UNIQUE CHECK (char_length(endpoint) BETWEEN 1 AND 2048),
        p256dh text NOT NULL CHECK (char_length(p256dh) = 87),
        auth text NOT NULL CHECK (char_length(auth) = 22),
        locale text NOT NULL CHECK (locale IN ('zh-CN', 'en')),
        expires_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX push_subscriptions_worker ON push_subscriptions (worker_id, updated_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE push_subscriptions`);
    await q.query(`ALTER TABLE workers DROP COLUMN offer_sms_enabled`);
  }
}
