import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { Logger } from '../../common/logging/logger';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { SmsBudgets } from '../../sms/sms-budgets';
import { SMS_GATEWAY, type SmsGateway } from '../../sms/sms-gateway';
import { maskPhone, offerMessage } from '../../sms/sms-message';
import { claimOfferDelivery, offerSmsSentSince, settleOfferDelivery } from '../../events/offer-deliveries';
import { type LadderOffer, loadOffer } from '../offer-ladder.rows';
import {
  OFFER_SMS_DELAY_SECONDS,
  OFFER_SMS_WINDOW_MS,
  type SmsSkipReason,
  smsSkipReason,
} from '../offer-sms-policy';
import { offerPath } from '../push-payload';

/** Namespace of the per-worker advisory lock (two-key form). ASCII "OSMS". */
const OFFER_SMS_LOCK = 0x4f534d53;

/** What became of one offer's SMS. */
export type OfferSmsOutcome =
  | 'sent'
  | 'failed'
  | SmsSkipReason
  /** Not pending any more (answered, lapsed or withdrawn), or a simulated worker's. */
  | 'not_waiting'
  /** Before its time: sent again to the queue for then. */
  | 'early'
  /** Decided already, by an earlier run. */
  | 'decided';

/**
 * The last rung of the ladder (product-decisions §16): an offer still unanswered 30 s after it was made goes by SMS,
 * with the link to its page. Decided per offer under a per-worker lock, in this order: the worker turned offer SMS
 * off, quiet hours (22:00 to 08:00 China time), the daily cap (10 in any 24 hours), then the global hourly offer
 * budget. Every decision is written to offer_deliveries (sent, or skipped with the reason) in that transaction, so
 * an offer is decided once, and the SMS goes after commit; a provider failure then turns the row to `failed`.
 * Times are the Clock's, so tests and sandbox test clocks move them.
 */
@Injectable()
export class OfferSms {
  constructor(
    private readonly ds: DataSource,
    @Inject(SMS_GATEWAY) private readonly gateway: SmsGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly budgets: SmsBudgets,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** The job's work for one offer. `requeue` puts an early job back for its due time (OfferLadder's queue). */
  async send(assignmentId: string, requeue?: (dueAt: Date) => Promise<void>): Promise<OfferSmsOutcome> {
    const offer = await loadOffer(this.ds, assignmentId);
    if (!offer || offer.status !== 'pending' || offer.simulated) return 'not_waiting';
    const now = this.clock.now();
    const due = dueAt(offer);
    if (now.getTime() < due.getTime()) {
      await requeue?.(due);
      return 'early';
    }
    if (now.getTime() >= offer.offer_expires_at.getTime()) return 'not_waiting';
    const decision = await inTransaction(this.ds, (em) => this.decide(em, offer, now));
    if (decision !== 'sent') return decision;
    return this.deliver(offer);
  }

  /**
   * Sends the SMS of every offer due on one sandbox test clock (its advance runs this at the clock's time); returns
   * how many offers were decided.
   */
  async sendDue(clockId: string): Promise<number> {
    const due = await sqlRows<{ id: string }>(
      this.ds,
      `SELECT a.id FROM assignments a JOIN tasks t ON t.id = a.task_id JOIN workers w ON w.id = a.worker_id
        WHERE t.test_clock_id = $1 AND a.status = 'pending' AND w.simulated_by_agent_id IS NULL
          AND a.offered_at + make_interval(secs => $3) <= $2 AND a.offer_expires_at > $2
          AND NOT EXISTS (SELECT 1 FROM offer_deliveries d WHERE d.assignment_id = a.id AND d.channel = 'sms')
        ORDER BY a.offered_at`,
      [clockId, this.clock.now(), OFFER_SMS_DELAY_SECONDS],
    );
    let decided = 0;
    for (const { id } of due) if (!['early', 'not_waiting'].includes(await this.send(id))) decided++;
    return decided;
  }

  private async decide(em: EntityManager, offer: LadderOffer, now: Date): Promise<OfferSmsOutcome> {
    // One worker's offers are decided one at a time, so two cannot both take the cap's last place.
    await sqlExec(em, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, [OFFER_SMS_LOCK, offer.worker_id]);
    const [current] = await sqlRows<{ status: string; decided: boolean }>(
      em,
      `SELECT a.status, EXISTS (SELECT 1 FROM offer_deliveries d WHERE d.assignment_id = a.id AND d.channel = 'sms')
              AS decided
         FROM assignments a WHERE a.id = $1`,
      [offer.id],
    );
    if (current.decided) return 'decided';
    if (current.status !== 'pending') return 'not_waiting';
    const since = new Date(now.getTime() - OFFER_SMS_WINDOW_MS);
    const sentInWindow = await offerSmsSentSince(em, offer.worker_id, since);
    let skip = smsSkipReason({ enabled: offer.offer_sms_enabled, at: now, sentInWindow });
    if (!skip && !(await this.budgets.take('offer')).ok) skip = 'budget_spent';
    await claimOfferDelivery(em, {
      assignmentId: offer.id,
      channel: 'sms',
      status: skip ? 'skipped' : 'sent',
      at: now,
      detail: skip,
    });
    return skip ?? 'sent';
  }

  private async deliver(offer: LadderOffer): Promise<OfferSmsOutcome> {
    const link = `${this.config.publicBaseUrl}${offerPath(offer.id)}`;
    try {
      await this.gateway.send(offer.phone_number, offerMessage(link, offer.id, offer.payout_cents));
      return 'sent';
    } catch (err) {
      this.logger.warn(
        { err, assignment_id: offer.id, sms_to: maskPhone(offer.phone_number) },
        'offer SMS failed',
      );
      await settleOfferDelivery(this.ds, {
        assignmentId: offer.id,
        channel: 'sms',
        status: 'failed',
        at: this.clock.now(),
        detail: failureCode(err),
      });
      return 'failed';
    }
  }
}

/** What the worker is shown of a failed send: the API's error code and the provider's, never a message. */
export function failureCode(err: unknown): string {
  if (!(err instanceof ApiError)) return 'provider_error';
  const provider = err.extra.provider_code;
  return typeof provider === 'string' ? `${err.code}: ${provider}` : err.code;
}

/** When an offer's SMS is due: OFFER_SMS_DELAY_SECONDS after it was made. */
export function dueAt(offer: Pick<LadderOffer, 'offered_at'>): Date {
  return new Date(offer.offered_at.getTime() + OFFER_SMS_DELAY_SECONDS * 1000);
}
