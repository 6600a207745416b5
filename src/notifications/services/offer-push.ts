import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { recordOfferDelivery } from '../../events/offer-deliveries';
import { loadOffer } from '../offer-ladder.rows';
import { offerPushPayload } from '../push-payload';
import { PushSubscriptionsService } from './push-subscriptions.service';
import { type PushOutcome, undeliveredSummary, WebPushSender } from './web-push-sender';

/**
 * The second rung of the ladder: an offer pushed at once to every device the worker subscribed (product-decisions §16),
 * with a TTL of the time the offer has left, so a push service never hands over an offer that has lapsed. The
 * channel's row in offer_deliveries is claimed first (one push per offer whatever the job runs), then says
 * `sent` when a device's push service took it, `failed` when none did. Subscriptions their push service reports gone
 * are deleted. A worker with no subscribed device gets a `no_connection` row.
 */
@Injectable()
export class OfferPush {
  constructor(
    private readonly ds: DataSource,
    private readonly subscriptions: PushSubscriptionsService,
    private readonly sender: WebPushSender,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Pushes the offer if it still waits for an answer; the outcome per device, for the log and the tests. */
  async send(assignmentId: string): Promise<PushOutcome[]> {
    const offer = await loadOffer(this.ds, assignmentId);
    if (!offer || offer.status !== 'pending' || offer.simulated) return [];
    const now = offer.clock_time ?? this.clock.now();
    const ttlSeconds = Math.floor((offer.offer_expires_at.getTime() - now.getTime()) / 1000);
    if (ttlSeconds <= 0) return [];
    const devices = await this.subscriptions.forWorker(offer.worker_id, this.clock.now());
    const delivery = { assignmentId: offer.id, channel: 'push' as const, at: this.clock.now() };
    if (devices.length === 0) {
      await recordOfferDelivery(this.ds, { ...delivery, status: 'no_connection' });
      return [];
    }
    const outcomes = await Promise.all(
      devices.map((d) =>
        this.sender.send(d, JSON.stringify(offerPushPayload(offer, d.locale)), {
          ttlSeconds,
          urgency: 'high',
        }),
      ),
    );
    for (const [i, o] of outcomes.entries())
      if (o.result === 'gone') await this.subscriptions.forget(devices[i].id);
    const delivered = outcomes.some((o) => o.result === 'delivered');
    await recordOfferDelivery(this.ds, {
      ...delivery,
      status: delivered ? 'sent' : 'failed',
      detail: delivered ? null : undeliveredSummary(outcomes),
    });
    this.logger.info(
      { assignment_id: offer.id, push: outcomes.map((o) => `${o.result}:${o.statusCode ?? '-'}`) },
      'offer pushed',
    );
    return outcomes;
  }
}
