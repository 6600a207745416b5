import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkLedger } from '../../src/escrow/ledger-check';
import { createDatabase, databaseUrl, dropDatabase, pool } from '../bench/database';
import { createAdmin, createAgents, createWorkers } from '../bench/fixtures';
import { ServerProcess } from '../bench/server';
import { Traffic } from './http';
import { judgeMemory, MemorySample, soakMarkdown, SoakReport } from './soak-report';
import { agentLoop, operatorLoop, Workload, workerLoop } from './workload';
import { numberArg } from '../bench/args';

/**
 * `npm run soak -- --minutes N`: the compiled API (with its provider sandbox) on a fresh database, a mixed workload
 * for N minutes, the ledger invariants checked every minute, RSS sampled every 10 s. Exits 1 on any ledger
 * violation, any 5xx or lost request, or a leak: RSS at the end more than 20 % above RSS after warm-up, or RSS
 * growing minute after minute for the whole run after warm-up.
 *
 * Options: --minutes 10  --agents 10  --workers 30  --pool 20  --keep (leave the database)
 */
async function main(): Promise<void> {
  const minutes = numberArg('minutes', 10);
  const started = Date.now();
  const log = (m: string): void => console.log(`[soak ${((Date.now() - started) / 1000).toFixed(0)}s] ${m}`);
  const name = await createDatabase('legwork_soak');
  const url = databaseUrl(name);
  const dir = join('/tmp', `legwork-soak-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  const db = pool(url, 3);
  let server: ServerProcess | null = null;
  try {
    // The API on a port the OS picks, and the provider sandbox it spawns on free ports of its own (SANDBOX_*_PORT
    // unset); notifications go to the API's own URL, which names the port it got.
    server = await ServerProcess.start({
      databaseUrl: url,
      dataDir: join(dir, 'data'),
      poolSize: numberArg('pool', 20),
      env: {
        SANDBOX_SPAWN: 'true',
        SANDBOX_AUTO_COMPLETE_MS: '1500',
      },
    });
    log(`server pid ${server.pid} on ${server.baseUrl}; ${minutes} minutes`);
    const work: Workload = {
      traffic: new Traffic(server.baseUrl),
      agents: await createAgents(db, numberArg('agents', 10), 5_000_000),
      workers: await createWorkers(db, numberArg('workers', 30)),
      adminToken: (await createAdmin(db)).token,
      stopping: false,
      orders: 0,
      withdrawals: 0,
    };
    const loops = [
      ...work.agents.map((a) => agentLoop(work, a)),
      ...work.workers.map((w) => workerLoop(work, w)),
      operatorLoop(work),
    ];

    const memory: MemorySample[] = [];
    const ledger: SoakReport['ledger'] = [];
    const srv = server;
    const sample = (): void => {
      memory.push({ seconds: Math.round((Date.now() - started) / 1000), rss_mib: srv.rssMiB() });
    };
    const sampler = setInterval(sample, 10_000);
    const endAt = started + minutes * 60_000;
    let lastRequests = 0;
    for (let minute = 1; Date.now() < endAt; minute++) {
      await new Promise((r) =>
        setTimeout(r, Math.max(0, Math.min(endAt, started + minute * 60_000) - Date.now())),
      );
      const check = await checkLedger({ query: async (sql, params) => (await db.query(sql, params)).rows });
      ledger.push({
        minute,
        ok: check.ok,
        journals: check.journals,
        violations: check.violations.map((v) => `${v.invariant}: ${v.detail}`),
      });
      const requests = work.traffic.total();
      log(
        `minute ${minute}: RSS ${srv.rssMiB()} MiB, ${requests - lastRequests} requests (${((requests - lastRequests) / 60).toFixed(1)}/s), ` +
          `5xx/lost ${work.traffic.failures}, ledger ${check.ok ? 'clean' : 'VIOLATED'} (${check.journals} journals)`,
      );
      lastRequests = requests;
      if (!check.ok) log(check.violations.map((v) => `  ${v.invariant}: ${v.detail}`).join('\n'));
    }
    sample();
    work.stopping = true;
    await Promise.all(loops);
    clearInterval(sampler);
    // The last orders complete and withdrawals settle; then the final check.
    await new Promise((r) => setTimeout(r, 5000));
    const final = await checkLedger({ query: async (sql, params) => (await db.query(sql, params)).rows });
    ledger.push({
      minute: minutes,
      ok: final.ok,
      journals: final.journals,
      violations: final.violations.map((v) => `${v.invariant}: ${v.detail}`),
    });

    const { rows } = await db.query<Record<string, string>>(
      `SELECT (SELECT count(*) FROM tasks)::text AS tasks,
              (SELECT count(*) FROM tasks WHERE status IN ('completed', 'failed', 'cancelled'))::text AS finished_tasks,
              (SELECT count(*) FROM ledger_journals)::text AS journals,
              (SELECT count(*) FROM ledger_journals WHERE kind = 'deposit' AND reference NOT LIKE 'bench:%')::text AS provider_deposits,
              (SELECT count(*) FROM ledger_journals WHERE kind = 'withdrawal_complete')::text AS withdrawals_paid,
              (SELECT count(*) FROM ledger_journals WHERE kind = 'slot_refund' AND reference LIKE 'task:%slot-refund%')::text AS slot_refunds`,
    );
    const report: SoakReport = {
      started_at: new Date(started).toISOString(),
      minutes,
      requests: work.traffic.total(),
      failures: work.traffic.failures,
      failure_examples: work.traffic.examples,
      operations: Object.fromEntries(
        [...work.traffic.ops].map(([op, e]) => [op, { statuses: e.statuses, ...e.latency.summary() }]),
      ),
      database: rows[0],
      memory,
      memory_verdict: judgeMemory(memory, minutes),
      ledger,
    };
    const out = resolve('bench/results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'soak-latest.json'), JSON.stringify(report, null, 2) + '\n');
    writeFileSync(join(out, 'soak-latest.md'), soakMarkdown(report));
    console.log('\n' + soakMarkdown(report));
    const failed = report.failures > 0 || ledger.some((l) => !l.ok) || report.memory_verdict.leak;
    process.exitCode = failed ? 1 : 0;
  } finally {
    await server?.stop();
    await db.end();
    if (!process.argv.includes('--keep')) await dropDatabase(name);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
