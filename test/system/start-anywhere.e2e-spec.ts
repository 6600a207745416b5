import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/databases';

/**
 * `npm start` anywhere (the compiled server, exactly what `npm start` runs): two instances side by side in one
 * checkout (the provider sandbox ports default to free ones), and a start that cannot work stops with one sentence
 * saying what to do, never a stack: a busy embedded-PostgreSQL port, a data directory the `postgres` user cannot
 * enter (as root). Needs `npm run build`.
 */
jest.setTimeout(120_000);

const MAIN = resolve(__dirname, '../../dist/src/main.js');

interface Started {
  child: ChildProcess;
  /** stdout and stderr together. */
  output: () => string;
  stderr: () => string;
}

function start(env: Record<string, string>): Started {
  let output = '';
  let stderr = '';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      JOBS_IN_PROCESS: 'false',
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

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function waitForHealth(port: number, s: Started): Promise<void> {
  const deadline = Date.now() + 60_000;
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

async function exitOf(s: Started): Promise<number> {
  if (s.child.exitCode !== null) return s.child.exitCode;
  const [code] = (await once(s.child, 'exit')) as [number];
  return code;
}

async function stop(s: Started): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  s.child.kill('SIGINT');
  await once(s.child, 'exit');
}

/** The startup refusal: one line on stderr, and no stack trace anywhere. */
function expectOneSentence(s: Started): string {
  const lines = s.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(s.output()).not.toMatch(/^\s+at /m);
  return lines[0];
}

describe('npm start anywhere', () => {
  it('two instances in one checkout start side by side with the sandbox ports unset', async () => {
    const name = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'legwork-start-'));
    const ports = [await freePort(), await freePort()];
    const servers = ports.map((port) =>
      start({ PORT: String(port), DATABASE_URL: databaseUrl(name), DATA_DIR: dataDir }),
    );
    try {
      for (const [i, port] of ports.entries()) await waitForHealth(port, servers[i]);
      // Each spawned its own provider sandbox, on ports of its own.
      const sandboxPorts = servers.map((s) => {
        const line = s
          .output()
          .split('\n')
          .find((l) => l.includes('provider sandbox started'));
        const { alipay, wechat } = JSON.parse(line!) as { alipay: string; wechat: string };
        return [new URL(alipay).port, new URL(wechat).port];
      });
      expect(new Set(sandboxPorts.flat()).size).toBe(4);
      for (const [i, port] of ports.entries()) {
        const health = await fetch(`http://127.0.0.1:${port}/v1/payment/health`);
        // Each instance's providers answer their probes: it reaches its own sandbox at the ports it got.
        const body = (await health.json()) as { status: string; available_providers: string[] };
        expect({ instance: i, ...body }).toMatchObject({
          instance: i,
          status: 'ok',
          available_providers: ['alipay', 'wechat'],
        });
      }
    } finally {
      for (const s of servers) await stop(s);
      rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase(name);
    }
  });

  it('a busy embedded-PostgreSQL port is named in a one-sentence refusal', async () => {
    const blocker: Server = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const busy = (blocker.address() as { port: number }).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'legwork-start-'));
    chmodSync(dataDir, 0o755);
    try {
      const s = start({
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(busy),
        SANDBOX_SPAWN: 'false',
      });
      expect(await exitOf(s)).toBe(1);
      const sentence = expectOneSentence(s);
      expect(sentence).toContain(String(busy));
      expect(sentence).toContain('EMBEDDED_PG_PORT');
    } finally {
      blocker.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot('as root, a data directory the postgres user cannot enter is a one-sentence refusal', async () => {
    // mkdtemp makes the directory 0700, like a fresh clone under /root.
    const closed = mkdtempSync(join(tmpdir(), 'legwork-closed-'));
    try {
      const s = start({
        PORT: String(await freePort()),
        DATA_DIR: join(closed, '.data'),
        EMBEDDED_PG_PORT: String(await freePort()),
        SANDBOX_SPAWN: 'false',
      });
      expect(await exitOf(s)).toBe(1);
      const sentence = expectOneSentence(s);
      expect(sentence).toContain(closed);
      expect(sentence).toContain('postgres');
      expect(sentence).toContain('DATABASE_URL');
    } finally {
      rmSync(closed, { recursive: true, force: true });
    }
  });
});
