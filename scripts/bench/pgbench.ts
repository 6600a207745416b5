import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { round, Samples } from './stats';

const run = promisify(execFile);

export interface PgbenchResult {
  clients: number;
  seconds: number;
  /** Transactions (one script execution = what one API request sends) per second. */
  tps: number;
  p50: number;
  p95: number;
  p99: number;
  failed: number;
}

export interface PgbenchRun {
  url: string;
  /** Scratch directory for the script and the per-transaction logs. */
  dir: string;
  name: string;
  script: string;
  clients: number;
  seconds: number;
  vars?: Record<string, string | number>;
  /** How the API sends these statements: unnamed (the default) or as named prepared statements (preparedRows). */
  protocol?: 'extended' | 'prepared';
  /**
   * Open loop (pgbench -R): transactions start at this rate, and each one's latency counts from when it was due
   * (the schedule lag included), as the API's open-loop runs measure theirs.
   */
  rate?: number;
}

/**
 * The database-only baseline: pgbench runs a script with the statements one API request sends, on as many
 * connections as the API's pool has, using the extended query protocol as node-postgres does (an unnamed statement
 * per query, parsed and planned each time; `protocol: 'prepared'` where the API prepares them). Latency percentiles
 * come from pgbench's per-transaction log (-l).
 */
export async function pgbench(r: PgbenchRun): Promise<PgbenchResult> {
  const dir = join(r.dir, `pgbench-${r.name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'script.sql');
  writeFileSync(file, r.script);
  const url = new URL(r.url);
  const args = [
    '-n',
    '-M',
    r.protocol ?? 'extended',
    '-f',
    file,
    '-c',
    String(r.clients),
    '-j',
    String(Math.min(2, r.clients)),
    '-T',
    String(r.seconds),
    ...(r.rate ? ['-R', String(r.rate)] : []),
    '-l',
    `--log-prefix=${join(dir, 'log')}`,
    '-h',
    url.hostname,
    '-p',
    url.port || '5432',
    '-U',
    decodeURIComponent(url.username || 'postgres'),
    ...Object.entries(r.vars ?? {}).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
    url.pathname.slice(1),
  ];
  // A statement that runs away (the listing over a huge backlog) must not hold the whole run hostage.
  const env = {
    ...process.env,
    PGPASSWORD: decodeURIComponent(url.password),
    PGAPPNAME: 'legwork-pgbench',
    PGOPTIONS: '-c statement_timeout=30000',
  };
  let stdout: string;
  try {
    ({ stdout } = await run('pgbench', args, { env, maxBuffer: 16 * 1024 * 1024, cwd: dir }));
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`pgbench ${r.name} failed: ${e.message}\n${e.stderr ?? ''}\n${e.stdout ?? ''}`);
  }
  // client_id transaction_no time(us) script_no time_epoch time_us [schedule_lag(us), with -R]; with -R, time runs
  // from the transaction's scheduled start, so it includes the lag.
  const entries = readdirSync(dir)
    .filter((n) => n.startsWith('log'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .map((line) => line.split(' '))
    .filter((cols) => cols.length >= 6)
    .map((cols) => ({ ms: Number(cols[2]) / 1000, at: Number(cols[4]) + Number(cols[5]) / 1e6 }));
  // At a fixed rate, pgbench's schedule starts while its clients are still connecting, so the first transactions
  // count a few hundred ms of connection set-up as lag: the first second is left out, as the API's open-loop
  // generator leaves out its own first second (OPEN_LOOP_WARMUP_SECONDS).
  const from = r.rate ? entries.reduce((min, e) => Math.min(min, e.at), Infinity) + 1 : -Infinity;
  const samples = new Samples();
  for (const e of entries) if (e.at >= from) samples.add(e.ms);
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0);
  const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
  const s = samples.summary();
  return {
    clients: r.clients,
    seconds: r.seconds,
    tps: round(tps),
    p50: s.p50,
    p95: s.p95,
    p99: s.p99,
    failed,
  };
}
