import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * The compiled service as child processes, one module for the e2e and fault tests and the benchmarks and soak
 * (scripts/bench, scripts/soak): the server, the CLIs and the job runner started with an environment of the caller's
 * choosing (nothing inherited but PATH and HOME, so a developer's shell cannot leak in), their output kept, health
 * waited for, stopped. It imports nothing but Node: the benchmarks' build (tsconfig.build.json) compiles it too.
 * Needs `npm run build`.
 */

/** The repository root: the nearest directory above this file (compiled or not) with a package.json. */
function repoRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) || dir.endsWith('dist')) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
  return dir;
}

export const ROOT = repoRoot(__dirname);
export const DIST = join(ROOT, 'dist');
export const MAIN = join(DIST, 'src', 'main.js');
export const JOBS_MAIN = join(DIST, 'src', 'jobs.main.js');
export const CLIS = {
  migrate: join(DIST, 'src', 'database', 'migrate.cli.js'),
  'admin:create': join(DIST, 'src', 'admin', 'admin-create.cli.js'),
  'ledger:check': join(DIST, 'src', 'escrow', 'ledger-check.cli.js'),
} as const;

export interface Started {
  child: ChildProcess;
  /** stdout and stderr together (the last `keepLines` lines when set). */
  output: () => string;
  stderr: () => string;
  /** The port a server reported once listening (PORT=0: the one the OS picked); rejects if it exits first. */
  listening: Promise<number>;
  /** The port of its /metrics listener (API and job runner, unless METRICS_ENABLED=false). */
  metricsPort: Promise<number>;
}

export interface SpawnOptions {
  /** Working directory (where `.env` and the default DATA_DIR are looked for); the caller's by default. */
  cwd?: string;
  /** The defaults below are left out when false (to show what a `.env` file alone does). */
  defaults?: boolean;
  /** Node flags before the script (a heap budget, a profiler). */
  nodeArgs?: string[];
  /** Keep only the last lines of output (a long-running server); everything by default. */
  keepLines?: number;
  /** Also append the whole output to this file. */
  logFile?: string;
}

/** A free TCP port on loopback, for a program that must be told one (free when asked: it may be taken by then). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Runs `node <script> ...args`; production logging on and jobs off unless `env` or `defaults: false` says otherwise.
 * An IPC channel is open, on which the server reports the port it listens on.
 */
export function startNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  opts: SpawnOptions = {},
): Started {
  let whole = '';
  const tail: string[] = [];
  let stderr = '';
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), script, ...args], {
    cwd: opts.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...(opts.defaults === false
        ? {}
        : {
            NODE_ENV: 'production',
            LOG_LEVEL: 'info',
            JOBS_IN_PROCESS: 'false',
            // Free ports for /metrics, so processes started side by side never collide on 9464 and 9465.
            METRICS_PORT: '0',
            JOBS_METRICS_PORT: '0',
          }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const keep = (chunk: Buffer): void => {
    if (opts.logFile) appendFileSync(opts.logFile, chunk);
    if (!opts.keepLines) whole += chunk.toString();
    else {
      tail.push(...chunk.toString().split('\n').filter(Boolean));
      tail.splice(0, Math.max(0, tail.length - opts.keepLines));
    }
  };
  const output = (): string => (opts.keepLines ? tail.join('\n') : whole);
  // Both are pipes (stdio above); the types cannot tell from a four-element stdio.
  child.stdout!.on('data', keep);
  child.stderr!.on('data', (c: Buffer) => {
    keep(c);
    stderr += c.toString();
  });
  let metricsPort!: (port: number) => void;
  const metrics = new Promise<number>((resolve, reject) => {
    metricsPort = resolve;
    child.once('exit', (code) => reject(new Error(`exited ${code} before serving metrics`)));
  });
  metrics.catch(() => undefined);
  const listening = new Promise<number>((resolve, reject) => {
    child.on('message', (m: { type?: string; port?: number }) => {
      if (m?.type === 'metrics' && typeof m.port === 'number') {
        metricsPort(m.port);
        // The job runner sends nothing after this (the API still sends 'listening').
        if (script === JOBS_MAIN) child.disconnect();
        return;
      }
      if (m?.type !== 'listening' || typeof m.port !== 'number') return;
      resolve(m.port);
      // Nothing else comes this way; an open channel would keep this process waiting for the child.
      child.disconnect();
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening:\n${output()}`)));
  });
  // A caller that only waits for the exit never reads it.
  listening.catch(() => undefined);
  return { child, output, stderr: () => stderr, listening, metricsPort: metrics };
}

/** `npm start` without the build check: the compiled API. */
export function startServer(env: Record<string, string>, opts: SpawnOptions = {}): Started {
  return startNode(MAIN, [], env, opts);
}

/** Runs a CLI to its end: exit code and output. */
export async function runCli(
  cli: keyof typeof CLIS,
  args: string[],
  env: Record<string, string>,
  opts: SpawnOptions = {},
): Promise<{ code: number; output: string; stderr: string }> {
  const s = startNode(CLIS[cli], args, env, opts);
  const code = await exitOf(s);
  return { code, output: s.output(), stderr: s.stderr() };
}

/** Polls GET /health until it answers 200; fails when the process exits first or after `timeoutMs`. */
export async function waitForHealth(port: number, s: Started, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (s.child.exitCode !== null) throw new Error(`exited ${s.child.exitCode}:\n${s.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no /health on ${port} within ${timeoutMs} ms:\n${s.output()}`);
}

/** A server started with PORT=0 (or any): the port it reported, once /health answers there. */
export async function healthyPort(s: Started, timeoutMs = 60_000): Promise<number> {
  const port = await Promise.race([
    s.listening,
    new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`not listening within ${timeoutMs} ms:\n${s.output()}`)),
        timeoutMs,
      ).unref(),
    ),
  ]);
  await waitForHealth(port, s, timeoutMs);
  return port;
}

export async function exitOf(s: Started): Promise<number> {
  if (s.child.exitCode !== null) return s.child.exitCode;
  const [code] = (await once(s.child, 'exit')) as [number];
  return code;
}

/** SIGINT (Ctrl-C): stops at once, without the drain window. */
export async function stop(s: Started): Promise<void> {
  await signal(s, 'SIGINT');
}

/**
 * Sends `sig` and resolves with the exit code once the process has exited (null when killed by a signal); after
 * `killAfterMs` it is SIGKILLed.
 */
export async function signal(s: Started, sig: NodeJS.Signals, killAfterMs = 15_000): Promise<number | null> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return s.child.exitCode;
  const exited = once(s.child, 'exit') as Promise<[number | null]>;
  s.child.kill(sig);
  const timer = setTimeout(() => s.child.kill('SIGKILL'), killAfterMs);
  const [code] = await exited;
  clearTimeout(timer);
  return code;
}
