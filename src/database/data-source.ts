import type { ClientBase } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations';

/**
 * The one DataSource definition, shared by the application (through TypeOrmModule) and the migration CLI.
 * Migrations are listed explicitly rather than globbed, so ts-jest, ts-node and compiled code load exactly the same
 * set. There are no entities: data access is hand-written SQL through sqlRows<Row> (sql.ts), each table's row type
 * declared by the module that owns it.
 */
export function dataSourceOptions(url: string, poolSize = 20): DataSourceOptions {
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
      application_name: 'legwork',
      // Transactions rely on READ COMMITTED (see inTransaction); fixed per connection whatever the server default.
      options: '-c default_transaction_isolation=read\\ committed',
      // A connection cut while checked out (server restart, pg_terminate_backend, network) can emit 'error' more
      // than once; TypeORM listens only until its first one, and an 'error' event without a listener would kill the
      // process. The failure itself still reaches the query that was running and the pool discards the client.
      onConnect: (client: ClientBase) => {
        client.on('error', ignoreConnectionError);
      },
    },
  };
}

function ignoreConnectionError(): void {
  // see onConnect above
}

export function createDataSource(url: string, poolSize?: number): DataSource {
  return new DataSource(dataSourceOptions(url, poolSize));
}
