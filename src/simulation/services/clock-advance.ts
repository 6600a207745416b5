import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { atTime } from '../../common/clock';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import { OFFER_SMS_DELAY_SECONDS } from '../../notifications/offer-sms-policy';
import { OfferSms } from '../../notifications/services/offer-sms';
import { LIVE_TASK_STATUSES } from '../../task/domain/task-status';
import { TaskTimers } from '../../task/services/task-timers';
import { REVIEW_HOLD_DAYS } from '../../task/domain/proof-hold';
import { type TestClockRow, TestClocks } from '../../task/test-clocks';
import { WorkerSimulator } from './worker-simulator';

/** A safety stop: no advance takes more steps than this (a clock's tasks have a few dozen events at most). */
const MAX_STEPS = 10_000;

/**
 * Advancing a test clock: as if the time between its frozen time and the target had passed for its tasks alone.
 * Repeatedly: plan the simulated workers' next steps, find the earliest thing due on the clock's tasks (a simulated
 * step, an offer lapse, an offer's SMS, a deadline, an auto-approval or a held result's 14 days), move the clock there and run everything due at
 * that instant,
 * with every Clock reading the clock's time (atTime), so rows and events carry it. The rules that run are the job
 * runner's own (TaskTimers, scoped to this clock) and the simulated workers' steps through the real services.
 */
@Injectable()
export class ClockAdvance {
  constructor(
    private readonly ds: DataSource,
    private readonly simulator: WorkerSimulator,
    private readonly timers: TaskTimers,
    private readonly offerSms: OfferSms,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(clock: TestClockRow, target: Date): Promise<void> {
    let now = clock.frozen_time;
    for (let step = 0; step < MAX_STEPS; step++) {
      await atTime(now, () => this.simulator.planClock(clock.id));
      const next = await this.nextDue(clock.id);
      if (!next || next.getTime() > target.getTime()) break;
      if (next.getTime() > now.getTime()) now = next;
      const changed = await atTime(now, () => this.runDue(clock.id, now));
      await TestClocks.moveTo(this.ds, clock.id, now);
      // Something due that nothing could change (a task held elsewhere): stop rather than spin.
      if (changed === 0) break;
    }
    await TestClocks.moveTo(this.ds, clock.id, target);
  }

  /** The earliest time anything is due on the clock's tasks, or null. */
  private async nextDue(clockId: string): Promise<Date | null> {
    const [row] = await sqlRows<{ at: Date | null }>(
      this.ds,
      `SELECT min(t) AS at FROM (
         SELECT min(sa.due_at) AS t FROM sandbox_actions sa
           JOIN tasks k ON k.id = sa.task_id JOIN sandbox_workers sw ON sw.worker_id = sa.worker_id
          WHERE k.test_clock_id = $1 AND sa.done_at IS NULL AND sw.deleted_at IS NULL
         UNION ALL
         SELECT min(a.offer_expires_at) FROM assignments a JOIN tasks k ON k.id = a.task_id
          WHERE k.test_clock_id = $1 AND a.status = 'pending'
         UNION ALL
         SELECT min(a.offered_at) + make_interval(secs => $4) FROM assignments a JOIN tasks k ON k.id = a.task_id
           JOIN workers w ON w.id = a.worker_id
          WHERE k.test_clock_id = $1 AND a.status = 'pending' AND w.simulated_by_agent_id IS NULL
            AND a.offer_expires_at > a.offered_at + make_interval(secs => $4)
            AND NOT EXISTS (SELECT 1 FROM offer_deliveries d WHERE d.assignment_id = a.id AND d.channel = 'sms')
         UNION ALL
         SELECT min(deadline_at) FROM tasks
          WHERE test_clock_id = $1 AND deadline_processed_at IS NULL AND status = ANY($2)
         UNION ALL
         SELECT min(GREATEST(a.submitted_at, a.hold_cleared_at)) + make_interval(hours => $3)
           FROM assignments a JOIN tasks k ON k.id = a.task_id
          WHERE k.test_clock_id = $1 AND a.status = 'submitted' AND NOT a.review_required
         UNION ALL
         SELECT min(a.submitted_at) + make_interval(days => $5) FROM assignments a JOIN tasks k ON k.id = a.task_id
          WHERE k.test_clock_id = $1 AND a.status = 'submitted' AND a.review_required) due`,
      [clockId, LIVE_TASK_STATUSES, this.config.autoApproveHours, OFFER_SMS_DELAY_SECONDS, REVIEW_HOLD_DAYS],
    );
    return row?.at ?? null;
  }

  /** Runs what is due at `now` (the clock's time); returns how many things changed. */
  private async runDue(clockId: string, now: Date): Promise<number> {
    const actions = await sqlRows<{ id: string }>(
      this.ds,
      `SELECT sa.id FROM sandbox_actions sa
         JOIN tasks k ON k.id = sa.task_id JOIN sandbox_workers sw ON sw.worker_id = sa.worker_id
        WHERE k.test_clock_id = $1 AND sa.done_at IS NULL AND sw.deleted_at IS NULL AND sa.due_at <= $2
        ORDER BY sa.due_at, sa.created_at`,
      [clockId, now],
    );
    for (const a of actions) await this.simulator.perform(a.id);
    const scope = { clockId };
    return (
      actions.length +
      (await this.offerSms.sendDue(clockId)) +
      (await this.timers.expireOffers(scope)) +
      (await this.timers.sweepDeadlines(scope)) +
      (await this.timers.autoApprove(scope))
    );
  }
}
