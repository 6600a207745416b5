import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkLedger } from '../../src/escrow/ledger-check';
import type { BenchContext, ScenarioReport } from './context';
import { createDatabase, databaseUrl, dropDatabase, pool, serverFacts } from './database';
import { BenchReport, loadAverage, machine, markdown } from './report';
import { ServerProcess, timeNpmStart } from './server';
import { acceptRaceScenario } from './scenarios/accept-race';
import { availableTasksScenario } from './scenarios/available-tasks';
import { createTaskScenario } from './scenarios/create-task';
import { eventsScenarios } from './scenarios/events';
import { typedAnswersScenario } from './scenarios/typed-answers';
import { photoReuseScenario } from './scenarios/photo-reuse';

/**
 * `npm run bench`: a fresh database on the machine's PostgreSQL, the compiled API as a child process, every
 * scenario with its DB-only baseline, a Markdown and a JSON report under bench/results/, and the database dropped.
 *
 * Options (see USAGE): --only picks scenarios; --keep leaves the database for inspection.
 */
const SCENARIOS = [
  'create_task',
  'accept_race',
  'webhooks',
  'websocket',
  'available_tasks',
  'typed_answers',
  'photo_reuse',
];

interface Args {
  only: string[] | null;
  seconds: number;
  sizes: number[];
  pool: number;
  keep: boolean;
  out: string;
}

const USAGE = `usage: npm run bench -- [--only ${SCENARIOS.join(',')}] [--seconds 10]
                     [--sizes 10000,100000,1000000] [--pool 20] [--keep] [--out bench/results]`;

function parseArgs(argv: string[]): Args {
  // A mistyped option (or --help) must not start a full run of several minutes with the defaults.
  const valued = new Set(['--only', '--seconds', '--sizes', '--pool', '--out']);
  for (let i = 0; i < argv.length; i++) {
    if (valued.has(argv[i]) && i + 1 < argv.length) i++;
    else if (argv[i] !== '--keep') {
      if (argv[i] === '--help') {
        console.log(USAGE);
        process.exit(0);
      }
      console.error(`unknown or incomplete option ${argv[i]}\n${USAGE}`);
      process.exit(2);
    }
  }
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const only = get('only')?.split(',') ?? null;
  const unknown = only?.filter((id) => !SCENARIOS.includes(id)) ?? [];
  if (unknown.length > 0) {
    console.error(`unknown scenario ${unknown.join(', ')}\n${USAGE}`);
    process.exit(2);
  }
  return {
    only,
    seconds: Number(get('seconds') ?? 10),
    sizes: (get('sizes') ?? '10000,100000,1000000').split(',').map(Number),
    pool: Number(get('pool') ?? 20),
    keep: argv.includes('--keep'),
    out: resolve(get('out') ?? 'bench/results'),
  };
}

function gitDescribe(): string {
  try {
    return execFileSync('git', ['describe', '--always', '--dirty']).toString().trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = new Date();
  const loadAtStart = loadAverage();
  const log = (m: string): void =>
    console.log(`[bench ${((Date.now() - started.getTime()) / 1000).toFixed(0)}s] ${m}`);
  const name = await createDatabase();
  const url = databaseUrl(name);
  const dir = join('/tmp', `legwork-bench-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`database ${name}`);
  const db = pool(url, 4);
  let server: ServerProcess | null = null;
  try {
    server = await ServerProcess.start({ databaseUrl: url, dataDir: join(dir, 'data'), poolSize: args.pool });
    log(`server pid ${server.pid} on ${server.baseUrl}, healthy after ${server.bootMs} ms`);
    // Idle: after boot, before any request (a few seconds for start-up garbage to be collected).
    await new Promise((r) => setTimeout(r, 5_000));
    const idle = { rss_mib: server.rssMiB(), boot_ms: server.bootMs, npm_start_ms: null as number | null };
    idle.npm_start_ms = await timeNpmStart({ databaseUrl: url, dataDir: join(dir, 'data') }).catch(
      (err: unknown) => {
        log(`npm start: ${(err as Error).message}`);
        return null;
      },
    );
    log(`idle RSS ${idle.rss_mib} MiB; npm start (current build) healthy after ${idle.npm_start_ms} ms`);
    const ctx: BenchContext = {
      server,
      db,
      databaseUrl: url,
      dir,
      seconds: args.seconds,
      poolSize: args.pool,
      log,
    };
    const want = (id: string): boolean => !args.only || args.only.includes(id);
    const scenarios: ScenarioReport[] = [];
    const guarded = async (
      id: string,
      run: () => Promise<ScenarioReport | ScenarioReport[]>,
      enabled = want(id),
    ): Promise<void> => {
      if (!enabled) return;
      try {
        const r = await run();
        scenarios.push(...(Array.isArray(r) ? r : [r]));
      } catch (err) {
        log(`${id} failed: ${(err as Error).stack ?? String(err)}`);
        scenarios.push({
          id,
          title: id,
          status: 'failed',
          reason: (err as Error).message,
          runs: [],
          notes: [],
          checks: {},
        });
      }
    };
    await guarded('create_task', () => createTaskScenario(ctx));
    await guarded('accept_race', () => acceptRaceScenario(ctx));
    // One entry for both events scenarios (they share the baseline schema); each is chosen by its own id.
    await guarded('events', () => eventsScenarios(ctx, want), want('webhooks') || want('websocket'));
    await guarded('available_tasks', () => availableTasksScenario(ctx, args.sizes));
    await guarded('typed_answers', () => typedAnswersScenario(ctx));
    await guarded('photo_reuse', () => photoReuseScenario(ctx));

    log('ledger check');
    const report = await checkLedger({ query: async (sql, params) => (await db.query(sql, params)).rows });
    const result: BenchReport = {
      started_at: started.toISOString(),
      finished_at: new Date().toISOString(),
      git: gitDescribe(),
      seconds_per_run: args.seconds,
      machine: machine(await serverFacts(url), args.pool, loadAtStart),
      server: idle,
      scenarios,
      ledger_check: {
        ok: report.ok,
        accounts: report.accounts,
        journals: report.journals,
        violations: report.violations.map((v) => `${v.invariant}: ${v.detail}`),
      },
    };
    mkdirSync(args.out, { recursive: true });
    const stamp = started.toISOString().replace(/[:.]/g, '-').slice(0, 19);
    for (const base of [stamp, 'latest']) {
      writeFileSync(join(args.out, `${base}.json`), JSON.stringify(result, null, 2) + '\n');
      writeFileSync(join(args.out, `${base}.md`), markdown(result));
    }
    console.log('\n' + markdown(result));
    log(`reports written to ${args.out}/latest.{md,json}`);
    const failed =
      !report.ok || scenarios.some((s) => s.status === 'failed' || Object.values(s.checks).some((ok) => !ok));
    process.exitCode = failed ? 1 : 0;
  } finally {
    await server?.stop();
    await db.end();
    if (!args.keep) await dropDatabase(name);
    else log(`kept database ${name}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
