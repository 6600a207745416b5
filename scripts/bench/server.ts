import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

export interface ThreadTimes {
  cpuMs: number;
  waitMs: number;
}

/** USER_HZ, the unit of utime and stime in /proc/<pid>/stat (100 on Linux on every common architecture). */
const CLOCK_TICKS = 100;

/** Fixed secrets for benchmark servers, so the harness can sign worker JWTs the server accepts. */
export const BENCH_JWT = {
  access: 'bench-access-secret-0123456789abcdefghijklmnopqrstuv',
  refresh: 'bench-refresh-secret-0123456789abcdefghijklmnopqrstu',
};

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

/**
 * The compiled API (`npm run build`), whether this file runs compiled (bench, soak) or under ts-jest (fault tests).
 * BENCH_SERVER_MAIN points at another build, to measure two versions with the same harness (before/after).
 */
export const COMPILED_MAIN =
  process.env.BENCH_SERVER_MAIN ?? join(repoRoot(__dirname), 'dist', 'src', 'main.js');

/** The bare node:http + pg creation handler (scripts/bench/bare-server.ts), the framework-free baseline. */
export const BARE_MAIN = join(repoRoot(__dirname), 'dist', 'scripts', 'bench', 'bare-server.js');

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => ok(port));
    });
  });
}

export interface ServerOptions {
  databaseUrl: string;
  dataDir: string;
  port?: number;
  poolSize?: number;
  env?: Record<string, string>;
  /** Where the child's output goes (a file path); by default it is discarded except the last lines. */
  logFile?: string;
  /** Another script to run instead of the API (the bare-handler baseline), with the same environment. */
  main?: string;
}

/**
 * The compiled API as a child process (`node dist/src/main.js`), exactly what `npm start` runs, against an external
 * PostgreSQL. Its RSS is read from /proc/<pid>/status, so the figure is the server's alone, not the harness's.
 */
export class ServerProcess {
  readonly port: number;
  readonly baseUrl: string;
  private child: ChildProcess | null = null;
  private tail: string[] = [];
  private exited: Promise<number | null> = Promise.resolve(null);

  private constructor(
    private readonly options: ServerOptions,
    port: number,
  ) {
    this.port = port;
    this.baseUrl = `http://127.0.0.1:${port}`;
  }

  static async start(options: ServerOptions): Promise<ServerProcess> {
    const main = options.main ?? COMPILED_MAIN;
    if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
    const server = new ServerProcess(options, options.port ?? (await freePort()));
    await server.spawn();
    return server;
  }

  get pid(): number {
    if (!this.child?.pid) throw new Error('server is not running');
    return this.child.pid;
  }

  /** The environment a server started with these options gets. */
  static async envFor(options: ServerOptions): Promise<Record<string, string>> {
    return new ServerProcess(options, options.port ?? (await freePort())).env;
  }

  get env(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      PAYMENT_MODE: 'sandbox',
      SANDBOX_SPAWN: 'false',
      DATABASE_URL: this.options.databaseUrl,
      DATABASE_POOL_SIZE: String(this.options.poolSize ?? 20),
      PORT: String(this.port),
      DATA_DIR: this.options.dataDir,
      LOG_LEVEL: 'warn',
      JWT_ACCESS_SECRET: BENCH_JWT.access,
      JWT_REFRESH_SECRET: BENCH_JWT.refresh,
      JWT_ACCESS_TTL_SECONDS: '3600',
      // Per-worker and per-IP budgets would throttle a load generator that plays hundreds of users from one IP.
      WORKER_RATE_LIMIT_PER_MINUTE: '100000',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      WS_HANDSHAKES_PER_MINUTE_PER_IP: '100000',
      // No load balancer to wait for: stop at once unless a test measures the drain (test/fault/drain).
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...this.options.env,
    };
  }

  /** (Re)starts the child and waits until /health answers. */
  async spawn(): Promise<void> {
    // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server during a run; with
    // BENCH_SERVER_OUT=/path its output is also appended there whole (e.g. "--trace-gc" lines).
    const nodeArgs = this.options.main
      ? []
      : [...startFlags(), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
    const child = spawn(process.execPath, [...nodeArgs, this.options.main ?? COMPILED_MAIN], {
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((ok) => child.once('exit', (code) => ok(code)));
    const out = process.env.BENCH_SERVER_OUT;
    const keep = (chunk: Buffer): void => {
      if (out) appendFileSync(out, chunk);
      this.tail.push(...chunk.toString().split('\n').filter(Boolean));
      if (this.tail.length > 200) this.tail.splice(0, this.tail.length - 200);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const started = performance.now();
    await this.waitHealthy(60_000);
    this.bootMs = Math.round(performance.now() - started);
  }

  /** Milliseconds from spawning the process to its first healthy /health answer (the last start). */
  bootMs = 0;

  async waitHealthy(timeoutMs: number): Promise<void> {
    const giveUp = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (Date.now() < giveUp) {
      if (exited) throw new Error(`server exited during start:\n${this.lastLines()}`);
      try {
        const res = await fetch(`${this.baseUrl}/health`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`server did not become healthy in ${timeoutMs} ms:\n${this.lastLines()}`);
  }

  /**
   * CPU time the server process has used so far (user + system), in ms, from /proc/<pid>/stat: a run's difference
   * divided by its requests is the server's CPU per request, which a busy shared machine distorts far less than
   * throughput.
   */
  cpuMs(): number {
    const stat = readFileSync(join('/proc', String(this.pid), 'stat'), 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  }

  /**
   * The main thread's (the event loop's) time on a CPU and its time runnable but waiting for one, in ms, from
   * /proc/<pid>/task/<pid>/schedstat (nanoseconds). The wait is what the thread loses to the other processes on
   * the machine (PostgreSQL's backends, the load generator) while it has work to do.
   */
  mainThread(): ThreadTimes {
    const [onCpu, waiting] = readFileSync(
      join('/proc', String(this.pid), 'task', String(this.pid), 'schedstat'),
      'utf8',
    )
      .trim()
      .split(' ')
      .map(Number);
    return { cpuMs: onCpu / 1e6, waitMs: waiting / 1e6 };
  }

  /** Resident set size of the server process in MiB (VmRSS). */
  rssMiB(): number {
    const status = readFileSync(join('/proc', String(this.pid), 'status'), 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
    return Math.round((kb / 1024) * 10) / 10;
  }

  lastLines(n = 40): string {
    return this.tail.slice(-n).join('\n');
  }

  /** SIGKILL: no shutdown hooks, no flushing, connections cut. */
  async kill9(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
    this.child = null;
  }

  /** SIGTERM, then SIGKILL after 15 s; resolves with the exit code (null if it had to be killed). */
  async stop(): Promise<number | null> {
    if (!this.child) return null;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), 15_000);
    const code = await this.exited;
    clearTimeout(timer);
    this.child = null;
    return code;
  }
}

/**
 * `npm start` as a user runs it, on a current build (prestart then skips the build): milliseconds from the command
 * to the first healthy /health answer (null when dist/ is not current: the sources changed since the build). Started
 * in a process group of its own, which is stopped as a whole.
 */
export async function timeNpmStart(options: ServerOptions): Promise<number | null> {
  // On a stale build prestart would rebuild dist/ (deleting it first) under the running benchmark: not measured.
  const stamp = spawnSync(process.execPath, [
    join(repoRoot(__dirname), 'scripts', 'build-stamp.mjs'),
    'check',
  ]);
  if (stamp.status !== 0) return null;
  const port = await freePort();
  const template = await ServerProcess.envFor({ ...options, port });
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: repoRoot(__dirname),
    env: template,
    stdio: 'ignore',
    detached: true,
  });
  try {
    const giveUp = Date.now() + 60_000;
    while (Date.now() < giveUp) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).ok)
          return Math.round(performance.now() - started);
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('npm start did not answer /health within 60 s');
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((ok) => child.once('exit', ok));
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
  }
}

/**
 * The Node flags `npm start` runs the server with (package.json scripts.start, e.g. the heap budget), so the
 * benchmarks measure the server as it is started, not a bare `node`.
 */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(repoRoot(__dirname), 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...args] = pkg.scripts.start.split(/\s+/);
  if (command !== 'node')
    throw new Error(`package.json scripts.start does not run node: ${pkg.scripts.start}`);
  return args.filter((a) => a.startsWith('--'));
}
