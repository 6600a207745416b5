import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LoginThrottle } from '../../auth/login-throttle';
import { PasswordHasher } from '../../auth/passwords';
import { Tokens } from '../../auth/tokens';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { ResetPasswordQuery, ResetPasswordResponse } from '../dtos/sms.dto';
import type { WorkerLogin, WorkerRegister, WorkerTokenResponse } from '../dtos/worker-auth.dto';
import { SmsService } from '../sms/sms.service';
import type { WorkerRow } from '../worker.repository';

/**
 * Worker credentials: registration with an SMS code, password login with lock-out, refresh-token rotation and
 * password reset by SMS. Password hashing happens before a transaction opens, so no lock is held during argon2.
 */
@Injectable()
export class WorkerAuthService {
  constructor(
    private readonly ds: DataSource,
    private readonly sms: SmsService,
    private readonly passwords: PasswordHasher,
    private readonly tokens: Tokens,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
  ) {}

  /**
   * Consumes the register code in the transaction that inserts the worker: if the insert fails the code stays
   * usable, and two registrations presenting one code are serialised on the code's row, so only one succeeds.
   */
  async register(dto: WorkerRegister): Promise<WorkerTokenResponse> {
    const passwordHash = await this.passwords.hash(dto.password);
    const outcome = await inTransaction(this.ds, async (em) => {
      const taken = await sqlRows(em, `SELECT 1 FROM workers WHERE phone_number = $1`, [dto.phone_number]);
      if (taken.length > 0) throw phoneTaken();
      const check = await this.sms.check(em, dto.phone_number, 'register', dto.sms_code, { consume: true });
      if (!check.ok) return check;
      const now = this.clock.now();
      const rows = await sqlRows<Pick<WorkerRow, 'id'>>(
        em,
        `INSERT INTO workers (phone_number, password_hash, display_name, skills, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (phone_number) DO NOTHING RETURNING id`,
        [dto.phone_number, passwordHash, dto.display_name ?? null, dto.skills ?? [], now],
      );
      if (rows.length === 0) throw phoneTaken();
      return { ok: true as const, workerId: rows[0].id };
    });
    if (!outcome.ok) throw outcome.error;
    return { worker_id: outcome.workerId, ...(await this.tokens.issuePair('worker', outcome.workerId)) };
  }

  /** Unknown number and wrong password answer alike (same code, same argon2 work); failures feed the lock-out. */
  async login(dto: WorkerLogin): Promise<WorkerTokenResponse> {
    const rows = await sqlRows<Pick<WorkerRow, 'id' | 'password_hash' | 'account_status'>>(
      this.ds,
      `SELECT id, password_hash, account_status FROM workers WHERE phone_number = $1`,
      [dto.phone_number],
    );
    const worker = rows[0];
    if (!worker) {
      await this.passwords.verify(null, dto.password);
      throw invalidCredentials();
    }
    const ok = await this.throttle.attempt('worker', worker.id, () =>
      this.passwords.verify(worker.password_hash, dto.password),
    );
    if (!ok) throw invalidCredentials();
    if (worker.account_status !== 'active') throw accountDisabled();
    return { worker_id: worker.id, ...(await this.tokens.issuePair('worker', worker.id)) };
  }

  /** Ends the session of the refresh token (it is the credential: logout works after the access token lapsed). */
  async logout(refreshToken: string): Promise<void> {
    await this.tokens.revoke('worker', refreshToken);
  }

  /** Rotates the pair; a reused token has already revoked its family inside Tokens.rotate. */
  async refresh(refreshToken: string): Promise<WorkerTokenResponse> {
    const { subjectId, pair } = await this.tokens.rotate('worker', refreshToken);
    const rows = await sqlRows<Pick<WorkerRow, 'account_status'>>(
      this.ds,
      `SELECT account_status FROM workers WHERE id = $1`,
      [subjectId],
    );
    if (rows[0]?.account_status !== 'active') {
      await this.tokens.revokeAllFor('worker', subjectId);
      if (!rows[0]) throw new ApiError('invalid_token', 'The account of this token no longer exists.');
      throw accountDisabled();
    }
    return { worker_id: subjectId, ...pair };
  }

  /**
   * Consumes a reset_password code and sets the new password in one transaction, lifts any lock-out (the caller
   * proved they hold the phone), then ends every session. Access tokens already issued stay valid until they
   * expire (at most 15 minutes): they are not looked up per request.
   */
  async resetPassword(q: ResetPasswordQuery): Promise<ResetPasswordResponse> {
    const passwordHash = await this.passwords.hash(q.new_password);
    const outcome = await inTransaction(this.ds, async (em) => {
      const check = await this.sms.check(em, q.phone_number, 'reset_password', q.code, { consume: true });
      if (!check.ok) return check;
      const rows = await sqlRows<Pick<WorkerRow, 'id'>>(
        em,
        `UPDATE workers SET password_hash = $2, failed_login_count = 0, failed_login_window_start = NULL,
                locked_until = NULL, updated_at = $3
          WHERE phone_number = $1 RETURNING id`,
        [q.phone_number, passwordHash, this.clock.now()],
      );
      // Only reachable if the account vanished after the code was sent: codes for unknown numbers are never shown.
      if (rows.length === 0) {
        return {
          ok: false as const,
          error: new ApiError('invalid_sms_code', 'No account uses this number.'),
        };
      }
      return { ok: true as const, workerId: rows[0].id };
    });
    if (!outcome.ok) throw outcome.error;
    await this.tokens.revokeAllFor('worker', outcome.workerId);
    return { reset: true };
  }
}

function phoneTaken(): ApiError {
  return new ApiError('phone_taken', 'This phone number is already registered; log in instead.');
}

function invalidCredentials(): ApiError {
  return new ApiError('invalid_credentials', 'Wrong phone number or password.');
}

function accountDisabled(): ApiError {
  return new ApiError('account_disabled', 'This account is suspended or closed.');
}
