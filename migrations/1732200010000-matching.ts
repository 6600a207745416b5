import { MigrationInterface, QueryRunner } from 'typeorm';

const LIVE = `('pending', 'assigned', 'in_progress', 'submitted')`;

/**
 * Matching and trust: the spatial index behind nearby search, the open-slot count it filters on, stored worker
 * reputation, worker availability (position and presence for push offers) and the worker-to-agent ratings.
 *
 * `cube` and `earthdistance` ship with PostgreSQL's contrib (the embedded server and Debian's postgresql-contrib)
 * and are trusted extensions, so a database owner may create them without superuser rights.
 */
export class Matching1732200010000 implements MigrationInterface {
  name = 'Matching1732200010000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS cube`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS earthdistance`);

    // Open slots are stored like the status: recomputed by TaskSettlement.settle in every transaction that changes
    // a task's assignments, so the nearby search filters on a column instead of counting assignments per task.
    await q.query(`ALTER TABLE tasks ADD COLUMN open_slots integer NOT NULL DEFAULT 0,
                   ADD CONSTRAINT tasks_open_slots_range CHECK (open_slots BETWEEN 0 AND max_workers)`);
    await q.query(`
      UPDATE tasks t SET open_slots = GREATEST(0, t.max_workers - t.closed_slots - (
        SELECT count(*) FROM assignments a WHERE a.task_id = t.id
           AND (a.status IN ('pending', 'accepted', 'in_progress', 'submitted') OR a.slot_settlement IS NOT NULL)))
       WHERE t.intake_closed_at IS NULL AND t.status IN ${LIVE}`);
    // Nearby search: only tasks a worker could take now are in the index. Queries must repeat this predicate
    // literally (see src/matching/nearby-tasks.query.ts) for the planner to use it.
    await q.query(`CREATE INDEX tasks_open_nearby_gist ON tasks USING gist (ll_to_earth(latitude, longitude))
                   WHERE intake_closed_at IS NULL AND open_slots > 0 AND status IN ${LIVE}`);

    // Reputation (product-decisions §5), recomputed in the transaction of every outcome; the parts are kept for display.
    await q.query(`
      ALTER TABLE workers
        ADD COLUMN reputation numeric(3, 2) NOT NULL DEFAULT 4.00 CHECK (reputation BETWEEN 0 AND 5),
        ADD COLUMN finished_tasks integer NOT NULL DEFAULT 0 CHECK (finished_tasks >= 0),
        ADD COLUMN approved_tasks integer NOT NULL DEFAULT 0 CHECK (approved_tasks BETWEEN 0 AND finished_tasks),
        ADD COLUMN rating_count integer NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
        ADD COLUMN rating_average numeric(3, 2) CHECK (rating_average BETWEEN 0 AND 5),
        ADD COLUMN median_response_seconds integer CHECK (median_response_seconds >= 0),
        ADD COLUMN reputation_updated_at timestamptz`);

    // Presence and last known position, apart from the workers row: reports arrive every few minutes per online
    // worker and must not contend with the worker row lock that accepts and offers take.
    await q.query(`
      CREATE TABLE worker_availability (
        worker_id uuid PRIMARY KEY REFERENCES workers (id) ON DELETE CASCADE,
        online boolean NOT NULL,
        latitude double precision CHECK (latitude BETWEEN -90 AND 90),
        longitude double precision CHECK (longitude BETWEEN -180 AND 180),
        position_at timestamptz,
        last_seen_at timestamptz NOT NULL,
        CONSTRAINT worker_availability_position CHECK ((latitude IS NULL) = (longitude IS NULL)
                                                       AND (latitude IS NULL) = (position_at IS NULL)),
        CONSTRAINT worker_availability_online_position CHECK (NOT online OR latitude IS NOT NULL)
      )`);
    // The matcher looks for online workers around a task.
    await q.query(`CREATE INDEX worker_availability_online_gist ON worker_availability
                   USING gist (ll_to_earth(latitude, longitude)) WHERE online`);

    // Workers rate the agent of a task they completed (two-sided reputation); one rating per worker and task.
    await q.query(`
      CREATE TABLE agent_ratings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES tasks (id),
        agent_id uuid NOT NULL REFERENCES agents (id),
        worker_id uuid NOT NULL REFERENCES workers (id),
        rating integer NOT NULL CHECK (rating BETWEEN 0 AND 5),
        comment text CHECK (char_length(comment) <= 500),
        created_at timestamptz NOT NULL,
        CONSTRAINT agent_ratings_once UNIQUE (task_id, worker_id)
      )`);
    await q.query(`CREATE INDEX agent_ratings_agent_idx ON agent_ratings (agent_id, created_at DESC)`);
    // Running totals per agent, updated in the rating's transaction, so listings read one row per agent.
    await q.query(`
      CREATE TABLE agent_rating_stats (
        agent_id uuid PRIMARY KEY REFERENCES agents (id),
        rating_count integer NOT NULL CHECK (rating_count >= 0),
        rating_sum integer NOT NULL CHECK (rating_sum BETWEEN 0 AND rating_count * 5)
      )`);

    // Offer response times of a worker (the matcher's responsiveness), newest first.
    await q.query(`CREATE INDEX assignments_worker_offers_idx ON assignments (worker_id, offered_at DESC)
                   WHERE offered_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX assignments_worker_offers_idx`);
    await q.query(`DROP TABLE agent_rating_stats, agent_ratings, worker_availability`);
    await q.query(`ALTER TABLE workers DROP COLUMN reputation_updated_at, DROP COLUMN median_response_seconds,
                   DROP COLUMN rating_average, DROP COLUMN rating_count, DROP COLUMN approved_tasks,
                   DROP COLUMN finished_tasks, DROP COLUMN reputation`);
    await q.query(`DROP INDEX tasks_open_nearby_gist`);
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT tasks_open_slots_range, DROP COLUMN open_slots`);
  }
}
