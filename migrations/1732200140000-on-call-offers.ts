import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * On call and offers (product-decisions §16).
 *
 * - `worker_availability.on_call_until`: a worker is on call while `online` and until this time (each `online: true`
 *   report sets it ON_CALL_HOURS ahead), instead of 10 minutes after its last report. Matching also needs the
 *   position to be fresh (`position_at`, at most 30 minutes old); neither needs anything to run when time passes.
 *   Rows online now keep what they were promised: 10 minutes after their last report.
 * - `assignments.offer_ended_at`: when an offer stopped waiting (accepted, declined, lapsed or withdrawn). The
 *   matcher's responsiveness is the time from offer to that answer; it read `accepted_at`, then `closed_at`, which a
 *   declined or lapsed offer taken later from the list (the same row, now accepted) no longer keeps.
 * - `assignments.offer_distance_meters`, `offer_reputation`, `offer_response`: why the offer went to this worker
 *   (the ranking's inputs when it was made), shown with the offer.
 * - `offer_deliveries`: one row per offer and channel (socket now; Web Push and SMS next), so each offer says how it
 *   reached the worker. A retry of a channel updates its row (`attempts`).
 * - `assignments_worker_deadline_idx` also carries `status`: the nearby search now lists a task whose offer the
 *   worker declined or let lapse, and reads which of its assignments those are from the same index range.
 */
export class OnCallOffers1732200140000 implements MigrationInterface {
  name = 'OnCallOffers1732200140000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE worker_availability ADD COLUMN on_call_until timestamptz`);
    await q.query(
      `UPDATE worker_availability SET on_call_until = last_seen_at + interval '10 minutes' WHERE online`,
    );
    await q.query(`ALTER TABLE worker_availability
                     ADD CONSTRAINT worker_availability_on_call CHECK (online = (on_call_until IS NOT NULL))`);

    await q.query(`
      ALTER TABLE assignments
        ADD COLUMN offer_ended_at timestamptz,
        ADD COLUMN offer_distance_meters integer CHECK (offer_distance_meters >= 0),
        ADD COLUMN offer_reputation numeric(3, 2) CHECK (offer_reputation BETWEEN 0 AND 5),
        ADD COLUMN offer_response numeric(4, 3) CHECK (offer_response BETWEEN 0 AND 1)`);

    await q.query(`
      CREATE TABLE offer_deliveries (
        assignment_id uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
        channel text NOT NULL CHECK (channel IN ('socket', 'push', 'sms')),
        status text NOT NULL CHECK (status IN ('sent', 'no_connection', 'failed', 'skipped')),
        sent_at timestamptz NOT NULL,
        detail text CHECK (char_length(detail) <= 200),
        attempts integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (assignment_id, channel)
      )`);

    await q.query(`DROP INDEX assignments_worker_deadline_idx`);
    await q.query(`CREATE INDEX assignments_worker_deadline_idx ON assignments (worker_id, task_deadline_at)
                     INCLUDE (task_id, status)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX assignments_worker_deadline_idx`);
    await q.query(`CREATE INDEX assignments_worker_deadline_idx ON assignments (worker_id, task_deadline_at)
                     INCLUDE (task_id)`);
    await q.query(`DROP TABLE offer_deliveries`);
    await q.query(`ALTER TABLE assignments DROP COLUMN offer_ended_at, DROP COLUMN offer_distance_meters,
                     DROP COLUMN offer_reputation, DROP COLUMN offer_response`);
    await q.query(`ALTER TABLE worker_availability DROP CONSTRAINT worker_availability_on_call`);
    await q.query(`ALTER TABLE worker_availability DROP COLUMN on_call_until`);
  }
}
