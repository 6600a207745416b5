import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { claimNoticeDelivery, settleNoticeDelivery } from '../../events/worker-notification-deliveries';
import { JobRunner } from '../../jobs/job-runner';
import { moneyPushPayload } from '../push-payload';
import { loadNotice } from '../worker-notifications.rows';
import { PushSubscriptionsService } from './push-subscriptions.service';
import { type PushOutcome, undeliveredSummary, WebPushSender } from './web-push-sender';

export const MONEY_PUSH_QUEUE = 'money-push';
/** A push service keeps news of money a day for a device that is off; an offer's push lives as long as the offer. */
const MONEY_PUSH_TTL_SECONDS = 24 * 3600;

/**
 * The Web Push rung for a worker's money notifications (product-decisions §19 through §16): at once to every device
 * the worker subscribed, in each device's language, opening the assignment's page. The channel's row is claimed
 * before anything is sent, so a job run again (a retry, a second runner) sends nothing more: at most one push per
 * notification, and a crash between the claim and the push service loses that push, never the notification (the
 * inbox has it). The row then says `sent` when a device's push service took it, `failed` when none did,
 * `no_connection` when the worker has no subscribed device.
 */
@Injectable()
export class MoneyPush {
  constructor(
    private readonly ds: DataSource,
    private readonly jobs: JobRunner,
    private readonly subscriptions: PushSubscriptionsService,
    private readonly sender: WebPushSender,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.jobs.addQueue({ name: MONEY_PUSH_QUEUE, handle: (data) => this.onJob(data) });
  }

  /** Queues the push of a notification, in the transaction that made it. */
  schedule(em: EntityManager, notificationId: string): Promise<void> {
    return this.jobs.send(em, MONEY_PUSH_QUEUE, { notification_id: notificationId });
  }

  private async onJob(data: Record<string, unknown>): Promise<void> {
    if (typeof data.notification_id === 'string') await this.send(data.notification_id);
  }

  /** Pushes the notification once; the outcome per device (none when it was pushed before or has no device). */
  async send(notificationId: string): Promise<PushOutcome[]> {
    const notice = await loadNotice(this.ds, notificationId);
    if (!notice) return [];
    const now = this.clock.now();
    const devices = await this.subscriptions.forWorker(notice.worker_id, now);
    const delivery = { notificationId, channel: 'push' as const, at: now };
    const claimed = await claimNoticeDelivery(this.ds, {
      ...delivery,
      status: devices.length > 0 ? 'sent' : 'no_connection',
    });
    if (!claimed || devices.length === 0) return [];
    const outcomes = await Promise.all(
      devices.map((d) =>
        this.sender.send(d, JSON.stringify(moneyPushPayload(notice, d.locale)), {
          ttlSeconds: MONEY_PUSH_TTL_SECONDS,
          urgency: 'normal',
        }),
      ),
    );
    for (const [i, o] of outcomes.entries())
      if (o.result === 'gone') await this.subscriptions.forget(devices[i].id);
    if (!outcomes.some((o) => o.result === 'delivered')) {
      await settleNoticeDelivery(this.ds, {
        ...delivery,
        status: 'failed',
        at: this.clock.now(),
        detail: undeliveredSummary(outcomes),
      });
    }
    this.logger.info(
      {
        notification_id: notificationId,
        kind: notice.kind,
        push: outcomes.map((o) => `${o.result}:${o.statusCode ?? '-'}`),
      },
      'money notification pushed',
    );
    return outcomes;
  }
}
