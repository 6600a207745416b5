import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { recordOperatorAction, type AuditActor } from '../../audit/operator-audit';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlExec, sqlRows, type SqlRunner } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { TotpSetupResponse } from '../dtos/admin-account.dto';
import { newRecoveryCodes, newTotpSecret, RECOVERY_CODE_COUNT, totpUri } from '../totp';
import { OperatorSecrets } from './operator-secrets';
import { SecondFactor } from './second-factor';

/**
 * Turning two-factor sign-in on: a new secret is kept sealed as pending and shown (QR code and text) until a first
 * code from the app confirms it; the confirmation makes it the account's, issues ten recovery codes (shown once)
 * and is recorded in the audit log. The same steps serve an operator signed in (settings) and one who must enrol
 * before their first session (`admin:create --require-totp`).
 */
@Injectable()
export class TotpEnrolment {
  /** What authenticator apps show beside the codes: the service and the host, so two deployments stay apart. */
  private readonly issuer: string;

  constructor(
    private readonly ds: DataSource,
    private readonly secrets: OperatorSecrets,
    private readonly secondFactor: SecondFactor,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.issuer = `Legwork (${new URL(config.publicBaseUrl).host})`;
  }

  /** Starts, or starts again, an enrolment; 409 invalid_state when two-factor is on already. */
  async start(db: SqlRunner, admin: { id: string; email: string }): Promise<TotpSetupResponse> {
    const secret = newTotpSecret();
    const rows = await sqlRows(
      db,
      `UPDATE admins SET totp_pending_secret = $2 WHERE id = $1 AND totp_secret IS NULL RETURNING id`,
      [admin.id, this.secrets.sealTotp(secret, admin.id, 'pending')],
    );
    if (rows.length === 0) {
      throw new ApiError('invalid_state', 'Two-factor sign-in is on already for this account.');
    }
    return { secret, otpauth_uri: totpUri(secret, this.issuer, admin.email) };
  }

  /**
   * Confirms the pending enrolment with its first code (checked under the lock-out rule; the code cannot be used
   * again to sign in). `within` runs in the same transaction: the session a sign-in opens, or ending the operator's
   * other sessions. Answers the recovery codes, which are never shown again.
   */
  async confirm<T>(
    who: AuditActor,
    adminId: string,
    code: string,
    within: (em: EntityManager) => Promise<T>,
  ): Promise<{ recoveryCodes: string[]; result: T }> {
    const first = await this.secondFactor.verifyFirstCode(adminId, code);
    return inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const enabled = await sqlRows(
        em,
        `UPDATE admins SET totp_secret = $2, totp_enabled_at = $3, totp_last_step = $4, totp_pending_secret = NULL
          WHERE id = $1 AND totp_pending_secret = $5 AND totp_secret IS NULL RETURNING id`,
        [
          adminId,
          this.secrets.sealTotp(first.secret, adminId, 'confirmed'),
          now,
          first.step,
          first.sealedPending,
        ],
      );
      if (enabled.length === 0) {
        throw new ApiError(
          'invalid_state',
          'This enrolment was replaced or confirmed meanwhile: start it again to get a new QR code.',
        );
      }
      const recoveryCodes = await this.replaceRecoveryCodes(em, adminId, now);
      await recordOperatorAction(
        em,
        who,
        {
          action: 'operator.totp_enrolled',
          target: { type: 'operator', id: adminId },
          before: { totp_enabled: false },
          after: { totp_enabled: true, recovery_codes_left: RECOVERY_CODE_COUNT },
        },
        now,
      );
      return { recoveryCodes, result: await within(em) };
    });
  }

  /** Ten new recovery codes in place of any before (used or not); the codes in clear are answered once. */
  async replaceRecoveryCodes(em: EntityManager, adminId: string, now: Date): Promise<string[]> {
    const codes = newRecoveryCodes();
    await sqlExec(em, `DELETE FROM admin_recovery_codes WHERE admin_id = $1`, [adminId]);
    await sqlExec(
      em,
      `INSERT INTO admin_recovery_codes (admin_id, code_hash, created_at)
       SELECT $1, h, $3 FROM unnest($2::text[]) AS h`,
      [adminId, codes.map((c) => this.secrets.hashRecoveryCode(c)), now],
    );
    return codes;
  }
}
