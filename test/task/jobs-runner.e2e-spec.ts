import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Logger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/config';
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
});
