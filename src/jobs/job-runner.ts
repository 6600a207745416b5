import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import PgBoss from 'pg-boss';
import { DataSource, EntityManager } from 'typeorm';
import { BossDb } from './boss-db';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { Logger } from '../common/logging/logger';
import type { AppConfig } from '../config/config';
import { WebhookDelivery } from '../events/delivery/webhook-delivery';
import { OutboxPublisher } from '../events/delivery/outbox-publisher';
import { APP_CONFIG } from '../config/config.module';
import { sqlRows } from '../database/sql';
import { PaymentExpiry } from '../payment/services/payment-expiry';
import { PaymentReconciliation } from '../payment/services/payment-reconciliation';
import { TaskTimers } from '../task/services/task-timers';
import { PositionErasure } from '../matching/services/position-erasure';

/** A queue of one-off jobs that another module sends, each at its own time (`startAfter`). */
export interface JobQueue {
  /** pg-boss queue name (letters, digits, hyphens). */
  name: string;
  handle(data: Record<string, unknown>): Promise<void>;
}

export interface ScheduledJob {
  /** pg-boss queue name (letters, digits, hyphens). */
  name: string;
  cron: string;
  run(): Promise<unknown>;
}

/**
 * Background work on pg-boss, in the API process (JOBS_IN_PROCESS=true) or in `npm run start:jobs` runners.
 * Every job is a cron schedule: pg-boss sends each minute's job once however many runners are up (its schedule
 * sends carry a singleton key per minute), and `stately` queues keep at most one queued and one running, so a slow
 * sweep never piles up. The handlers only call service methods whose work is safe to run concurrently anyway
 * (FOR UPDATE SKIP LOCKED, conditions re-checked under the lock), which is also how tests drive them directly.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private boss: PgBoss | null = null;
  private bossDb: BossDb | null = null;
  private stopping = false;
  private readonly queues: JobQueue[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ds: DataSource,
    private readonly logger: Logger,
    private readonly timers: TaskTimers,
    private readonly idempotency: IdempotencyStore,
    private readonly paymentExpiry: PaymentExpiry,
    private readonly reconciliation: PaymentReconciliation,
    private readonly outbox: OutboxPublisher,
    private readonly webhooks: WebhookDelivery,
    private readonly positions: PositionErasure,
  ) {}

  jobs(): ScheduledJob[] {
    return [
      { name: 'task-deadline-sweep', cron: '* * * * *', run: () => this.timers.sweepDeadlines() },
      { name: 'task-offer-expiry', cron: '* * * * *', run: () => this.timers.expireOffers() },
      { name: 'task-auto-approve', cron: '* * * * *', run: () => this.timers.autoApprove() },
      { name: 'idempotency-key-purge', cron: '*/15 * * * *', run: () => this.idempotency.purgeExpired() },
      { name: 'payment-order-expiry', cron: '* * * * *', run: () => this.paymentExpiry.expireDue() },
      { name: 'payment-reconciliation', cron: '*/5 * * * *', run: () => this.reconciliation.reconcile() },
      // PIPL (product-decisions §18, §19): every stored position past its retention is erased, store by store
      // (the trail and last positions after 30 days, proof photos' locations 180 days after the task ends).
      { name: 'position-erasure', cron: '17 * * * *', run: () => this.positions.sweep() },
      // Safety nets: the events module's runner (LISTEN/NOTIFY, then a 1 s poll) publishes and delivers within
      // moments in these same processes; these sweeps keep both moving should that loop ever stall.
      { name: 'events-publish', cron: '* * * * *', run: () => this.outbox.drain() },
      // Stops claiming once shutdown begins, so a backlog cannot outlast the graceful stop below.
      { name: 'webhook-delivery', cron: '* * * * *', run: () => this.webhooks.drain(() => !this.stopping) },
    ];
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.runJobsInProcess) await this.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    const boss = this.boss;
    const db = this.bossDb;
    this.boss = null;
    this.bossDb = null;
    // Before the DataSource closes (onApplicationShutdown): running handlers finish first. pg-boss leaves the
    // connections to us (see BossDb): they close once the workers' last polls, the jobs those returned and their
    // completions are done.
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
    await db?.close();
  }

  get running(): boolean {
    return this.boss !== null;
  }

  /**
   * Adds a queue of one-off jobs (the sandbox's simulated workers' steps), created and worked with the scheduled
   * ones when the runner starts: one pg-boss per process, and its queues created one after another (pg-boss's
   * createQueue can deadlock against itself). Register before the application bootstraps.
   */
  addQueue(queue: JobQueue): void {
    this.queues.push(queue);
  }

  /**
   * Sends a job to a queue added with addQueue, to run at `startAfter` (without it, at once, whatever the clock
   * says: the database's time decides when a job is due), inside the caller's transaction (pg-boss's `db` option):
   * the job exists exactly when that transaction commits. Only a process that runs jobs can send.
   */
  async send(em: EntityManager, name: string, data: object, startAfter?: Date): Promise<void> {
    if (!this.boss) throw new Error(`job queue ${name}: this process does not run jobs`);
    const db = {
      executeSql: async (text: string, values: unknown[]) => ({ rows: await sqlRows(em, text, values) }),
    };
    await this.boss.send(name, data, startAfter ? { startAfter, db } : { db });
  }

  async start(): Promise<void> {
    if (this.boss) return;
    const url = (this.ds.options as { url?: string }).url;
    if (!url) throw new Error('the job runner needs the database URL of the DataSource');
    const logError = (err: Error) => this.logger.error({ err, component: 'jobs' }, 'pg-boss error');
    const db = new BossDb(url, logError);
    const boss = new PgBoss({ db });
    boss.on('error', logError);
    try {
      await boss.start();
      await this.addWorkers(boss, db);
    } catch (err) {
      // What had started polls on a timer: stop it, or it outlives the failed boot.
      await boss.stop({ graceful: false, close: false }).catch(() => undefined);
      await db.close();
      throw err;
    }
    this.boss = boss;
    this.bossDb = db;
    this.logger.info(
      { jobs: this.jobs().map((j) => j.name), queues: this.queues.map((q) => q.name) },
      'background jobs started',
    );
  }

  private async addWorkers(boss: PgBoss, db: BossDb): Promise<void> {
    for (const job of this.jobs()) {
      await boss.createQueue(job.name, { name: job.name, policy: 'stately', expireInSeconds: 600 });
      await boss.schedule(job.name, job.cron, {}, { singletonKey: job.name });
      await boss.work(job.name, () =>
        db.runJob(async () => {
          const started = Date.now();
          const result = await job.run();
          this.logger.debug({ job: job.name, result, ms: Date.now() - started }, 'job done');
        }),
      );
    }
    for (const queue of this.queues) {
      await boss.createQueue(queue.name, {
        name: queue.name,
        policy: 'standard',
        retryLimit: 3,
        retryDelay: 2,
        expireInSeconds: 300,
      });
      await boss.work<Record<string, unknown>>(
        queue.name,
        { pollingIntervalSeconds: 0.5, batchSize: 4 },
        (jobs) =>
          db.runJob(async () => {
            for (const job of jobs) {
              try {
                await queue.handle(job.data);
              } catch (err) {
                // pg-boss retries the job; say why it failed.
                this.logger.error({ err, job: queue.name, id: job.id }, 'job failed');
                throw err;
              }
            }
          }),
      );
    }
  }
}
