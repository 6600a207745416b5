import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tasks, their assignments (one per worker holding a slot), the event outbox and stored idempotent responses.
 * Task status is stored and changed only in the transaction that changes its assignments (product-decisions §4).
 */
export class Tasks1732200004000 implements MigrationInterface {
  name = 'Tasks1732200004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tasks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        agent_id uuid NOT NULL REFERENCES agents (id),
        title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
        description text NOT NULL,
        task_type text NOT NULL CHECK (task_type IN ('photo', 'verification', 'data_collection', 'delivery', 'other')),
        latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
        longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
        address text,
        max_distance_meters integer NOT NULL DEFAULT 1000 CHECK (max_distance_meters > 0),
        budget_cents bigint NOT NULL CHECK (budget_cents >= 1000),
        max_workers integer NOT NULL DEFAULT 1 CHECK (max_workers BETWEEN 1 AND 10),
        fee_bps integer NOT NULL CHECK (fee_bps BETWEEN 0 AND 10000),
        payout_cents bigint NOT NULL CHECK (payout_cents >= 0),
        fee_cents bigint NOT NULL CHECK (fee_cents >= 0),
        total_cents bigint NOT NULL,
        required_skills text[] NOT NULL DEFAULT '{}',
        min_reputation numeric(2, 1) CHECK (min_reputation BETWEEN 0 AND 5),
        metadata jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'assigned', 'in_progress', 'submitted', 'completed', 'failed', 'cancelled')),
        idempotency_key text,
        deadline_at timestamptz NOT NULL,
        estimated_completion_at timestamptz NOT NULL,
        completed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT tasks_cost_split CHECK (payout_cents + fee_cents = budget_cents AND total_cents = budget_cents * max_workers)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX tasks_idempotency_key ON tasks (agent_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    // Agent task lists: newest first with a keyset cursor, optionally by status.
    await q.query(`CREATE INDEX tasks_agent_list_idx ON tasks (agent_id, created_at DESC, id DESC)`);
    await q.query(
      `CREATE INDEX tasks_agent_status_idx ON tasks (agent_id, status, created_at DESC, id DESC)`,
    );
    // The deadline job scans live tasks by deadline.
    await q.query(`CREATE INDEX tasks_live_deadline_idx ON tasks (deadline_at)
                   WHERE status IN ('pending', 'assigned', 'in_progress', 'submitted')`);

    await q.query(`
      CREATE TABLE assignments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES tasks (id),
        worker_id uuid NOT NULL REFERENCES workers (id),
        status text NOT NULL CHECK (status IN ('pending', 'accepted', 'in_progress', 'submitted', 'approved', 'rejected',
                                               'declined', 'expired', 'abandoned', 'cancelled')),
        offered_at timestamptz,
        offer_expires_at timestamptz,
        accepted_at timestamptz,
        started_at timestamptz,
        submitted_at timestamptz,
        reviewed_at timestamptz,
        closed_at timestamptz,
        result_data jsonb,
        worker_notes text,
        photos jsonb NOT NULL DEFAULT '[]',
        rating integer CHECK (rating BETWEEN 1 AND 5),
        quality_score numeric(2, 1) CHECK (quality_score BETWEEN 0 AND 5),
        feedback_text text CHECK (char_length(feedback_text) <= 500),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        -- A worker holds at most one assignment per task, whatever became of it.
        CONSTRAINT assignments_one_per_worker UNIQUE (task_id, worker_id)
      )`);
    await q.query(`CREATE INDEX assignments_task_idx ON assignments (task_id)`);
    await q.query(`CREATE INDEX assignments_worker_idx ON assignments (worker_id, status, created_at DESC)`);
    await q.query(
      `CREATE INDEX assignments_live_offer_idx ON assignments (offer_expires_at) WHERE status = 'pending'`,
    );

    // The outbox: every task/assignment/payment event is written here in the transaction that causes it.
    await q.query(`
      CREATE TABLE events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        agent_id uuid,
        worker_id uuid,
        task_id uuid,
        data jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        published_at timestamptz
      )`);
    await q.query(`CREATE INDEX events_agent_idx ON events (agent_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX events_worker_idx ON events (worker_id, created_at DESC)`);
    await q.query(`CREATE INDEX events_unpublished_idx ON events (created_at) WHERE published_at IS NULL`);

    // Stored responses for the Idempotency-Key header (any agent POST/PUT/PATCH/DELETE), kept 24 hours.
    await q.query(`
      CREATE TABLE idempotency_keys (
        agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
        request_hash text NOT NULL,
        status_code integer,
        response jsonb,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (agent_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys, events, assignments, tasks`);
  }
}
