import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { BenchAgent, createAgents } from '../../scripts/bench/fixtures';
import { BENCH_JWT, ServerProcess } from '../../scripts/bench/server';
import { freePort, JOBS_MAIN, signal, type Started, startNode } from '../support/process';
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/databases';
import { create, effects, taskBody } from './process-support';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
/** How often the client (playing a load balancer) reads each instance's /readyz. */
const PROBE_INTERVAL_MS = 250;
const DRAIN_SECONDS = 3;
const LANES = 4;

interface Sent {
  server: number;
  status: number;
  at: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a TCP connect to the port is refused (the listener is closed). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

async function readyzStatus(baseUrl: string): Promise<number> {
  try {
    const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/**
 * A task creation whose body arrives in two halves: the first now, the second only once `release` resolves. The
 * request is in flight on the server the whole time, so it shows what shutdown does to a request that is not done.
 */
function slowCreate(port: number, agent: BenchAgent, release: Promise<void>): Promise<number> {
  const body = Buffer.from(JSON.stringify(taskBody()));
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/tasks/create',
        headers: {
          authorization: `Bearer ${agent.apiKey}`,
          'content-type': 'application/json',
          'content-length': body.length,
          'idempotency-key': `drain-slow-${randomUUID()}`,
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', () => resolve(0));
    req.write(body.subarray(0, 20));
    void release.then(() => req.end(body.subarray(20)));
  });
}

/**
 * The drain (product-decisions §15, docs/scaling.md): two compiled API processes on one database and Redis behind a client
 * that, like a load balancer, spreads a steady stream of task creations over the instances whose /readyz answers 200,
 * reading it every 250 ms. SIGTERM one: its /readyz turns 503 at once, it keeps serving through the drain window
 * (requests sent before the client notices must succeed), then closes its listener, finishes what is in flight and
 * exits 0. No client request may fail with a 5xx or a dropped connection.
 */
describe('draining an API instance on SIGTERM', () => {
  let db: Pool;
  let name: string;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    name = await createTestDatabase();
    db = new Pool({ connectionString: databaseUrl(name), max: 3, application_name: 'legwork-drain-test' });
  });

  afterAll(async () => {
    for (const s of servers) await s.stop();
    await db.end();
    await dropDatabase(name);
  });

  it('loses no request: /readyz says 503 before the listener closes, in-flight work finishes, exit 0', async () => {
    const agents = await createAgents(db, LANES, 100_000_000);
    const env = {
      JOBS_IN_PROCESS: 'false',
      SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
      REDIS_URL,
      REDIS_KEY_PREFIX: `drain-${randomBytes(3).toString('hex')}`,
    };
    const dataDir = () => mkdtempSync(join(tmpdir(), 'legwork-drain-'));
    servers = await Promise.all(
      [0, 1].map(() =>
        ServerProcess.start({ databaseUrl: databaseUrl(name), dataDir: dataDir(), poolSize: 8, env }),
      ),
    );
    const [victim] = servers;

    const ready = new Set<number>();
    let running = true;
    let readyz503At: number | null = null;
    const prober = (async () => {
      while (running) {
        await Promise.all(
          servers.map(async (s, i) => {
            const status = await readyzStatus(s.baseUrl);
            if (status === 200) ready.add(i);
            else ready.delete(i);
            if (i === 0 && status === 503) readyz503At ??= Date.now();
          }),
        );
        await sleep(PROBE_INTERVAL_MS);
      }
    })();
    while (ready.size < 2) await sleep(20);

    const sent: Sent[] = [];
    let turn = 0;
    const lane = async (agent: BenchAgent) => {
      while (running) {
        const choices = [...ready];
        if (choices.length === 0) {
          await sleep(10);
          continue;
        }
        const server = choices[turn++ % choices.length];
        const key = `drain-${randomUUID()}`;
        const answer = await create(servers[server], { agent, key, body: taskBody() });
        sent.push({ server, status: answer.status, at: Date.now() });
      }
    };
    const lanes = Promise.all(agents.map(lane));
    await sleep(1_500);

    const sigtermAt = Date.now();
    const exitCode = victim.stop();
    let listenerClosedAt: number | null = null;
    const watcher = (async () => {
      while (listenerClosedAt === null) {
        if (await refused(victim.port)) listenerClosedAt = Date.now();
        else await sleep(20);
      }
    })();
    // A request that starts inside the drain window and is still unfinished when the listener closes.
    let releaseSlow!: () => void;
    const slow = slowCreate(victim.port, agents[0], new Promise<void>((r) => (releaseSlow = r)));
    void watcher.then(() => setTimeout(releaseSlow, 200));

    expect(await exitCode).toBe(0);
    await watcher;
    const slowStatus = await slow;
    await sleep(1_000);
    running = false;
    await Promise.all([lanes, prober]);

    const failed = sent.filter((s) => s.status !== 201);
    const byVictimAfterSigterm = sent.filter((s) => s.server === 0 && s.at > sigtermAt && s.status === 201);
    const bySurvivorAfterExit = sent.filter(
      (s) => s.server === 1 && s.at > listenerClosedAt! && s.status === 201,
    );
    console.log(
      `drain: ${sent.length} requests, ${failed.length} failed; readyz 503 after ${readyz503At! - sigtermAt} ms, ` +
        `listener closed after ${listenerClosedAt! - sigtermAt} ms; the draining instance answered ` +
        `${byVictimAfterSigterm.length} after SIGTERM; in-flight request ${slowStatus}`,
    );
    expect(failed).toEqual([]);
    expect(slowStatus).toBe(201);
    expect(readyz503At).not.toBeNull();
    expect(readyz503At!).toBeLessThan(listenerClosedAt!);
    // It kept serving through the drain window, for the drain window.
    expect(listenerClosedAt! - sigtermAt).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000);
    expect(byVictimAfterSigterm.length).toBeGreaterThan(0);
    expect(bySurvivorAfterExit.length).toBeGreaterThan(0);

    const after = await effects(db);
    expect(after.violations).toEqual([]);
    expect(after.tasks).toBe(sent.length + 1);
  }, 120_000);
});

/** The job runner's health listener (JOBS_HEALTH_PORT) and its clean exit on SIGTERM. */
describe('job runner health listener', () => {
  let name: string;
  let child: Started | null = null;

  beforeAll(async () => {
    name = await createTestDatabase();
  });
  afterAll(async () => {
    if (child) await signal(child, 'SIGKILL');
    await dropDatabase(name);
  });

  it('serves /livez and /readyz, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const proc = startNode(
      JOBS_MAIN,
      [],
      {
        NODE_ENV: 'production',
        PAYMENT_MODE: 'sandbox',
        SANDBOX_SPAWN: 'false',
        DATABASE_URL: databaseUrl(name),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'legwork-jobs-')),
        LOG_LEVEL: 'warn',
        JWT_ACCESS_SECRET: BENCH_JWT.access,
        JWT_REFRESH_SECRET: BENCH_JWT.refresh,
        JOBS_HEALTH_PORT: String(port),
        JOBS_METRICS_PORT: '0',
      },
      { defaults: false },
    );
    child = proc;
    let status = 0;
    for (let i = 0; i < 300 && status !== 200; i++) {
      status = await readyzStatus(base);
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({
      status: 'ready',
      database: 'up',
      redis: 'not_configured',
    });
    const live = await fetch(`${base}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${base}/v1/tasks`)).status).toBe(404);
    expect((await fetch(`${base}/livez`, { method: 'POST' })).status).toBe(405);

    expect(await signal(proc, 'SIGTERM')).toBe(0);
    child = null;
    expect(await refused(port)).toBe(true);
  }, 60_000);
});
