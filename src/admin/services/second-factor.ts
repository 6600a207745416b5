import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LoginThrottle } from '../../auth/login-throttle';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows, type SqlRunner } from '../../database/sql';
import type { AdminRow } from '../admin.rows';
import { matchingStep, normaliseRecoveryCode } from '../totp';
import { OperatorSecrets } from './operator-secrets';

/** A second factor as sent: a code from the authenticator app, or one of the recovery codes. */
export interface CodeProof {
  code?: string;
  recovery_code?: string;
}

export type SecondFactorMethod = 'totp' | 'recovery_code';

/**
 * Checks operators' second factors. Every check runs under the account lock-out (LoginThrottle): a wrong code
 * counts as a failed login, a right one clears the count. A right code is used up in the same statement that accepts
 * it: a TOTP code's time step is recorded and that step or any earlier one is refused afterwards (so a code seen over
 * a shoulder or in a log cannot be replayed within its window), and a recovery code is marked used.
 */
@Injectable()
export class SecondFactor {
  constructor(
    private readonly ds: DataSource,
    private readonly throttle: LoginThrottle,
    private readonly secrets: OperatorSecrets,
    private readonly clock: Clock,
  ) {}

  /** An enrolled operator's code or recovery code; throws 401 invalid_totp_code (or 429 account_locked). */
  async verify(adminId: string, proof: CodeProof): Promise<SecondFactorMethod> {
    const method: SecondFactorMethod = proof.recovery_code != null ? 'recovery_code' : 'totp';
    const ok = await this.throttle.attempt('admin', adminId, () =>
      method === 'totp'
        ? this.useCode(adminId, proof.code ?? '')
        : this.useRecoveryCode(adminId, proof.recovery_code ?? ''),
    );
    if (!ok) throw invalidCode();
    return method;
  }

  /**
   * The first code of an enrolment, against the pending secret: returns the secret (to be sealed as confirmed), the
   * pending secret as stored (the confirmation applies only if it is still the one pending) and the code's step.
   */
  async verifyFirstCode(
    adminId: string,
    code: string,
  ): Promise<{ secret: string; sealedPending: string; step: number }> {
    const hit: { found?: { secret: string; sealedPending: string; step: number } } = {};
    const ok = await this.throttle.attempt('admin', adminId, async () => {
      const [row] = await sqlRows<Pick<AdminRow, 'totp_pending_secret'>>(
        this.ds,
        `SELECT totp_pending_secret FROM admins WHERE id = $1 AND totp_secret IS NULL`,
        [adminId],
      );
      if (!row?.totp_pending_secret) return false;
      const secret = this.secrets.openTotp(row.totp_pending_secret, adminId, 'pending');
      const step = matchingStep(secret, code, this.clock.now());
      if (step === null) return false;
      hit.found = { secret, sealedPending: row.totp_pending_secret, step };
      return true;
    });
    if (!ok || !hit.found) throw invalidCode();
    return hit.found;
  }

  /** Recovery codes not used yet. */
  async recoveryCodesLeft(db: SqlRunner, adminId: string): Promise<number> {
    const [{ left }] = await sqlRows<{ left: number }>(
      db,
      `SELECT count(*)::int AS left FROM admin_recovery_codes WHERE admin_id = $1 AND used_at IS NULL`,
      [adminId],
    );
    return left;
  }

  private async useCode(adminId: string, code: string): Promise<boolean> {
    const [row] = await sqlRows<Pick<AdminRow, 'totp_secret'>>(
      this.ds,
      `SELECT totp_secret FROM admins WHERE id = $1`,
      [adminId],
    );
    if (!row?.totp_secret) return false;
    const step = matchingStep(
      this.secrets.openTotp(row.totp_secret, adminId, 'confirmed'),
      code,
      this.clock.now(),
    );
    if (step === null) return false;
    // Conditional on the secret it was checked against and on no later step: two requests with one code, or a
    // reset in between, cannot both pass.
    const used = await sqlRows(
      this.ds,
      `UPDATE admins SET totp_last_step = $2
        WHERE id = $1 AND totp_secret = $3 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
      [adminId, step, row.totp_secret],
    );
    return used.length > 0;
  }

  private async useRecoveryCode(adminId: string, input: string): Promise<boolean> {
    const code = normaliseRecoveryCode(input);
    if (code === null) return false;
    const used = await sqlRows(
      this.ds,
      `UPDATE admin_recovery_codes SET used_at = $3
        WHERE admin_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING admin_id`,
      [adminId, this.secrets.hashRecoveryCode(code), this.clock.now()],
    );
    return used.length > 0;
  }
}

function invalidCode(): ApiError {
  return new ApiError(
    'invalid_totp_code',
    'The code is wrong, expired or already used: enter the current code from your authenticator app.',
  );
}
