import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { recordOperatorAction, type AuditActor } from '../../audit/operator-audit';
import { revokeSessions, SESSION_MAX_SECONDS } from '../../auth/tokens';
import type { AdminActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { AdminRow } from '../admin.rows';
import type { AdminMeResponse, RecoveryCodesResponse, TotpSetupResponse } from '../dtos/admin-account.dto';
import { RECOVERY_CODE_COUNT } from '../totp';
import { SecondFactor } from './second-factor';
import { TotpEnrolment } from './totp-enrolment';

/** The signed-in operator's own account: its state, turning two-factor on, new recovery codes. */
@Injectable()
export class AdminAccountService {
  constructor(
    private readonly ds: DataSource,
    private readonly enrolment: TotpEnrolment,
    private readonly secondFactor: SecondFactor,
    private readonly clock: Clock,
  ) {}

  async me(actor: AdminActor): Promise<AdminMeResponse> {
    const [row] = await sqlRows<
      Pick<AdminRow, 'email' | 'totp_required'> & {
        totp_enabled: boolean;
        recovery_codes_left: number;
        session_started_at: Date;
      }
    >(
      this.ds,
      `SELECT a.email, a.totp_required, a.totp_enabled_at IS NOT NULL AS totp_enabled,
              (SELECT count(*)::int FROM admin_recovery_codes c WHERE c.admin_id = a.id AND c.used_at IS NULL)
                AS recovery_codes_left,
              (SELECT min(r.session_started_at) FROM refresh_tokens r WHERE r.family_id = $2) AS session_started_at
         FROM admins a WHERE a.id = $1`,
      [actor.id, actor.sessionId],
    );
    return {
      admin_id: actor.id,
      email: row.email,
      totp_enabled: row.totp_enabled,
      totp_required: row.totp_required,
      recovery_codes_left: row.recovery_codes_left,
      session_expires_at: new Date(row.session_started_at.getTime() + SESSION_MAX_SECONDS.admin! * 1000),
    };
  }

  async startEnrolment(actor: AdminActor): Promise<TotpSetupResponse> {
    const [row] = await sqlRows<Pick<AdminRow, 'email'>>(this.ds, `SELECT email FROM admins WHERE id = $1`, [
      actor.id,
    ]);
    return this.enrolment.start(this.ds, { id: actor.id, email: row.email });
  }

  /**
   * Confirms the enrolment with its first code. The operator's other sessions end in the same transaction: they were
   * opened with the password alone, and from now on a session needs the second factor.
   */
  async confirmEnrolment(who: AuditActor, actor: AdminActor, code: string): Promise<RecoveryCodesResponse> {
    const { recoveryCodes } = await this.enrolment.confirm(who, actor.id, code, (em) =>
      revokeSessions(em, 'admin', actor.id, this.clock.now(), actor.sessionId),
    );
    return { recovery_codes: recoveryCodes };
  }

  /** Ten new recovery codes for a current code from the app; the earlier ones, used or not, stop working. */
  async regenerateRecoveryCodes(
    who: AuditActor,
    actor: AdminActor,
    code: string,
  ): Promise<RecoveryCodesResponse> {
    const [row] = await sqlRows<{ totp_enabled: boolean }>(
      this.ds,
      `SELECT totp_enabled_at IS NOT NULL AS totp_enabled FROM admins WHERE id = $1`,
      [actor.id],
    );
    if (!row.totp_enabled)
      throw new ApiError('invalid_state', 'Two-factor sign-in is not on for this account.');
    await this.secondFactor.verify(actor.id, { code });
    const codes = await inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const before = await this.secondFactor.recoveryCodesLeft(em, actor.id);
      const fresh = await this.enrolment.replaceRecoveryCodes(em, actor.id, now);
      await recordOperatorAction(
        em,
        who,
        {
          action: 'operator.recovery_codes_regenerated',
          target: { type: 'operator', id: actor.id },
          before: { recovery_codes_left: before },
          after: { recovery_codes_left: RECOVERY_CODE_COUNT },
        },
        now,
      );
      return fresh;
    });
    return { recovery_codes: codes };
  }
}
