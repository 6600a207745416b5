import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase, databaseUrl, dropDatabase, pool } from './database';
import { createAgents, createWorkers } from './fixtures';
import { ServerProcess } from './server';
import { taskBody } from './scenarios/create-task';

/**
 * Lists the SQL statements the API sends for one request of each hot kind (creation, accept, submit, listing, cancellation):
 * every statement is a round trip, and round trips are what the benchmarks showed to cost most. It turns on
 * log_statement for a scratch database and reads the PostgreSQL server log, so it needs a superuser connection and
 * read access to that log (BENCH_PG_LOG, default Debian's path).
 *
 *   npm run build && node dist/scripts/bench/trace-statements.js
 */
const LOG = process.env.BENCH_PG_LOG ?? '/var/log/postgresql/postgresql-15-main.log';

async function main(): Promise<void> {
  const name = await createDatabase('legwork_trace');
  const url = databaseUrl(name);
  const db = pool(url, 2);
  const server = await ServerProcess.start({
    databaseUrl: url,
    dataDir: join('/tmp', `legwork-trace-${process.pid}`),
    env: { JOBS_IN_PROCESS: 'false' },
  });
  try {
    const [agent] = await createAgents(db, 1, 1_000_000_000);
    const [worker] = await createWorkers(db, 1);
    const call = async (method: string, path: string, token: string, body?: unknown, headers = {}) => {
      const res = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as Record<string, string>;
    };
    const create = () =>
      call(
        'POST',
        '/v1/tasks/create',
        agent.apiKey,
        JSON.parse(taskBody({ max_workers: 3, task_type: 'verification' })),
        {
          'idempotency-key': randomUUID(),
        },
      );
    const warm = await create();
    await call('POST', `/v1/worker/tasks/${warm.task_id}/accept`, worker.token);
    const task = await create();
    const cancelled = await create();
    await db.query(`ALTER DATABASE ${name} SET log_statement = 'all'`);
    // New sessions pick the setting up: drop the API's pooled connections (the next requests reconnect).
    await db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'legwork'`,
      [name],
    );
    for (let i = 0; i < 3; i++) await call('GET', '/v1/tasks', agent.apiKey).catch(() => undefined);
    const section = async (label: string, work: () => Promise<unknown>): Promise<void> => {
      const before = statSync(LOG).size;
      await work();
      await new Promise((r) => setTimeout(r, 300));
      const lines = readFileSync(LOG)
        .subarray(before)
        .toString()
        .split('\n')
        .filter((l) => l.includes(`@${name}`) && /LOG: {2}(statement|execute)/.test(l));
      console.log(`== ${label}: ${lines.length} statements`);
      for (const l of lines) console.log(`   ${l.replace(/^.*?LOG: {2}/, '').slice(0, 150)}`);
    };
    await section('create task (Idempotency-Key header)', create);
    let assignment = '';
    await section('accept', async () => {
      assignment = (await call('POST', `/v1/worker/tasks/${task.task_id}/accept`, worker.token))
        .assignment_id;
    });
    await section('submit', () =>
      call('POST', `/v1/worker/assignments/${assignment}/submit`, worker.token, {
        result_data: { open: true },
      }),
    );
    await section('available tasks', () =>
      call('GET', '/v1/worker/tasks/available?latitude=31.23&longitude=121.47&limit=20', worker.token),
    );
    await section('cancel (pending task, no assignments)', () =>
      call('POST', `/v1/tasks/${cancelled.task_id}/cancel`, agent.apiKey),
    );
    await db.query(`ALTER DATABASE ${name} RESET log_statement`);
  } finally {
    await server.stop();
    await db.end();
    await dropDatabase(name);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
