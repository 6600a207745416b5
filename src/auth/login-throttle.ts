import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import type { ActorKind } from './actor';

const MAX_FAILURES = 10;
const WINDOW_MS = 15 * 60_000;
const LOCK_MS = 15 * 60_000;
const TABLE: Record<ActorKind, string> = { agent: 'agents', worker: 'workers', admin: 'admins' };

/**
 * Account lock-out: 10 failed logins within 15 minutes lock the account for 15 minutes. Counting is one atomic
 * UPDATE per failure, so parallel guesses cannot slip past the limit.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Throws account_locked while the account is locked. */
  assertNotLocked(lockedUntil: Date | null): void {
    const now = this.clock.now().getTime();
    if (lockedUntil && lockedUntil.getTime() > now) {
      const retryAfter = Math.ceil((lockedUntil.getTime() - now) / 1000);
      throw new ApiError(
        'account_locked',
        'Too many failed logins: the account is locked for a while.',
        { retry_after: retryAfter },
        { 'Retry-After': String(retryAfter) },
      );
    }
  }

  async recordFailure(kind: ActorKind, id: string): Promise<void> {
    const now = this.clock.now();
    await this.ds.query(
      `UPDATE ${TABLE[kind]} SET
         failed_login_count = CASE WHEN failed_login_window_start IS NULL OR failed_login_window_start <= $2
                                   THEN 1 ELSE failed_login_count + 1 END,
         failed_login_window_start = CASE WHEN failed_login_window_start IS NULL OR failed_login_window_start <= $2
                                          THEN $3 ELSE failed_login_window_start END,
         locked_until = CASE WHEN failed_login_window_start > $2 AND failed_login_count + 1 >= ${MAX_FAILURES}
                             THEN $4::timestamptz ELSE locked_until END
       WHERE id = $1`,
      [id, new Date(now.getTime() - WINDOW_MS), now, new Date(now.getTime() + LOCK_MS)],
    );
  }

  async recordSuccess(kind: ActorKind, id: string): Promise<void> {
    await this.ds.query(
      `UPDATE ${TABLE[kind]} SET failed_login_count = 0, failed_login_window_start = NULL, locked_until = NULL
        WHERE id = $1 AND (failed_login_count <> 0 OR locked_until IS NOT NULL)`,
      [id],
    );
  }

  async lockedUntil(kind: ActorKind, id: string): Promise<Date | null> {
    const rows: { locked_until: Date | null }[] = await this.ds.query(
      `SELECT locked_until FROM ${TABLE[kind]} WHERE id = $1`,
      [id],
    );
    return rows[0]?.locked_until ?? null;
  }
}
