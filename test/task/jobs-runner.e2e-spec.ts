import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import { Logger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/config';
import { BossDb } from '../../src/jobs/boss-db';
import { JobRunner } from '../../src/jobs/job-runner';
import { JobsRunnerModule } from '../../src/jobs/jobs-runner.module';
import { TaskTimers } from '../../src/task/services/task-timers';
import { createTestApp, TEST_ENV } from '../support/app';
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/databases';

/** The `npm run start:jobs` process: its module graph boots without HTTP and starts pg-boss with every schedule. */
describe('job-runner process', () => {
  it('boots the jobs only, even with JOBS_IN_PROCESS=false, and stops cleanly', async () => {
    const name = await createTestDatabase();
    try {
      const url = databaseUrl(name);
      const config = loadConfig({ ...TEST_ENV, DATABASE_URL: url, JOBS_IN_PROCESS: 'false' });
      const app = await NestFactory.createApplicationContext(
        JobsRunnerModule.register(config, url, new Logger('silent')),
        { logger: false },
      );
      await app.init();
      expect(app.get(JobRunner).running).toBe(true);
      expect(await app.get(TaskTimers).runDue()).toEqual({ deadlines: 0, offers: 0, autoApproved: 0 });
      const schedules: { name: string }[] = await app
        .get(DataSource)
        .query(`SELECT name FROM pgboss.schedule ORDER BY name`);
      expect(schedules.map((s) => s.name)).toEqual([
        'events-publish',
        'idempotency-key-purge',
        'payment-order-expiry',
        'payment-reconciliation',
        'position-erasure',
        'task-auto-approve',
        'task-deadline-sweep',
        'task-offer-expiry',
        'webhook-delivery',
      ]);
      await app.close();
      expect(app.get(JobRunner).running).toBe(false);
    } finally {
      await dropDatabase(name);
    }
  });

  it('an API process with JOBS_IN_PROCESS=false leaves the jobs to the runners', async () => {
    const t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
    try {
      expect(t.app.get(JobRunner).running).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('stopping while the workers wait for a connection strands no poll', async () => {
    const name = await createTestDatabase();
    const url = databaseUrl(name);
    const errors: Error[] = [];
    const db = new BossDb(url, (err) => errors.push(err));
    const boss = new PgBoss({ db });
    boss.on('error', (err) => errors.push(err));
    const locker = new Client({ connectionString: url });
    try {
      await boss.start();
      for (let i = 0; i < 8; i++) {
        await boss.createQueue(`q${i}`);
        await boss.work(`q${i}`, { pollingIntervalSeconds: 0.5 }, async () => undefined);
      }
      // Block every poll in PostgreSQL: three hold the pool's connections, the others queue for one.
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE pgboss.job IN ACCESS EXCLUSIVE MODE');
      for (let i = 0; i < 50 && db.counts.waiting === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(db.counts.waiting).toBeGreaterThan(0);

      await boss.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
      const closed = db.close();
      await locker.query('COMMIT');
      await closed;
      // pg-boss's own pool would end with those polls still queued, and their workers would never stop.
      expect(db.counts).toEqual({ open: 0, waiting: 0 });
      await expect(db.executeSql('SELECT 1')).rejects.toThrow('the job runner is stopping');
      // Every poll returned normally: none failed on a closed pool.
      expect(errors).toEqual([]);
    } finally {
      await locker.end().catch(() => undefined);
      await db.close();
      await dropDatabase(name);
    }
  });
  it('a job whose poll was in flight when stopping began still runs, and its completion is written before the pool ends', async () => {
    const name = await createTestDatabase();
    const url = databaseUrl(name);
    const errors: unknown[] = [];
    const unhandled = (reason: unknown) => errors.push(reason);
    process.on('unhandledRejection', unhandled);
    const db = new BossDb(url, (err) => errors.push(err));
    const boss = new PgBoss({ db });
    boss.on('error', (err) => errors.push(err));
    const locker = new Client({ connectionString: url });
    const handled: string[] = [];
    try {
      await boss.start();
      await boss.createQueue('late');
      const id = await boss.send('late', { n: 1 });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE pgboss.job IN ACCESS EXCLUSIVE MODE');
      await boss.work('late', { pollingIntervalSeconds: 0.5 }, (jobs) =>
        db.runJob(async () => {
          await new Promise((r) => setTimeout(r, 300));
          handled.push(...jobs.map((j) => j.id));
        }),
      );
      for (let i = 0; i < 50 && db.counts.open === 0; i++) await new Promise((r) => setTimeout(r, 50));

      // pg-boss sees no job in progress (the poll has not returned), so its stop is over at once.
      await boss.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
      const closed = db.close();
      await locker.query('COMMIT');
      await closed;

      expect(handled).toEqual([id]);
      const check = new Client({ connectionString: url });
      await check.connect();
      const { rows } = await check.query('SELECT state FROM pgboss.job WHERE id = $1', [id]);
      await check.end();
      expect(rows).toEqual([{ state: 'completed' }]);
      expect(errors).toEqual([]);
    } finally {
      process.off('unhandledRejection', unhandled);
      await locker.end().catch(() => undefined);
      await db.close();
      await dropDatabase(name);
    }
  });
});
