import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../common/logging/logger';
import type { PostgresInstall } from './postgres-install';

/**
 * The embedded PostgreSQL's two programs, run from wherever `postgresInstall` put them: `initdb` once for a new
 * cluster, then `postgres` itself until stopped. They run as the install's user (the postgres user as root), in the
 * C locale, so the one message read from them ("ready to accept connections") is in English.
 */
export const EMBEDDED_USER = 'legwork';
export const EMBEDDED_PASSWORD = 'legwork';

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };

/** Creates the cluster when the data directory has none. */
export async function initialise(install: PostgresInstall, logger: Logger): Promise<void> {
  if (existsSync(join(install.dataDir, 'PG_VERSION'))) return;
  logger.info({ databaseDir: install.dataDir }, 'initialising embedded PostgreSQL');
  // The password reaches initdb in a file only its user may read, removed once it is done.
  const pwfile = join(tmpdir(), `legwork-pg-${randomBytes(8).toString('hex')}`);
  writeFileSync(pwfile, `${EMBEDDED_PASSWORD}\n`, { mode: 0o600 });
  try {
    if (install.user) chownSync(pwfile, install.user.uid, install.user.gid);
    await run(install, 'initdb', [
      `--pgdata=${install.dataDir}`,
      '--auth=password',
      `--username=${EMBEDDED_USER}`,
      `--pwfile=${pwfile}`,
      '--encoding=UTF8',
      '--locale=C',
    ]);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

/** Starts the server; resolves once it accepts connections, rejects if it exits first. */
export function startPostgres(install: PostgresInstall, port: number, logger: Logger): Promise<ChildProcess> {
  const child = spawnAs(install, 'postgres', [
    '-D',
    install.dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=200',
  ]);
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      logger.debug({ component: 'embedded-postgres' }, text.trim());
      log = (log + text).slice(-4000);
      if (text.includes('database system is ready to accept connections')) resolve(child);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`postgres exited with code ${code}: ${log.trim()}`)));
  });
}

/** A fast shutdown (SIGINT: active transactions roll back), resolved once the server has exited. */
export async function stopPostgres(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

function run(install: PostgresInstall, program: string, args: string[]): Promise<void> {
  const child = spawnAs(install, program, args);
  let log = '';
  child.stderr?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${program} exited with code ${code}: ${log.trim()}`)),
    );
  });
}

/**
 * In the data directory's parent, which its user can enter (the caller's working directory may be a checkout it
 * cannot: PostgreSQL's programs look at their working directory).
 */
function spawnAs(install: PostgresInstall, program: string, args: string[]): ChildProcess {
  return spawn(join(install.binDir, program), args, {
    cwd: join(install.dataDir, '..'),
    env: ENV,
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(install.user ?? {}),
  });
}
