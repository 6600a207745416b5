import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import type { OutboxEvent } from '../events/event-catalog';
import { OutboxSubscribers } from '../events/delivery/outbox-subscribers';
import { TaskOffers } from '../task/services/task-offers';
import { JobRunner } from './job-runner';

export const ON_CALL_OFFER_QUEUE = 'worker-on-call-offer';

/**
 * A worker going on call is offered the best open task nearby when none waits for them (product-decisions §16).
 * The availability report writes `worker.on_call` in its transaction; where events are published (the processes that
 * run jobs), that event sends a job in the publishing transaction, so the request does no matching of its own and
 * a committed report always gets its job. The job runs the matcher for that one worker (TaskOffers.offerBestTaskTo),
 * which dispatches each candidate task under its row lock as any open slot is; running it twice offers nothing twice.
 */
@Injectable()
export class OnCallOffers implements OnModuleInit {
  constructor(
    private readonly jobs: JobRunner,
    private readonly subscribers: OutboxSubscribers,
    private readonly offers: TaskOffers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.jobs.addQueue({
      name: ON_CALL_OFFER_QUEUE,
      handle: async (data) => {
        if (typeof data.worker_id === 'string') await this.offers.offerBestTaskTo(data.worker_id);
      },
    });
  }

  onModuleInit(): void {
    if (this.config.runJobsInProcess) this.subscribers.register((em, events) => this.onPublished(em, events));
  }

  private async onPublished(em: EntityManager, events: readonly OutboxEvent[]): Promise<void> {
    for (const e of events) {
      if (e.name === 'worker.on_call' && e.worker_id) {
        await this.jobs.send(em, ON_CALL_OFFER_QUEUE, { worker_id: e.worker_id });
      }
    }
  }
}
