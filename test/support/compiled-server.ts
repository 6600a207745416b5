import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/**
 * The compiled service as a user runs it (`npm start` runs `node dist/src/main.js`; the CLIs are `node dist/...`):
 * child processes with an environment of the test's choosing and nothing inherited but PATH and HOME, so a
 * developer's shell settings cannot leak in. Needs `npm run build`.
 */
export const DIST = resolve(__dirname, '../../dist');
export const MAIN = resolve(DIST, 'src/main.js');
export const CLIS = {
  migrate: resolve(DIST, 'src/database/migrate.cli.js'),
  'admin:create': resolve(DIST, 'src/admin/admin-create.cli.js'),
  'ledger:check': resolve(DIST, 'src/escrow/ledger-check.cli.js'),
} as const;

export interface Started {
  child: ChildProcess;
  /** stdout and stderr together. */
  output: () => string;
  stderr: () => string;
}

export interface SpawnOptions {
  /** Working directory (where `.env` and the default DATA_DIR are looked for); the test process's by default. */
  cwd?: string;
  /** The defaults below are left out when false (to show what a `.env` file alone does). */
  defaults?: boolean;
}

/** A free TCP port on loopback (free when asked: another program may take it before it is used). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Runs `node <script> ...args`; production logging on and jobs off unless `env` or `defaults: false` says otherwise. */
export function startNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  opts: SpawnOptions = {},
): Started {
  let output = '';
  let stderr = '';
  const child = spawn(process.execPath, [script, ...args], {
    cwd: opts.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...(opts.defaults === false
        ? {}
        : { NODE_ENV: 'production', LOG_LEVEL: 'info', JOBS_IN_PROCESS: 'false' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
    stderr += c.toString();
  });
  return { child, output: () => output, stderr: () => stderr };
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
  throw new Error(`no /health on ${port}:\n${s.output()}`);
}

export async function exitOf(s: Started): Promise<number> {
  if (s.child.exitCode !== null) return s.child.exitCode;
  const [code] = (await once(s.child, 'exit')) as [number];
  return code;
}

/** SIGINT (Ctrl-C): stops at once, without the drain window. */
export async function stop(s: Started): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  s.child.kill('SIGINT');
  await once(s.child, 'exit');
}
