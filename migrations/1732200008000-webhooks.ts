import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event delivery: webhook endpoints per agent, one delivery row per (event, destination) with its attempt log, the
 * per-agent secret that signs order callbacks, an ordering sequence on the outbox, and NOTIFY triggers that wake the
 * publisher and the delivery runner when a transaction that wrote events or deliveries commits.
 */
export class Webhooks1732200008000 implements MigrationInterface {
  name = 'Webhooks1732200008000';

  async up(q: QueryRunner): Promise<void> {
    // created_at comes from the business clock and ids are random: seq is the order events were written in. Events
    // of one task are written under that task's row lock, so seq order is their real order.
    await q.query(`ALTER TABLE events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`);
    await q.query(`CREATE UNIQUE INDEX events_seq_idx ON events (seq)`);
    await q.query(`DROP INDEX events_unpublished_idx`);
    await q.query(`CREATE INDEX events_unpublished_idx ON events (seq) WHERE published_at IS NULL`);
    await q.query(`CREATE INDEX events_task_idx ON events (task_id, seq) WHERE task_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        agent_id uuid NOT NULL REFERENCES agents (id),
        url text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
        events text[] NOT NULL CHECK (cardinality(events) >= 1),
        -- AES-256-GCM sealed signing secret, bound to this row's id; never stored in clear.
        secret_sealed text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled', 'deleted')),
        -- Set at the first failed delivery after a success, cleared by the next success.
        failing_since timestamptz,
        last_success_at timestamptz,
        disabled_at timestamptz,
        disabled_reason text,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT webhook_endpoints_disabled CHECK ((status = 'disabled') = (disabled_at IS NOT NULL) OR status = 'deleted'),
        CONSTRAINT webhook_endpoints_deleted CHECK ((status = 'deleted') = (deleted_at IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX webhook_endpoints_agent_idx ON webhook_endpoints (agent_id, created_at DESC)
                   WHERE status <> 'deleted'`);

    await q.query(`
      CREATE TABLE agent_callback_secrets (
        agent_id uuid PRIMARY KEY REFERENCES agents (id),
        secret_sealed text NOT NULL,
        created_at timestamptz NOT NULL
      )`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        agent_id uuid NOT NULL REFERENCES agents (id),
        -- null for an order's callback_url
        endpoint_id uuid REFERENCES webhook_endpoints (id),
        url text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('event', 'redelivery', 'test')),
        event_id uuid NOT NULL,
        event_name text NOT NULL,
        event_seq bigint,
        task_id uuid,
        -- Deliveries with the same key are sent in event_seq order (one destination, one task).
        ordering_key text,
        -- The exact bytes sent on every attempt, so retries are identical and signatures match.
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        -- When the next attempt is due; while claimed, when the claim's lease runs out.
        next_attempt_at timestamptz,
        claim_token uuid,
        last_attempt_at timestamptz,
        last_status_code integer,
        last_latency_ms integer,
        last_error text,
        delivered_at timestamptz,
        finished_at timestamptz,
        created_at timestamptz NOT NULL,
        CONSTRAINT webhook_deliveries_due CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
        CONSTRAINT webhook_deliveries_target CHECK (endpoint_id IS NOT NULL OR kind = 'event')
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
                   WHERE status = 'pending'`);
    await q.query(`CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (ordering_key, event_seq)
                   WHERE status = 'pending' AND ordering_key IS NOT NULL`);
    await q.query(
      `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`,
    );
    await q.query(`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`);

    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id),
        attempt integer NOT NULL CHECK (attempt >= 1),
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        status_code integer,
        latency_ms integer,
        error text,
        PRIMARY KEY (delivery_id, attempt)
      )`);

    // NOTIFY is delivered only when the inserting transaction commits, so a woken publisher always sees the rows.
    await q.query(`
      CREATE FUNCTION legwork_notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('legwork_events', '');
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER events_notify AFTER INSERT ON events
                   FOR EACH STATEMENT EXECUTE FUNCTION legwork_notify_events()`);
    await q.query(`
      CREATE FUNCTION legwork_notify_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('legwork_deliveries', '');
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
                   FOR EACH STATEMENT EXECUTE FUNCTION legwork_notify_deliveries()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER webhook_deliveries_notify ON webhook_deliveries`);
    await q.query(`DROP TRIGGER events_notify ON events`);
    await q.query(`DROP FUNCTION legwork_notify_deliveries(), legwork_notify_events()`);
    await q.query(
      `DROP TABLE webhook_delivery_attempts, webhook_deliveries, agent_callback_secrets, webhook_endpoints`,
    );
    await q.query(`DROP INDEX events_task_idx`);
    await q.query(`DROP INDEX events_unpublished_idx`);
    await q.query(`CREATE INDEX events_unpublished_idx ON events (created_at) WHERE published_at IS NULL`);
    await q.query(`DROP INDEX events_seq_idx`);
    await q.query(`ALTER TABLE events DROP COLUMN seq`);
  }
}
