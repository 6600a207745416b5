import { Socket } from 'node:net';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { JOBS_DATA_SOURCE } from '../../src/database/data-source';
import { sqlRows } from '../../src/database/sql';
import { beforeCommit, inTransaction } from '../../src/database/transaction';
import { createTestApp, TestApp } from '../support/app';

/**
 * inTransaction sends BEGIN in the same write as a first SELECT and COMMIT in the same write as the commit hooks'
 * statements. These tests hold it to what a transaction must still be: all or nothing, whichever statement fails,
 * and a connection left clean for the next unit of work.
 */
describe('inTransaction', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No background jobs: their own transactions (the outbox and delivery loops, the scheduled sweeps) are idle in
    // transaction between statements, which noneLeftOpen would see at random; only these tests' units use the database.
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
    await t.db.query(`CREATE TABLE tx_probe (id int PRIMARY KEY, note text NOT NULL)`);
  });
  afterAll(() => t.close());

  const probe = async (): Promise<number[]> =>
    (await t.db.query<{ id: number }[]>(`SELECT id FROM tx_probe ORDER BY id`)).map((r) => r.id);
  const insert = (id: number) => ({
    sql: `INSERT INTO tx_probe (id, note) VALUES ($1, 'hook')`,
    params: [id],
  });
  const socketOf = (em: EntityManager): Socket =>
    (em.queryRunner as unknown as { databaseConnection: { connection: { stream: Socket } } })
      .databaseConnection.connection.stream;
  /** No connection of this database is left inside a transaction. */
  const noneLeftOpen = async () =>
    expect(
      await t.db.query(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      ),
    ).toEqual([]);

  beforeEach(() => t.db.query(`TRUNCATE tx_probe`));

  it('BEGIN goes with a first SELECT and COMMIT with the hook statements: three writes for five statements', async () => {
    const writev = jest.spyOn(Socket.prototype as unknown as { _writev: () => void }, '_writev');
    const write = jest.spyOn(Socket.prototype as unknown as { _write: () => void }, '_write');
    let socket: Socket | undefined;
    try {
      const result = await inTransaction(t.db, async (em) => {
        const [row] = await em.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM (SELECT id FROM tx_probe FOR SHARE) locked`,
        );
        socket = socketOf(em);
        await em.query(`INSERT INTO tx_probe (id, note) VALUES (1, 'work')`);
        beforeCommit(em, insert, () => insert(2));
        return row.n;
      });
      expect(result).toBe(0);
      const writes = [...writev.mock.contexts, ...write.mock.contexts].filter((s) => s === socket);
      expect(writes).toHaveLength(3);
    } finally {
      writev.mockRestore();
      write.mockRestore();
    }
    expect(await probe()).toEqual([1, 2]);
    await noneLeftOpen();
  });

  it('a first SELECT that fails fails the unit as a query error, and nothing after it runs', async () => {
    const work = jest.fn();
    await expect(
      inTransaction(t.db, async (em) => {
        await em.query(`SELECT 1 / (count(*)::int - count(*)::int) FROM tx_probe`);
        work();
      }),
    ).rejects.toMatchObject({ name: 'QueryFailedError', driverError: { code: '22012' } });
    expect(work).not.toHaveBeenCalled();
    await noneLeftOpen();
  });

  it('a unit that writes first begins on its own, and a failure later rolls the write back', async () => {
    await expect(
      inTransaction(t.db, async (em) => {
        await em.query(`INSERT INTO tx_probe (id, note) VALUES (1, 'work')`);
        await em.query(`INSERT INTO tx_probe (id, note) VALUES (1, 'again')`);
      }),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
    expect(await probe()).toEqual([]);
    await noneLeftOpen();
  });

  it('a hook statement that fails rolls back the whole unit: COMMIT is answered with ROLLBACK', async () => {
    await t.db.query(`INSERT INTO tx_probe (id, note) VALUES (9, 'before')`);
    await expect(
      inTransaction(t.db, async (em) => {
        await em.query(`SELECT id FROM tx_probe WHERE id = 9 FOR UPDATE`);
        await em.query(`INSERT INTO tx_probe (id, note) VALUES (1, 'work')`);
        beforeCommit(em, insert, () => insert(9));
      }),
    ).rejects.toMatchObject({ name: 'QueryFailedError', driverError: { code: '23505' } });
    expect(await probe()).toEqual([9]);
    await noneLeftOpen();
  });

  it('the work throwing rolls back what it wrote and sends no hook statement', async () => {
    await expect(
      inTransaction(t.db, async (em) => {
        await em.query(`SELECT 1`);
        await em.query(`INSERT INTO tx_probe (id, note) VALUES (1, 'work')`);
        beforeCommit(em, insert, () => insert(2));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await probe()).toEqual([]);
    await noneLeftOpen();
  });

  it('a unit with only hook statements begins first; a unit with no statement at all sends nothing', async () => {
    await inTransaction(t.db, async (em) => {
      beforeCommit(em, insert, () => insert(3));
    });
    expect(await probe()).toEqual([3]);
    await expect(inTransaction(t.db, async () => 'nothing')).resolves.toBe('nothing');
    await noneLeftOpen();
  });

  it('a query on the pool or a nested transaction inside a unit of work is refused, and the unit rolls back', async () => {
    for (const onThePool of [
      () => sqlRows(t.db, `SELECT 1`),
      () => inTransaction(t.db, async () => undefined),
    ]) {
      await expect(
        inTransaction(t.db, async (em) => {
          await em.query(`INSERT INTO tx_probe (id, note) VALUES (1, 'work')`);
          await onThePool();
        }),
      ).rejects.toThrow('inside a transaction would hold one connection while waiting for another');
    }
    expect(await probe()).toEqual([]);
    await noneLeftOpen();
  });
});

describe('connection settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const setting = async (ds: DataSource, name: string): Promise<string> =>
    (await ds.query<Record<string, string>[]>(`SHOW ${name}`))[0][name];

  it('requests (money) commit synchronously; the at-least-once jobs pool does not wait for the WAL flush', async () => {
    const jobs = t.app.get<DataSource>(getDataSourceToken(JOBS_DATA_SOURCE));
    expect(await setting(t.db, 'synchronous_commit')).toBe('on');
    expect(await setting(jobs, 'synchronous_commit')).toBe('off');
    for (const ds of [t.db, jobs]) {
      expect(await setting(ds, 'default_transaction_isolation')).toBe('read committed');
    }
  });
});
