import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import { isWorkerMoneyEvent, type OutboxEvent } from '../../events/event-catalog';
import { OutboxSubscribers } from '../../events/delivery/outbox-subscribers';
import {
  FRAUD_CONFIRMED,
  insertNotifications,
  type NewNotification,
  type NotificationDisputeOutcome,
} from '../worker-notifications.rows';
import { MoneyPush } from './money-push';
import { MoneySms } from './money-sms';

/**
 * Workers hear of their money through the offer ladder (product-decisions §19, "Also"; the ladder is §16). The money
 * events themselves (assignment.approved, .rejected, .cancelled with compensation, dispute.decided) are written by
 * the task, dispute and proof-review services in the transactions that move the money; nothing here runs inside
 * those. Where the outbox publishes them (OutboxSubscribers, in the transaction that marks them published, after
 * the money committed), each becomes one worker notification, keyed by its event so an event published again makes
 * none, and the push and SMS jobs are queued in that same transaction: the notification and its jobs exist exactly
 * when the event counts as published. A failure here rolls the publication back to be tried again; it can never
 * touch money. The socket rung is the event itself, emitted to the worker's room after publication
 * (SocketDeliveries records it). Simulated workers get none.
 */
@Injectable()
export class MoneyLadder implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly subscribers: OutboxSubscribers,
    private readonly push: MoneyPush,
    private readonly sms: MoneySms,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // Where events are published, jobs run (JOBS_IN_PROCESS, or the job runner process), so the jobs can be sent.
    if (this.config.runJobsInProcess) this.subscribers.register((em, events) => this.onPublished(em, events));
  }

  private async onPublished(em: EntityManager, events: readonly OutboxEvent[]): Promise<void> {
    const money = events.filter((e) => e.worker_id && isWorkerMoneyEvent(e.name));
    if (money.length === 0) return;
    // A rejection that an operator's confirmed fraud made (product-decisions §18) is told as such, not as the
    // agent's words: its text is the platform's, in English.
    const assignments = await sqlRows<{ id: string; outcome: string | null; real: boolean; fraud: boolean }>(
      em,
      `SELECT a.id, a.outcome, w.simulated_by_agent_id IS NULL AND w.deleted_at IS NULL AS real,
              EXISTS (SELECT 1 FROM proof_reviews pr
                       WHERE pr.assignment_id = a.id AND pr.outcome = 'confirmed_fraud') AS fraud
         FROM assignments a JOIN workers w ON w.id = a.worker_id WHERE a.id = ANY($1::uuid[])`,
      [money.map((e) => String(e.data.assignment_id))],
    );
    const byId = new Map(assignments.map((a) => [a.id, a]));
    // When the worker is told, on the service's clock (an event on a sandbox test clock carries the clock's time).
    const now = this.clock.now();
    const rows: NewNotification[] = [];
    for (const e of money) {
      const a = byId.get(String(e.data.assignment_id));
      if (!a?.real) continue;
      const notice = noticeOf(e, { unable: a.outcome === 'unable', fraud: a.fraud }, now);
      if (notice) rows.push(notice);
    }
    for (const id of await insertNotifications(em, rows)) {
      await this.push.schedule(em, id);
      await this.sms.schedule(em, id, now);
    }
  }
}

/** The notification an event makes, or null when it moved none of the worker's money (a withdrawn offer). */
function noticeOf(
  e: OutboxEvent,
  { unable, fraud }: { unable: boolean; fraud: boolean },
  at: Date,
): NewNotification | null {
  const d = e.data;
  const base = {
    event_id: e.id,
    worker_id: e.worker_id!,
    assignment_id: String(d.assignment_id),
    task_id: String(d.task_id),
    reason_code: null,
    reason_text: null,
    dispute_outcome: null,
    created_at: at,
  };
  switch (e.name) {
    case 'assignment.approved':
      return { ...base, kind: unable ? 'unable_paid' : 'paid', amount_cents: Number(d.payment_cents) };
    case 'assignment.rejected':
      if (fraud) return { ...base, kind: 'rejected', amount_cents: 0, reason_code: FRAUD_CONFIRMED };
      return {
        ...base,
        kind: 'rejected',
        amount_cents: 0,
        reason_code: typeof d.reason_code === 'string' ? d.reason_code : null,
        reason_text: typeof d.feedback_text === 'string' ? d.feedback_text : null,
      };
    case 'assignment.cancelled':
      return typeof d.compensation_cents === 'number'
        ? { ...base, kind: 'compensated', amount_cents: d.compensation_cents }
        : null;
    case 'dispute.decided':
      return {
        ...base,
        kind: 'dispute_decided',
        amount_cents: Number(d.worker_cents ?? 0),
        dispute_outcome: d.outcome as NotificationDisputeOutcome,
      };
    default:
      return null;
  }
}
