import { once } from 'node:events';
import { chmodSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  exitOf,
  freePort,
  healthyPort,
  runCli,
  type Started,
  startServer as start,
  stop,
  waitForHealth,
} from '../support/process';
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/databases';

/**
 * `npm start` anywhere (the compiled server, exactly what `npm start` runs): two instances side by side in one
 * checkout (the provider sandbox ports default to free ones), the embedded database shared with `admin:create` and
 * `ledger:check` while the server runs on it, as root in a directory the `postgres` user cannot enter (the cluster
 * goes where it can), and a start that cannot work stops with one sentence saying what to do, never a stack: a busy
 * embedded-PostgreSQL port. Needs `npm run build`.
 */
jest.setTimeout(120_000);

/** The startup refusal: one line on stderr, and no stack trace anywhere. */
function expectOneSentence(s: Started): string {
  const lines = s.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(s.output()).not.toMatch(/^\s+at /m);
  return lines[0];
}

describe('npm start anywhere', () => {
  it('two instances in one checkout start side by side with the sandbox ports unset, on ports the OS picks', async () => {
    const name = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'legwork-start-'));
    const servers = [0, 1].map(() =>
      start({ PORT: '0', DATABASE_URL: databaseUrl(name), DATA_DIR: dataDir }),
    );
    try {
      const ports: number[] = [];
      for (const s of servers) ports.push(await healthyPort(s));
      expect(new Set(ports).size).toBe(2);
      // PORT=0: the port the OS picked is the one the configuration names (PUBLIC_BASE_URL's default, the log line).
      for (const [i, port] of ports.entries()) {
        expect(servers[i].output()).toContain(
          `Legwork listening on http://localhost:${port} (docs at /docs)`,
        );
      }
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

  it('on the embedded database, configured by a .env alone: ledger:check and admin:create run while it serves', async () => {
    // A checkout's root as a user has it: nothing set but a .env file; DATA_DIR is the default .data under it.
    const root = mkdtempSync(join(tmpdir(), 'legwork-embedded-'));
    chmodSync(root, 0o755);
    const port = await freePort();
    const pgPort = await freePort();
    writeFileSync(join(root, '.env'), `PORT=${port}\nEMBEDDED_PG_PORT=${pgPort}\n`);
    const started = Date.now();
    const server = start({}, { cwd: root });
    try {
      await waitForHealth(port, server, 110_000);
      console.log(`embedded PostgreSQL initialised, migrated and serving in ${Date.now() - started} ms`);
      expect(server.output()).toContain('"database":"embedded"');

      // Both CLIs find the running cluster by the same .env and DATA_DIR and share it (they do not start a
      // second server on the same data directory).
      await expectClisBeside(port, root, 'ops@example.com');
    } finally {
      await stop(server);
      rmSync(root, { recursive: true, force: true });
    }
  }, 180_000);

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

  // As root PostgreSQL runs as the `postgres` user, which cannot enter a 0700 directory (a clone under /root, what
  // mkdtemp makes): its binaries (when the checkout is closed too) and its data go where it can.
  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot(
    'as root in a directory the postgres user cannot enter, it runs, said in one line; the CLIs find its port alone',
    async () => {
      const closed = mkdtempSync(join(tmpdir(), 'legwork-closed-'));
      const pgPort = await freePort();
      // EMBEDDED_PG_PORT for the server only: the CLIs below are not told it.
      const server = start(
        { PORT: '0', EMBEDDED_PG_PORT: String(pgPort), SANDBOX_SPAWN: 'false' },
        { cwd: closed },
      );
      let relocated: string | null = null;
      try {
        const port = await healthyPort(server, 110_000);
        const moves = server
          .output()
          .split('\n')
          .filter((l) => l.includes('embedded PostgreSQL runs as the postgres user'));
        expect(moves).toHaveLength(1);
        const moved = JSON.parse(moves[0]) as {
          closed: string;
          data_dir: string;
          bin_dir: string;
          msg: string;
        };
        relocated = moved.data_dir;
        expect(moved.closed).toBe(closed);
        expect(relocated).toMatch(/^\/var\/lib\/legwork\/[0-9a-f]{16}\/pg$/);
        expect(moved.msg).toContain(
          `its data is in ${relocated} (${join(closed, '.data', 'pg')} links there)`,
        );
        // DATA_DIR/pg leads there, so every process of the checkout finds the cluster where it always was.
        expect(realpathSync(join(closed, '.data', 'pg'))).toBe(relocated);
        expect(everyoneMayEnter(moved.bin_dir)).toBe(true);

        // Run in that directory with nothing set, as a user would: they find the running cluster's port.
        await expectClisBeside(port, closed, 'root@example.com');
      } finally {
        await stop(server);
        rmSync(closed, { recursive: true, force: true });
        if (relocated) rmSync(dirname(relocated), { recursive: true, force: true });
      }
    },
    180_000,
  );
});

/**
 * `admin:create` then `ledger:check`, run in `cwd` with nothing set, beside the server on `port`: they use the
 * cluster it runs (the operator they create logs in there) and leave it running (it still answers after them).
 */
async function expectClisBeside(port: number, cwd: string, email: string): Promise<void> {
  const login = () =>
    fetch(`http://127.0.0.1:${port}/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'operator-pass-123' }),
    });
  const admin = await runCli(
    'admin:create',
    ['--email', email, '--password', 'operator-pass-123'],
    {},
    { cwd },
  );
  expect(admin).toMatchObject({ code: 0, stderr: '' });
  expect(admin.output).toMatch(new RegExp(`^Operator ${email.replace(/\./g, '\\.')} created \\(id `));
  expect((await login()).status).toBe(200);
  const ledger = await runCli('ledger:check', [], {}, { cwd });
  expect(ledger.code).toBe(0);
  expect(JSON.parse(ledger.output)).toMatchObject({ ok: true, violations: [] });
  expect((await login()).status).toBe(200);
}

/** Whether every directory on the way to `path` lets other users in (the execute bit for others). */
function everyoneMayEnter(path: string): boolean {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
}
