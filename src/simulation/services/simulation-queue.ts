import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import PgBoss from 'pg-boss';
import { DataSource, EntityManager } from 'typeorm';
import { Logger } from '../../common/logging/logger';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';

export const SIMULATION_QUEUE = 'sandbox-worker-action';

interface ActionJob {
  action_id: string;
}

/**
 * The simulated workers' steps on pg-boss: each planned step is a job with `startAfter` at its due time, sent in the
 * transaction that planned it (pg-boss's `db` option), so a plan and its job commit together. Jobs live in
 * PostgreSQL, so they survive a restart, and pg-boss hands each to one worker across all instances. Every process
 * can send; only processes that run jobs (JOBS_IN_PROCESS, or `npm run start:jobs`) work the queue.
 */
@Injectable()
export class SimulationQueue implements OnApplicationBootstrap, OnModuleDestroy {
  private boss: PgBoss | null = null;
  private handler: ((actionId: string) => Promise<void>) | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly logger: Logger,
  ) {}

  /** The one handler of the queue's jobs (the simulator registers it). */
  handle(handler: (actionId: string) => Promise<void>): void {
    this.handler = handler;
  }

  async onApplicationBootstrap(): Promise<void> {
    const url = (this.ds.options as { url?: string }).url;
    if (!url) throw new Error('the simulation queue needs the database URL of the DataSource');
    const working = this.config.runJobsInProcess;
    const boss = new PgBoss({
      connectionString: url,
      max: 2,
      application_name: 'legwork-simulation',
      // The job runner's own pg-boss supervises and schedules; this one only sends and works one queue.
      supervise: false,
      schedule: false,
    });
    boss.on('error', (err) => this.logger.error({ err, component: 'simulation' }, 'pg-boss error'));
    await boss.start();
    await boss.createQueue(SIMULATION_QUEUE, {
      name: SIMULATION_QUEUE,
      policy: 'standard',
      retryLimit: 3,
      retryDelay: 2,
      expireInSeconds: 300,
    });
    if (working) {
      await boss.work<ActionJob>(
        SIMULATION_QUEUE,
        { pollingIntervalSeconds: 0.5, batchSize: 4 },
        async (jobs) => {
          for (const job of jobs) {
            try {
              await this.handler?.(job.data.action_id);
            } catch (err) {
              // pg-boss retries the job; say why it failed.
              this.logger.error({ err, action: job.data.action_id }, 'simulated worker step failed');
              throw err;
            }
          }
        },
      );
    }
    this.boss = boss;
  }

  async onModuleDestroy(): Promise<void> {
    const boss = this.boss;
    this.boss = null;
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000, close: true });
  }

  /** Queues the step `actionId` for `dueAt`, in the caller's transaction. */
  async send(em: EntityManager, actionId: string, dueAt: Date): Promise<void> {
    if (!this.boss) throw new Error('the simulation queue has not started');
    const db = {
      executeSql: async (text: string, values: unknown[]) => ({ rows: await sqlRows(em, text, values) }),
    };
    await this.boss.send(SIMULATION_QUEUE, { action_id: actionId } satisfies ActionJob, {
      startAfter: dueAt,
      db,
    });
  }
}
