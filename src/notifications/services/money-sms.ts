import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import {
  claimNoticeDelivery,
  noticeSmsSentSince,
  settleNoticeDelivery,
} from '../../events/worker-notification-deliveries';
import { JobRunner } from '../../jobs/job-runner';
import { SmsBudgets } from '../../sms/sms-budgets';
import { SMS_GATEWAY, type SmsGateway } from '../../sms/sms-gateway';
import { maskPhone, moneyMessage } from '../../sms/sms-message';
import {
  isQuietHour,
  OFFER_SMS_DAILY_CAP,
  OFFER_SMS_DELAY_SECONDS,
  OFFER_SMS_WINDOW_MS,
  quietHoursEnd,
} from '../offer-sms-policy';
import { assignmentPath } from '../push-payload';
import { type LadderNotice, loadNotice } from '../worker-notifications.rows';
import { failureCode } from './offer-sms';

export const MONEY_SMS_QUEUE = 'money-sms';
/** Namespace of the per-worker advisory lock (two-key form), apart from offer SMS. ASCII "MSMS". */
const MONEY_SMS_LOCK = 0x4d534d53;

/** What became of one notification's SMS. */
export type MoneySmsOutcome =
  | 'sent'
  | 'failed'
  /** The worker did not ask for money SMS (PUT /v1/worker/notification-settings `money_sms`). */
  | 'turned_off'
  /** The worker read it in the app before its SMS was due: the SMS would tell them nothing new. */
  | 'read'
  | 'daily_cap'
  | 'budget_spent'
  /** In the quiet hours: held (`waiting`) and queued again for 08:00 China time. */
  | 'waiting'
  /** Before its time: queued again for then. */
  | 'early'
  /** Decided already, by an earlier run. */
  | 'decided'
  | 'gone';

/**
 * The last rung for a worker's money notifications (product-decisions §19 through §16): an SMS with the link to the
 * assignment's page, due 30 s after the notification (as an offer's), only for a worker who turned money SMS on,
 * and not when they read it in the app meanwhile. Never in the quiet hours (22:00 to 08:00 China time): unlike an
 * offer's, which would have lapsed and is skipped, a money SMS due then waits (its row `waiting`, its job queued
 * again for 08:00) and is decided afresh at 08:00. At most 10 money SMS to a worker in 24 hours (their own count,
 * apart from offer SMS), drawn from the global hourly offer-SMS budget. Decided under a per-worker lock and written
 * to worker_notification_deliveries in that transaction, so a notification's SMS is decided once; sent after commit.
 */
@Injectable()
export class MoneySms {
  constructor(
    private readonly ds: DataSource,
    @Inject(SMS_GATEWAY) private readonly gateway: SmsGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobRunner,
    private readonly budgets: SmsBudgets,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.jobs.addQueue({ name: MONEY_SMS_QUEUE, handle: (data) => this.onJob(data) });
  }

  /** Queues the SMS of a notification for its due time, in the transaction that made it. */
  schedule(em: EntityManager, notificationId: string, createdAt: Date): Promise<void> {
    return this.requeue(em, notificationId, dueAt(createdAt));
  }

  private requeue(em: EntityManager, notificationId: string, at: Date): Promise<void> {
    return this.jobs.send(em, MONEY_SMS_QUEUE, { notification_id: notificationId }, at);
  }

  private async onJob(data: Record<string, unknown>): Promise<void> {
    if (typeof data.notification_id === 'string') await this.send(data.notification_id);
  }

  /** The job's work for one notification. */
  async send(notificationId: string): Promise<MoneySmsOutcome> {
    const notice = await loadNotice(this.ds, notificationId);
    if (!notice) return 'gone';
    const now = this.clock.now();
    const due = dueAt(notice.created_at);
    if (now.getTime() < due.getTime()) {
      await inTransaction(this.ds, (em) => this.requeue(em, notice.id, due));
      return 'early';
    }
    const decision = await inTransaction(this.ds, (em) => this.decide(em, notice, now));
    if (decision !== 'sent') return decision;
    return this.deliver(notice);
  }

  private async decide(em: EntityManager, notice: LadderNotice, now: Date): Promise<MoneySmsOutcome> {
    // One worker's money SMS are decided one at a time, so two cannot both take the cap's last place.
    await sqlExec(em, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, [MONEY_SMS_LOCK, notice.worker_id]);
    const [current] = await sqlRows<{ read: boolean; sms: string | null }>(
      em,
      `SELECT n.read_at IS NOT NULL AS read,
              (SELECT d.status FROM worker_notification_deliveries d
                WHERE d.notification_id = n.id AND d.channel = 'sms') AS sms
         FROM worker_notifications n WHERE n.id = $1`,
      [notice.id],
    );
    if (current.sms !== null && current.sms !== 'waiting') return 'decided';
    const decide = async (status: 'sent' | 'skipped' | 'waiting', detail: string | null) =>
      claimNoticeDelivery(em, { notificationId: notice.id, channel: 'sms', status, at: now, detail });
    if (!notice.money_sms_enabled) return (await decide('skipped', 'turned_off')) ? 'turned_off' : 'decided';
    if (current.read) return (await decide('skipped', 'read')) ? 'read' : 'decided';
    if (isQuietHour(now)) {
      // Held, not skipped: the row says so (a second run in the night finds it waiting and holds it again).
      if (current.sms === null) await decide('waiting', 'quiet_hours');
      await this.requeue(em, notice.id, quietHoursEnd(now));
      return 'waiting';
    }
    const since = new Date(now.getTime() - OFFER_SMS_WINDOW_MS);
    if ((await noticeSmsSentSince(em, notice.worker_id, since)) >= OFFER_SMS_DAILY_CAP)
      return (await decide('skipped', 'daily_cap')) ? 'daily_cap' : 'decided';
    if (!(await this.budgets.take('offer')).ok)
      return (await decide('skipped', 'budget_spent')) ? 'budget_spent' : 'decided';
    return (await decide('sent', null)) ? 'sent' : 'decided';
  }

  private async deliver(notice: LadderNotice): Promise<MoneySmsOutcome> {
    const link = `${this.config.publicBaseUrl}${assignmentPath(notice.assignment_id)}`;
    try {
      await this.gateway.send(notice.phone_number, moneyMessage(link, notice.assignment_id));
      return 'sent';
    } catch (err) {
      this.logger.warn(
        { err, notification_id: notice.id, sms_to: maskPhone(notice.phone_number) },
        'money SMS failed',
      );
      await settleNoticeDelivery(this.ds, {
        notificationId: notice.id,
        channel: 'sms',
        status: 'failed',
        at: this.clock.now(),
        detail: failureCode(err),
      });
      return 'failed';
    }
  }
}

/** When a notification's SMS is due: as an offer's, OFFER_SMS_DELAY_SECONDS after it, so the app may show it first. */
function dueAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + OFFER_SMS_DELAY_SECONDS * 1000);
}
