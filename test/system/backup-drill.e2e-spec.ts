import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, creations, startProcessRig, type ProcessRig } from '../fault/process-support';
import { DIST, exitOf, startNode } from '../support/process';

const DRILL = join(DIST, 'scripts', 'backup-drill.js');

/**
 * `npm run backup:drill` against a running API under load (docs/operations.md): the dump of one snapshot restores
 * into a new database whose ledger is clean and whose balances and row counts equal the snapshot's, while task
 * creations keep committing on the source. And it refuses, naming what to install, when pg_dump's major version is
 * not the server's. Needs `npm run build` and the machine's PostgreSQL client tools.
 */
describe('backup drill', () => {
  let rig: ProcessRig;
  const fakeBin = mkdtempSync(join(tmpdir(), 'legwork-fake-pg-'));

  beforeAll(async () => {
    rig = await startProcessRig(4);
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
    rmSync(fakeBin, { recursive: true, force: true });
  });

  function drill(args: string[] = []) {
    const url = rig.server.env.DATABASE_URL;
    return startNode(DRILL, args, { DATABASE_URL: url, DATA_DIR: rig.server.env.DATA_DIR });
  }

  it('restores a snapshot taken under traffic: ledger clean, balances equal', async () => {
    // Traffic before and during the drill.
    const first = await Promise.all(creations(rig.agents, 40).map((c) => create(rig.server, c)));
    expect(first.every((a) => a.status === 201)).toBe(true);
    let stop = false;
    let during = 0;
    const traffic = (async () => {
      while (!stop) {
        const answers = await Promise.all(creations(rig.agents, 8).map((c) => create(rig.server, c)));
        during += answers.filter((a) => a.status === 201).length;
      }
    })();
    const run = drill();
    const code = await exitOf(run);
    stop = true;
    await traffic;
    const out = run.output();
    console.log(`backup drill output (with ${during} task creations committing meanwhile):\n${out}`);
    expect(code).toBe(0);
    expect(out).toMatch(/ledger check on the copy: ok/);
    expect(out).toMatch(/balances: (\d+) accounts in the snapshot, \1 in the copy, 0 differing/);
    expect(out).toMatch(/drill passed/);
    expect(during).toBeGreaterThan(0);
    // The copy was dropped.
    const { rows } = await rig.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_database WHERE datname LIKE $1`,
      [`${new URL(rig.server.env.DATABASE_URL).pathname.slice(1)}_drill_%`],
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuses, saying what to install, when pg_dump is of another major version', async () => {
    const fake = join(fakeBin, 'pg_dump');
    writeFileSync(fake, '#!/bin/sh\necho "pg_dump (PostgreSQL) 18.1"\n');
    chmodSync(fake, 0o755);
    const run = drill([`--pg-bin=${fakeBin}`]);
    expect(await exitOf(run)).toBe(2);
    const out = run.output();
    expect(out).toMatch(
      /backup drill refused: The server runs PostgreSQL \d+, and no pg_dump of that major version/,
    );
    expect(out).toMatch(/apt-get install postgresql-client-\d+/);
    expect(out).toContain('18.1');
  });
});
