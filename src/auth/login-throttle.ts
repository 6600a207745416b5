import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import type { ActorKind } from '../common/actor';
import { sqlExec, sqlRows } from '../database/sql';
import type { LoginThrottleRow } from './auth.rows';

const MAX_FAILURES = 10;
const WINDOW_MS = 15 * 60_000;
const LOCK_MS = 15 * 60_000;
const TABLE: Record<ActorKind, string> = { agent: 'agents', worker: 'workers', admin: 'admins' };

/**
 * Account lock-out: 10 failed logins within 15 minutes lock the account for 15 minutes.
 *
 * `attempt` reserves the attempt with one atomic UPDATE *before* the (slow) password check and only then verifies,
 * so a burst of parallel guesses cannot all pass a "not locked yet" check together: at most 10 password checks
 * run per window, whatever the concurrency.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs `check` (the password verification) for an existing account under the lock-out rule. Returns its result;
   * throws 429 account_locked (with retry_after and Retry-After) when the account is locked or this attempt is over
   * the budget. A success clears the count, unless `clearOnSuccess` is false: the password step of a two-factor
   * sign-in leaves it, so a right password cannot wipe the wrong codes before it and the codes share the budget.
   */
  async attempt(
    kind: ActorKind,
    id: string,
    check: () => Promise<boolean>,
    { clearOnSuccess = true }: { clearOnSuccess?: boolean } = {},
  ): Promise<boolean> {
    const now = this.clock.now();
    const reserved = await sqlRows<Pick<LoginThrottleRow, 'failed_login_count'>>(
      this.ds,
      `UPDATE ${TABLE[kind]} SET
         failed_login_count = CASE WHEN failed_login_window_start IS NULL OR failed_login_window_start <= $2
                                   THEN 1 ELSE failed_login_count + 1 END,
         failed_login_window_start = CASE WHEN failed_login_window_start IS NULL OR failed_login_window_start <= $2
                                          THEN $3 ELSE failed_login_window_start END
       WHERE id = $1 AND (locked_until IS NULL OR locked_until <= $3)
       RETURNING failed_login_count`,
      [id, new Date(now.getTime() - WINDOW_MS), now],
    );
    if (reserved.length === 0) {
      throw lockedError((await this.lockedUntil(kind, id)) ?? now, now.getTime());
    }
    // More attempts than the budget (parallel guesses racing the lock): refused without checking the password.
    if (reserved[0].failed_login_count > MAX_FAILURES) {
      throw lockedError(await this.lock(kind, id, now), now.getTime());
    }
    if (await check()) {
      // The attempt reserved above stays counted when the count is not cleared: a signed-in operator's count is
      // cleared by the second step's success.
      if (clearOnSuccess) await this.recordSuccess(kind, id);
      return true;
    }
    if (reserved[0].failed_login_count >= MAX_FAILURES) await this.lock(kind, id, now);
    return false;
  }

  async recordSuccess(kind: ActorKind, id: string): Promise<void> {
    await sqlExec(
      this.ds,
      `UPDATE ${TABLE[kind]} SET failed_login_count = 0, failed_login_window_start = NULL, locked_until = NULL
        WHERE id = $1 AND (failed_login_count <> 0 OR locked_until IS NOT NULL)`,
      [id],
    );
  }

  async lockedUntil(kind: ActorKind, id: string): Promise<Date | null> {
    const rows = await sqlRows<Pick<LoginThrottleRow, 'locked_until'>>(
      this.ds,
      `SELECT locked_until FROM ${TABLE[kind]} WHERE id = $1`,
      [id],
    );
    return rows[0]?.locked_until ?? null;
  }

  /** Locks the account from `now` unless it is already locked for longer; returns the end of the lock. */
  private async lock(kind: ActorKind, id: string, now: Date): Promise<Date> {
    const rows = await sqlRows<{ locked_until: Date }>(
      this.ds,
      `UPDATE ${TABLE[kind]} SET locked_until = GREATEST(locked_until, $2::timestamptz)
        WHERE id = $1 RETURNING locked_until`,
      [id, new Date(now.getTime() + LOCK_MS)],
    );
    return rows[0]?.locked_until ?? new Date(now.getTime() + LOCK_MS);
  }
}

function lockedError(lockedUntil: Date, now: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil((lockedUntil.getTime() - now) / 1000));
  return new ApiError(
    'account_locked',
    'Too many failed logins: the account is locked for a while.',
    { retry_after: retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}
