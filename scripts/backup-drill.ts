import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '../src/config/config';
import { loadEnvFile } from '../src/config/env-file';
import { embeddedDatabaseUrl, runningEmbeddedPort } from '../src/database/embedded-postgres';
import { checkLedger } from '../src/escrow/ledger-check';

/**
 * `npm run backup:drill` (docs/operations.md, "The restore drill"): proves that the database can be brought back from
 * a dump, on a running instance, without stopping it.
 *
 * 1. Opens a REPEATABLE READ transaction on the instance's database and exports its snapshot.
 * 2. `pg_dump --snapshot` dumps exactly that snapshot (custom format), while traffic goes on.
 * 3. Reads, in the same snapshot, every ledger account's balance and the row counts of the tables that matter.
 * 4. Creates a new database on the same server and `pg_restore`s the dump into it.
 * 5. Runs the ledger check (`npm run ledger:check`'s invariants) on the copy, and compares the copy's balances and
 *    counts with the snapshot's: equal, or the drill fails.
 * 6. Drops the copy (`--keep` leaves it for inspection) and the dump file.
 *
 * pg_dump must have the server's major version (a newer pg_dump writes dumps an older server cannot restore, an
 * older one refuses newer servers): the drill looks on the PATH, then in Debian's /usr/lib/postgresql/<major>/bin,
 * (or only in `--pg-bin=DIR`), and refuses, saying what to install, when none matches. Exit 0: restored and equal; 1: the copy differs or its
 * ledger is broken; 2: the drill could not run.
 */

class DrillRefused extends Error {}

const COUNTED = [
  'agents',
  'workers',
  'tasks',
  'assignments',
  'ledger_accounts',
  'ledger_journals',
  'ledger_postings',
  'events',
  'payment_orders',
];

interface Snapshot {
  balances: Map<string, string>;
  counts: Record<string, number>;
}

function log(line: string): void {
  console.log(line);
}

function majorOf(versionLine: string): number | null {
  const m = /\b(\d+)(?:\.\d+)?/.exec(versionLine.replace(/^[^0-9]*/, ''));
  return m ? Number(m[1]) : null;
}

interface Tools {
  pgDump: string;
  pgRestore: string;
  psql: string;
  version: string;
}

/**
 * pg_restore, in two steps. The schema and data as they are; then the indexes and constraints (post-data) with
 * `search_path` set to public instead of the empty one pg_dump sets: earthdistance's `ll_to_earth`, which the nearby
 * tasks' index is built on, is an SQL function that names `cube` and `earth` unqualified, so under the empty
 * search_path the index cannot be created ("type earth does not exist", PostgreSQL up to 16; the extension's own
 * functions are not schema-qualified). docs/operations.md gives the same two steps for a manual restore.
 */
function restore(tools: Tools, url: string, dumpFile: string): void {
  const quiet = { stdio: ['ignore', 'inherit', 'inherit'] as ('ignore' | 'inherit')[] };
  const common = ['--no-owner', '--no-privileges', '--exit-on-error'];
  execFileSync(
    tools.pgRestore,
    [...common, '--section=pre-data', '--section=data', '--dbname', url, dumpFile],
    quiet,
  );
  const postData = execFileSync(
    tools.pgRestore,
    [...common, '--section=post-data', '--file', '-', dumpFile],
    {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  ).replace(
    /set_config\('search_path', '', false\)/g,
    "set_config('search_path', 'public, pg_catalog', false)",
  );
  execFileSync(tools.psql, ['--quiet', '--no-psqlrc', '-v', 'ON_ERROR_STOP=1', '--dbname', url], {
    input: postData,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
}

/** The pg_dump, pg_restore and psql of the server's major version, or a refusal naming what to install. */
function clientTools(serverMajor: number, pgBin: string | null): Tools {
  const candidates = pgBin
    ? [join(pgBin, 'pg_dump')]
    : ['pg_dump', `/usr/lib/postgresql/${serverMajor}/bin/pg_dump`];
  const found: string[] = [];
  for (const pgDump of candidates) {
    const run = spawnSync(pgDump, ['--version'], { encoding: 'utf8' });
    if (run.error || run.status !== 0) continue;
    const version = run.stdout.trim();
    found.push(`${pgDump}: ${version}`);
    if (majorOf(version) === serverMajor) {
      return {
        pgDump,
        pgRestore: pgDump.replace(/pg_dump$/, 'pg_restore'),
        psql: pgDump.replace(/pg_dump$/, 'psql'),
        version,
      };
    }
  }
  throw new DrillRefused(
    `The server runs PostgreSQL ${serverMajor}, and no pg_dump of that major version was found ` +
      `(${found.length ? found.join('; ') : 'none on the PATH'}). A dump must be made with the server's major ` +
      `version: install its client tools (Debian/Ubuntu: apt-get install postgresql-client-${serverMajor}; ` +
      `elsewhere the PostgreSQL ${serverMajor} client package), or run the drill against a server whose version ` +
      `your pg_dump has. The embedded PostgreSQL ${serverMajor} of \`npm start\` ships no pg_dump: point ` +
      `DATABASE_URL at a server you have the tools for.`,
  );
}

async function read(client: Client): Promise<Snapshot> {
  const rows = (
    await client.query<{ code: string; balance: string }>(
      `SELECT code, balance::text AS balance FROM ledger_accounts ORDER BY code`,
    )
  ).rows;
  const counts: Record<string, number> = {};
  for (const table of COUNTED) {
    const [{ exists }] = (
      await client.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [table])
    ).rows;
    if (!exists) continue;
    counts[table] = Number(
      (await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`)).rows[0].n,
    );
  }
  return { balances: new Map(rows.map((r) => [r.code, r.balance])), counts };
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function redacted(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

async function main(): Promise<number> {
  const keep = process.argv.includes('--keep');
  // --pg-bin=DIR: use that directory's pg_dump and pg_restore only.
  const pgBin = process.argv.find((a) => a.startsWith('--pg-bin='))?.slice('--pg-bin='.length) ?? null;
  loadEnvFile();
  const config = loadConfig();
  const source =
    config.databaseUrl ?? embeddedDatabaseUrl(runningEmbeddedPort(config.dataDir) ?? config.embeddedPgPort);
  log(`source: ${redacted(source)}`);
  const origin = new Client({ connectionString: source, application_name: 'legwork-backup-drill' });
  await origin.connect();
  const work = mkdtempSync(join(tmpdir(), 'legwork-drill-'));
  const dumpFile = join(work, 'legwork.dump');
  let copyName: string | null = null;
  let admin: Client | null = null;
  try {
    const serverVersion = (await origin.query<{ v: string }>(`SELECT current_setting('server_version') AS v`))
      .rows[0].v;
    const serverMajor = majorOf(serverVersion)!;
    const tools = clientTools(serverMajor, pgBin);
    log(`server: PostgreSQL ${serverVersion}; client tools: ${tools.version} (${tools.pgDump})`);

    // 1-3: one snapshot for the dump and for the figures the copy must reproduce.
    await origin.query(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`);
    const snapshotId = (await origin.query<{ id: string }>(`SELECT pg_export_snapshot() AS id`)).rows[0].id;
    const dumpStarted = Date.now();
    execFileSync(
      tools.pgDump,
      [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--snapshot=${snapshotId}`,
        '--file',
        dumpFile,
        source,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const dumpMs = Date.now() - dumpStarted;
    const expected = await read(origin);
    await origin.query('COMMIT');
    log(
      `dumped in ${dumpMs} ms: ${(statSync(dumpFile).size / 1024).toFixed(0)} KiB (snapshot ${snapshotId})`,
    );

    // 4: a new database on the same server.
    const sourceName = new URL(source).pathname.slice(1) || 'postgres';
    copyName = `${sourceName}_drill_${Date.now()}`.slice(0, 63);
    admin = origin;
    await admin.query(`CREATE DATABASE "${copyName}"`);
    const copyUrl = withDatabase(source, copyName);
    const restoreStarted = Date.now();
    restore(tools, copyUrl, dumpFile);
    log(`restored into ${copyName} in ${Date.now() - restoreStarted} ms`);

    // 5: the copy's ledger, balances and counts.
    const copy = new Client({ connectionString: copyUrl, application_name: 'legwork-backup-drill' });
    await copy.connect();
    let report;
    let actual: Snapshot;
    try {
      report = await checkLedger({
        query: async (sql: string, params?: unknown[]) =>
          (await copy.query<Record<string, unknown>>(sql, params)).rows,
      });
      actual = await read(copy);
    } finally {
      await copy.end();
    }
    log(
      `ledger check on the copy: ${report.ok ? 'ok' : 'FAILED'} (${report.accounts} accounts, ${report.journals} journals` +
        `${report.violations.length ? `; ${report.violations.map((v) => `${v.invariant}: ${v.detail}`).join('; ')}` : ''})`,
    );
    const differing = [...new Set([...expected.balances.keys(), ...actual.balances.keys()])].filter(
      (code) => expected.balances.get(code) !== actual.balances.get(code),
    );
    const total = [...expected.balances.values()].reduce((sum, b) => sum + BigInt(b), 0n);
    log(
      `balances: ${expected.balances.size} accounts in the snapshot, ${actual.balances.size} in the copy, ` +
        `${differing.length} differing${differing.length ? ` (${differing.slice(0, 5).join(', ')})` : ''}; sum ${total}`,
    );
    const countDiff = Object.keys(expected.counts).filter((t) => expected.counts[t] !== actual.counts[t]);
    log(
      `rows: ${Object.entries(expected.counts)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}; ${countDiff.length ? `differing: ${countDiff.join(', ')}` : 'all equal in the copy'}`,
    );
    const ok = report.ok && differing.length === 0 && countDiff.length === 0;
    log(
      ok
        ? "drill passed: the dump restores into a database whose ledger is clean and whose balances equal the source's"
        : 'drill FAILED: the restored copy does not match (see above)',
    );
    log(
      "not in the dump: uploaded photos (UPLOAD_DIR or the S3 bucket; back them up with the bucket's versioning, docs/operations.md)",
    );
    return ok ? 0 : 1;
  } finally {
    if (copyName && admin) {
      if (keep) log(`kept the copy: ${copyName} (drop it with: DROP DATABASE "${copyName}")`);
      else
        await admin
          .query(`DROP DATABASE IF EXISTS "${copyName}"`)
          .catch((err: unknown) => log(`could not drop ${copyName}: ${String(err)}`));
    }
    await origin.end().catch(() => undefined);
    if (existsSync(work)) rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(
      err instanceof DrillRefused
        ? `backup drill refused: ${err.message}`
        : `backup drill failed: ${err instanceof Error ? err.message : String(err)}`,
    );
    process.exit(2);
  },
);
