import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workers hear of their money through the offer ladder (product-decisions §19, "Also"; the ladder is §16).
 *
 * - `worker_notifications`: one row per money event of a worker (paid, "could not do it" accepted, rejected with the
 *   agent's reason, a dispute decided, a cancellation's compensation), written where the outbox event is published
 *   and keyed by that event (`event_id` unique), so an event published again cannot notify twice. The worker reads
 *   them (GET /v1/worker/notifications); `read_at` is theirs to set. No foreign key to `events`: the outbox is the
 *   delivery log, the notification is the worker's record and outlives it.
 * - `worker_notification_deliveries`: how each notification went on each channel of the ladder, one row per
 *   notification and channel (the primary key), like offer_deliveries: a channel that already has its row does not
 *   send again, whatever its job reruns. `waiting` is an SMS held for the end of the quiet hours.
 * - `workers.money_sms_enabled`: SMS about money only for a worker who asked for them (off by default; offer SMS
 *   keep their own switch). The sandbox outbox learns the `money` template.
 */
export class WorkerNotifications1732200770000 implements MigrationInterface {
  name = 'WorkerNotifications1732200770000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE worker_notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        event_id uuid NOT NULL UNIQUE,
        worker_id uuid NOT NULL REFERENCES workers (id),
        kind text NOT NULL
          CHECK (kind IN ('paid', 'unable_paid', 'rejected', 'dispute_decided', 'compensated')),
        assignment_id uuid NOT NULL REFERENCES assignments (id),
        task_id uuid NOT NULL REFERENCES tasks (id),
        amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
        reason_code text CHECK (char_length(reason_code) <= 64),
        reason_text text CHECK (char_length(reason_text) <= 2000),
        dispute_outcome text CHECK (dispute_outcome IN ('upheld', 'overturned', 'split')),
        created_at timestamptz NOT NULL,
        read_at timestamptz,
        CHECK ((kind = 'dispute_decided') = (dispute_outcome IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX worker_notifications_worker_idx
                     ON worker_notifications (worker_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX worker_notifications_unread_idx
                     ON worker_notifications (worker_id) WHERE read_at IS NULL`);

    await q.query(`
      CREATE TABLE worker_notification_deliveries (
        notification_id uuid NOT NULL REFERENCES worker_notifications (id) ON DELETE CASCADE,
        channel text NOT NULL CHECK (channel IN ('socket', 'push', 'sms')),
        status text NOT NULL CHECK (status IN ('sent', 'no_connection', 'failed', 'skipped', 'waiting')),
        sent_at timestamptz NOT NULL,
        detail text CHECK (char_length(detail) <= 200),
        attempts integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (notification_id, channel),
        CHECK (status <> 'waiting' OR channel = 'sms')
      )`);

    await q.query(`ALTER TABLE workers ADD COLUMN money_sms_enabled boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE sandbox_sms DROP CONSTRAINT sandbox_sms_template_check,
      ADD CONSTRAINT sandbox_sms_template_check CHECK (template IN ('verification_code', 'offer', 'money'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    // The sandbox outbox's money SMS go with the template (sandbox data only).
    await q.query(`DELETE FROM sandbox_sms WHERE template = 'money'`);
    await q.query(`ALTER TABLE sandbox_sms DROP CONSTRAINT sandbox_sms_template_check,
      ADD CONSTRAINT sandbox_sms_template_check CHECK (template IN ('verification_code', 'offer'))`);
    await q.query(`ALTER TABLE workers DROP COLUMN money_sms_enabled`);
    await q.query(`DROP TABLE worker_notification_deliveries`);
    await q.query(`DROP TABLE worker_notifications`);
  }
}
