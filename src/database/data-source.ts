import type { ClientBase } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { MIGRATIONS } from '../../migrations';

/**
 * The one DataSource definition, shared by the application (through TypeOrmModule) and the migration CLI.
 * Migrations are listed explicitly rather than globbed, so ts-jest, ts-node and compiled code load exactly the same
 * set. There are no entities: data access is hand-written SQL through sqlRows<Row> (sql.ts), each table's row type
 * declared by the module that owns it.
 */
export function dataSourceOptions(
  url: string,
  poolSize = 20,
  applicationName = 'legwork',
  settings = '',
): PostgresDataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [],
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: poolSize,
      // A client that waits this long for a pooled connection fails instead of queueing forever.
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
      application_name: applicationName,
      // Transactions rely on READ COMMITTED (see inTransaction); fixed per connection whatever the server default.
      options: `-c default_transaction_isolation=read\\ committed ${settings}`.trim(),
      // pg sends a query without waiting for the answer to the one before, so inTransaction can send BEGIN and
      // COMMIT in the same write as the statements next to them (transaction.ts). Code that awaits each query, as
      // all other code here does, sees no difference.
      pipeline: true,
      // A connection cut while checked out (server restart, pg_terminate_backend, network) can emit 'error' more
      // than once; TypeORM listens only until its first one, and an 'error' event without a listener would kill the
      // process. The failure itself still reaches the query that was running and the pool discards the client.
      onConnect: (client: ClientBase) => {
        client.on('error', ignoreConnectionError);
      },
    },
  };
}

/**
 * The second, small pool of the outbox publisher and the webhook delivery queue (OutboxPublisher, WebhookDelivery).
 * On the request pool they queued behind every waiting request: a burst of 4,000 cancellations on 32 connections
 * left 900 deliveries pending and webhooks 1.4 s late (p50) until the burst ended, though the queue drains 2,000
 * a second on its own. Their own connections keep events flowing at the pace requests make them.
 */
export const JOBS_DATA_SOURCE = 'jobs';
export const JOBS_POOL_SIZE = 4;

/**
 * The jobs pool commits without waiting for its WAL to reach the disk. Its work is at-least-once by design: were
 * PostgreSQL to crash and lose such a commit (at most about 0.6 s of them, wal_writer_delay x 3), the database is as
 * if it had not committed, and the work is done again: an event is published again, a delivery whose result was lost
 * is sent again when its lease runs out (receivers dedupe by event id, docs/webhooks.md). What it commits is never
 * money, and the request pool keeps synchronous commits. Measured on the bench machine, a drain of 10,000 pending
 * deliveries waited on one disk flush per delivery result (docs/scaling.md).
 */
export const JOBS_SESSION_SETTINGS = '-c synchronous_commit=off';

export function jobsDataSourceOptions(url: string): PostgresDataSourceOptions {
  return {
    ...dataSourceOptions(url, JOBS_POOL_SIZE, 'legwork-jobs', JOBS_SESSION_SETTINGS),
    migrations: [],
  };
}

function ignoreConnectionError(): void {
  // see onConnect above
}

export function createDataSource(url: string, poolSize?: number): DataSource {
  return new DataSource(dataSourceOptions(url, poolSize));
}
