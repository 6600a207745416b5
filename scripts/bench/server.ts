import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { healthyPort, MAIN, ROOT, signal, type Started, startNode } from '../../test/support/process';

/** Fixed secrets for benchmark servers, so the harness can sign worker JWTs the server accepts. */
export const BENCH_JWT = {
  access: 'bench-access-secret-0123456789abcdefghijklmnopqrstuv',
  refresh: 'bench-refresh-secret-0123456789abcdefghijklmnopqrstu',
};

/** The compiled API to run: BENCH_SERVER_MAIN names another build, to measure two versions with one harness. */
export const COMPILED_MAIN = process.env.BENCH_SERVER_MAIN ?? MAIN;

export interface ThreadTimes {
  cpuMs: number;
  waitMs: number;
}

/** USER_HZ, the unit of utime and stime in /proc/<pid>/stat (100 on Linux on every common architecture). */
const CLOCK_TICKS = 100;

export interface ServerOptions {
  databaseUrl: string;
  dataDir: string;
  /** A port the caller must know beforehand (a notification URL names it); by default the OS picks one. */
  port?: number;
  poolSize?: number;
  env?: Record<string, string>;
  /** Another script to run instead of the API (the bare-handler baseline), with the same environment. */
  main?: string;
}

/**
 * The compiled API as a child process (`node dist/src/main.js`, with `npm start`'s Node flags) against an external
 * PostgreSQL: what the fault tests kill and restart, and what the benchmarks measure. It listens on a port the OS
 * picks (PORT=0, reported over IPC), so nothing can take the port between choosing and binding it; a restart takes
 * the same port again, as a restarted server would. CPU, scheduling and RSS are read from /proc, the server's alone.
 */
export class ServerProcess {
  port = 0;
  /** Milliseconds from spawning the process to its first healthy /health answer (the last start). */
  bootMs = 0;
  private started: Started | null = null;

  private constructor(private readonly options: ServerOptions) {
    this.port = options.port ?? 0;
  }

  static async start(options: ServerOptions): Promise<ServerProcess> {
    const main = options.main ?? COMPILED_MAIN;
    if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
    const server = new ServerProcess(options);
    await server.spawn();
    return server;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    if (!this.started?.child.pid) throw new Error('server is not running');
    return this.started.child.pid;
  }

  get env(): Record<string, string> {
    return serverEnv(this.options, this.port);
  }

  /** (Re)starts the child and waits until /health answers. */
  async spawn(): Promise<void> {
    // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server during a run; with
    // BENCH_SERVER_OUT=/path its output is also appended there whole (e.g. "--trace-gc" lines).
    const nodeArgs = this.options.main
      ? []
      : [...startFlags(), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
    const begun = performance.now();
    this.started = startNode(this.options.main ?? COMPILED_MAIN, [], this.env, {
      defaults: false,
      nodeArgs,
      keepLines: 200,
      logFile: process.env.BENCH_SERVER_OUT,
    });
    this.port = await healthyPort(this.started);
    this.bootMs = Math.round(performance.now() - begun);
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
    return (this.started?.output() ?? '').split('\n').slice(-n).join('\n');
  }

  /** SIGKILL: no shutdown hooks, no flushing, connections cut. */
  async kill9(): Promise<void> {
    if (this.started) await signal(this.started, 'SIGKILL');
    this.started = null;
  }

  /** SIGTERM, then SIGKILL after 15 s; resolves with the exit code (null if it had to be killed). */
  async stop(): Promise<number | null> {
    if (!this.started) return null;
    const code = await signal(this.started, 'SIGTERM');
    this.started = null;
    return code;
  }
}

/** The environment of a server started with these options on `port` (0: the OS picks). */
export function serverEnv(options: ServerOptions, port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    PAYMENT_MODE: 'sandbox',
    SANDBOX_SPAWN: 'false',
    DATABASE_URL: options.databaseUrl,
    DATABASE_POOL_SIZE: String(options.poolSize ?? 20),
    PORT: String(port),
    DATA_DIR: options.dataDir,
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
    // A free port for /metrics (several servers side by side); the metrics-on/off bench sets METRICS_ENABLED.
    METRICS_PORT: '0',
    ...options.env,
  };
}

/**
 * The Node flags `npm start` runs the server with (package.json scripts.start, e.g. the heap budget), so the
 * harnesses run the server as it is started, not a bare `node`.
 */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...args] = pkg.scripts.start.split(/\s+/);
  if (command !== 'node')
    throw new Error(`package.json scripts.start does not run node: ${pkg.scripts.start}`);
  return args.filter((a) => a.startsWith('--'));
}

/** The bare node:http + pg creation handler (scripts/bench/bare-server.ts), the framework-free baseline. */
export const BARE_MAIN = join(ROOT, 'dist', 'scripts', 'bench', 'bare-server.js');

/**
 * `npm start` as a user runs it, on a current build (prestart then skips the build): milliseconds from the command
 * to the first healthy /health answer (null when dist/ is not current: the sources changed since the build). Started
 * in a process group of its own, which is stopped as a whole. PORT=0: npm passes no IPC channel on, so the port the
 * server got is read from its "listening" log line.
 */
export async function timeNpmStart(options: ServerOptions): Promise<number | null> {
  // On a stale build prestart would rebuild dist/ (deleting it first) under the running benchmark: not measured.
  const stamp = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-stamp.mjs'), 'check']);
  if (stamp.status !== 0) return null;
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...serverEnv(options, 0), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let seen = '';
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const line = seen.split('\n').find((l) => l.includes('Legwork listening on'));
        if (line) resolve((JSON.parse(line) as { port: number }).port);
      });
      child.once('exit', (code) => reject(new Error(`npm start exited ${code} before listening`)));
      setTimeout(() => reject(new Error('npm start did not listen within 60 s')), 60_000).unref();
    });
    const giveUp = Date.now() + 60_000;
    while (Date.now() < giveUp) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).ok)
          return Math.round(performance.now() - started);
      } catch {
        // not serving yet
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
