import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { numberArg } from './args';
import { createDatabase, databaseUrl, dropDatabase, pool } from './database';
import { createAgents, seedOpenTasks } from './fixtures';
import { connectSocket, flood, FloodResult, LiveSocket, ofName } from './flood';
import { openTasks, rssSampler } from './scenarios/webhooks';
import { ServerProcess, startFlags } from './server';
import { round, Samples } from './stats';

/**
 * One hostile socket against the compiled API, started as `npm start` starts it (same Node flags, its own jobs):
 * an agent's socket sends `--messages` (30,000) of the hostile mix (subscribe, unsubscribe, garbage; see flood.ts)
 * as fast as the client can write them, then keeps flooding until the server disconnects it. Meanwhile `/health` is
 * probed one request at a time, the server's RSS is sampled, and another agent, subscribed to its own task, cancels
 * it and waits for the event. `/health` is first probed for 3 s without a flood, the floor on a shared machine. The
 * flooder runs on a worker thread, so the probes' latencies are the server's, not
 * the time the harness spent writing the flood. Printed, never asserted (test/fault/socket-flood.e2e-spec.ts asserts
 * the behaviour).
 * Goals from issue 27: `/health` p99 under 200 ms during the flood, RSS growth under 50 MiB.
 *
 *   npm run bench:socket-flood [-- --messages 30000]
 *   BENCH_SERVER_MAIN=/path/to/other/dist/src/main.js npm run bench:socket-flood   (another build, e.g. before a change)
 */

interface Probes {
  latency: Samples;
  failed: number;
}

/**
 * `/health` one request at a time (10 ms apart) until `done()`. Every probe's time counts, a failed one's too (not
 * 200, or no answer within 10 s): a probe that timed out is a latency of 10 s, not a gap in the samples.
 */
async function probeHealth(server: ServerProcess, done: () => boolean): Promise<Probes> {
  const probes: Probes = { latency: new Samples(), failed: 0 };
  while (!done()) {
    const started = performance.now();
    const ok = await fetch(`${server.baseUrl}/health`, { signal: AbortSignal.timeout(10_000) })
      .then(async (res) => (await res.arrayBuffer(), res.status === 200))
      .catch(() => false);
    probes.latency.add(performance.now() - started);
    if (!ok) probes.failed++;
    await new Promise((r) => setTimeout(r, 10));
  }
  return probes;
}

function alive(server: ServerProcess): boolean {
  try {
    server.rssMiB();
    return true;
  } catch {
    return false;
  }
}

/** Cancels the bystander's task and resolves with the milliseconds until its socket hears of it (null: never). */
async function bystanderEvent(
  server: ServerProcess,
  watcher: LiveSocket,
  task: { id: string; apiKey: string },
): Promise<number | null> {
  const started = performance.now();
  await fetch(`${server.baseUrl}/v1/tasks/${task.id}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${task.apiKey}` },
  }).catch(() => undefined);
  while (performance.now() - started < 20_000) {
    if (ofName(watcher, 'task.cancelled').some((p) => (p as { task_id: string }).task_id === task.id)) {
      return round(performance.now() - started);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return null;
}

function report(
  messages: number,
  result: FloodResult,
  health: { quiet: Probes; flood: Probes },
  rss: { before: number; peak: number; after: number | null },
  cpuMs: number,
  eventMs: number | null,
  survived: boolean,
): string {
  const line = (p: Probes): string => {
    const h = p.latency.summary();
    return `${h.count} probes, p50 ${h.p50} ms, p99 ${h.p99} ms, max ${h.max} ms, failed ${p.failed}`;
  };
  const answers = Object.entries(result.answers)
    .sort(([, a], [, b]) => b - a)
    .map(([code, n]) => `${code} ${n.toLocaleString('en-US')}`)
    .join(', ');
  const said = (result.error as { code?: string } | null)?.code;
  return [
    `socket flood: node ${startFlags().join(' ')} dist/src/main.js, one agent socket, ${messages.toLocaleString('en-US')} messages at once, then 200 every 10 ms until disconnected`,
    `  written by the client: ${result.sent.toLocaleString('en-US')} messages in ${round(result.ms / 1000, 2)} s (the server's CPU meanwhile: ${round(cpuMs)} ms); answers: ${answers || 'none'}; asked for an ack and unanswered: ${result.unanswered.toLocaleString('en-US')}`,
    `  answered rate_limited: ${(result.answers.rate_limited ?? 0).toLocaleString('en-US')}`,
    `  flooder disconnected by the server: ${result.disconnected ? `yes (${result.reason}${said ? `, after error ${said}` : ''})` : 'no'}`,
    `  /health during the flood: ${line(health.flood)} (goal: p99 under 200 ms)`,
    `  /health for 3 s before it, no flood (this machine's own noise): ${line(health.quiet)}`,
    `  server RSS: before ${rss.before} MiB, peak ${rss.peak} MiB (growth ${round(rss.peak - rss.before)} MiB), 2 s after ${rss.after ?? '-'} MiB (goal: growth under 50 MiB)`,
    `  another agent's event during the flood: ${eventMs === null ? 'never arrived' : `arrived ${eventMs} ms after its cancel request`}`,
    `  server process: ${survived ? 'still running' : 'EXITED'}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const messages = numberArg('messages', 30_000);
  const name = await createDatabase('legwork_bench_flood');
  const dataDir = mkdtempSync(join(tmpdir(), 'legwork-bench-flood-'));
  const server = await ServerProcess.start({
    databaseUrl: databaseUrl(name),
    dataDir,
    env: { JOBS_IN_PROCESS: 'true' },
  });
  const db = pool(databaseUrl(name), 2);
  const sockets: LiveSocket[] = [];
  try {
    const agents = await createAgents(db, 2, 1_000_000_000);
    await seedOpenTasks(
      db,
      agents.map((a) => a.id),
      4,
    );
    const tasks = await openTasks(db, agents);
    const floodTask = tasks.find((t) => t.apiKey === agents[0].apiKey)!;
    const watchedTask = tasks.find((t) => t.apiKey === agents[1].apiKey)!;
    const watcher = await connectSocket(server.baseUrl, agents[1].apiKey);
    sockets.push(watcher);
    await watcher.socket.emitWithAck('subscribe', { task_id: watchedTask.id });
    const flooder = new Worker(__filename, {
      workerData: { baseUrl: server.baseUrl, token: agents[0].apiKey, taskId: floodTask.id, messages },
    });
    await new Promise((r) => flooder.once('message', r)); // connected

    // The server settles, and /health is measured without a flood: on a shared machine that is the floor.
    const quietUntil = performance.now() + 3_000;
    const quiet = await probeHealth(server, () => performance.now() > quietUntil);
    const before = server.rssMiB();
    const peakRss = rssSampler({ server }, 25);
    let flooding = true;
    const health = probeHealth(server, () => !flooding);
    const event = bystanderEvent(server, watcher, watchedTask);
    const cpuBefore = server.cpuMs();
    flooder.postMessage('go');
    const result = await new Promise<FloodResult>((r) => flooder.once('message', r));
    flooding = false;
    const cpuMs = alive(server) ? server.cpuMs() - cpuBefore : NaN;
    const peak = peakRss();
    const eventMs = await event;
    await new Promise((r) => setTimeout(r, 2000));
    const survived = alive(server);
    const after = survived ? server.rssMiB() : null;
    const flood = await health;
    console.log(
      report(messages, result, { quiet, flood }, { before, peak, after }, cpuMs, eventMs, survived),
    );
  } finally {
    for (const c of sockets) c.socket.disconnect();
    await db.end();
    await server.stop();
    await dropDatabase(name);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface FlooderData {
  baseUrl: string;
  token: string;
  taskId: string;
  messages: number;
}

/** The worker thread: connects, says so, floods when told to, and posts the result back. */
async function flooderThread(data: FlooderData): Promise<void> {
  const hostile = await connectSocket(data.baseUrl, data.token);
  parentPort!.postMessage('connected');
  await new Promise((r) => parentPort!.once('message', r));
  const result = await flood(hostile, data.taskId, {
    messages: data.messages,
    untilDisconnected: true,
    giveUpMs: 20_000,
  });
  hostile.socket.disconnect();
  parentPort!.postMessage(result);
}

(isMainThread ? main() : flooderThread(workerData as FlooderData)).catch((err) => {
  console.error(err);
  process.exit(1);
});
