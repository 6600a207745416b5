import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { OutboxEvent } from '../../events/event-catalog';
import { OutboxSubscribers } from '../../events/delivery/outbox-subscribers';
import { JobRunner } from '../../jobs/job-runner';
import { dueAt, OfferSms } from './offer-sms';
import { OfferPush } from './offer-push';

export const OFFER_PUSH_QUEUE = 'offer-push';
export const OFFER_SMS_QUEUE = 'offer-sms';

/**
 * Offers that reach a closed app (product-decisions §16): socket if connected (the gateway, as every event), Web Push to
 * the worker's devices at once, SMS when still unanswered after 30 s. An offer's `assignment.offered` event, seen
 * where it is published (OutboxSubscribers, in the publishing transaction, so this runs once per offer), queues a
 * push job due now and an SMS job due 30 s after the offer was made, both on pg-boss: they survive a restart, run
 * on whichever job runner polls first, and nothing waits in a process's timer. Simulated workers get neither; a
 * sandbox test clock's offers get no SMS job, the clock's advance sends their SMS at the clock's time.
 */
@Injectable()
export class OfferLadder implements OnModuleInit {
  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobRunner,
    private readonly subscribers: OutboxSubscribers,
    private readonly push: OfferPush,
    private readonly sms: OfferSms,
  ) {
    this.jobs.addQueue({ name: OFFER_PUSH_QUEUE, handle: (data) => this.onPushJob(data) });
    this.jobs.addQueue({ name: OFFER_SMS_QUEUE, handle: (data) => this.onSmsJob(data) });
  }

  onModuleInit(): void {
    // Where events are published, jobs run (JOBS_IN_PROCESS, or the job runner process), so the jobs can be sent.
    if (this.config.runJobsInProcess) this.subscribers.register((em, events) => this.onPublished(em, events));
  }

  private async onPublished(em: EntityManager, events: readonly OutboxEvent[]): Promise<void> {
    const ids = events
      .filter((e) => e.name === 'assignment.offered' && e.worker_id)
      .map((e) => String(e.data.assignment_id));
    if (ids.length === 0) return;
    const offers = await sqlRows<{ id: string; offered_at: Date; test_clock_id: string | null }>(
      em,
      `SELECT a.id, a.offered_at, t.test_clock_id
         FROM assignments a JOIN tasks t ON t.id = a.task_id JOIN workers w ON w.id = a.worker_id
        WHERE a.id = ANY($1::uuid[]) AND a.offered_at IS NOT NULL AND w.simulated_by_agent_id IS NULL`,
      [ids],
    );
    for (const offer of offers) {
      await this.jobs.send(em, OFFER_PUSH_QUEUE, { assignment_id: offer.id }, new Date());
      if (!offer.test_clock_id)
        await this.jobs.send(em, OFFER_SMS_QUEUE, { assignment_id: offer.id }, dueAt(offer));
    }
  }

  private async onPushJob(data: Record<string, unknown>): Promise<void> {
    if (typeof data.assignment_id === 'string') await this.push.send(data.assignment_id);
  }

  private async onSmsJob(data: Record<string, unknown>): Promise<void> {
    const id = data.assignment_id;
    if (typeof id !== 'string') return;
    // A job that runs before its time (the application clock behind the database's) goes back for then.
    await this.sms.send(id, (due) =>
      inTransaction(this.ds, (em) => this.jobs.send(em, OFFER_SMS_QUEUE, { assignment_id: id }, due)),
    );
  }
}
