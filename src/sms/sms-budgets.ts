import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../common/rate-limit/rate-limit.store';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import type { SmsBudget } from '../config/notification-config';

const HOUR_SECONDS = 3600;

export type BudgetTake = { ok: true } | { ok: false; retryAfter: number };

/**
 * The global hourly SMS budgets of product-decisions §16: registration codes, login and reset codes, and offer SMS
 * each have their own, beside the per-IP and per-number limits, so a swarm of addresses asking codes for many
 * numbers is stopped by the budget (and offers keep theirs). Counted in the rate-limit store: Redis when configured,
 * so every instance draws from one budget; one clock hour per window, keyed by the deployment's Redis prefix.
 */
@Injectable()
export class SmsBudgets {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Counts one message against the budget of `kind`; past it, how long until the hour's budget renews. */
  async take(kind: SmsBudget): Promise<BudgetTake> {
    const now = this.clock.now().getTime();
    const hit = await this.store.hit(`sms-budget:${this.config.redisKeyPrefix}:${kind}`, HOUR_SECONDS, now);
    if (hit.count <= this.config.sms.budgetsPerHour[kind]) return { ok: true };
    return { ok: false, retryAfter: Math.max(1, Math.ceil((hit.resetAt - now) / 1000)) };
  }

  /** take, answering a spent budget with 429 rate_limit_exceeded and retry_after. */
  async spend(kind: SmsBudget): Promise<void> {
    const taken = await this.take(kind);
    if (taken.ok) return;
    throw new ApiError(
      'rate_limit_exceeded',
      'Too many SMS of this kind were sent from this service in the last hour; try again later.',
      { retry_after: taken.retryAfter },
      { 'Retry-After': String(taken.retryAfter) },
    );
  }
}
