import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { recordOperatorAction, type AuditActor } from '../../audit/operator-audit';
import { revokeSessions } from '../../auth/tokens';
import type { AdminActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { AdminRow } from '../admin.rows';
import type { OperatorListResponse, OperatorResponse } from '../dtos/admin-account.dto';
import { SecondFactor } from './second-factor';

const OPERATOR_VIEW = `SELECT id AS admin_id, email, totp_enabled_at IS NOT NULL AS totp_enabled, totp_required,
                              created_at
                         FROM admins`;

/**
 * The operator team: who the operators are, and resetting another operator's two-factor when their authenticator
 * and recovery codes are lost. Nobody turns their own two-factor off: with a stolen session that would be one step
 * from a password-only account. A reset needs another operator who signs in with two-factor themselves (or
 * `admin:create --reset-totp` on the server), ends the operator's sessions, and is in the audit log.
 */
@Injectable()
export class OperatorsService {
  constructor(
    private readonly ds: DataSource,
    private readonly secondFactor: SecondFactor,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<OperatorListResponse> {
    return { items: await sqlRows<OperatorResponse>(this.ds, `${OPERATOR_VIEW} ORDER BY lower(email)`) };
  }

  async resetTotp(who: AuditActor, actor: AdminActor, targetId: string): Promise<OperatorResponse> {
    if (targetId === actor.id) {
      throw new ApiError(
        'forbidden',
        'Another operator resets your two-factor sign-in; you cannot turn it off.',
      );
    }
    return inTransaction(this.ds, async (em) => {
      const [me] = await sqlRows<{ totp_enabled: boolean }>(
        em,
        `SELECT totp_enabled_at IS NOT NULL AS totp_enabled FROM admins WHERE id = $1`,
        [actor.id],
      );
      if (!me?.totp_enabled) {
        throw new ApiError(
          'two_factor_required',
          'Only an operator who signs in with two-factor may reset another’s: turn yours on first.',
        );
      }
      const [target] = await sqlRows<Pick<AdminRow, 'totp_enabled_at' | 'totp_required'>>(
        em,
        `SELECT totp_enabled_at, totp_required FROM admins WHERE id = $1 FOR UPDATE`,
        [targetId],
      );
      if (!target) throw new ApiError('not_found', 'No operator with this id.');
      if (!target.totp_enabled_at) {
        throw new ApiError('invalid_state', 'This operator has no two-factor sign-in to reset.');
      }
      const now = this.clock.now();
      const left = await this.secondFactor.recoveryCodesLeft(em, targetId);
      await sqlExec(
        em,
        `UPDATE admins SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL,
                           totp_pending_secret = NULL
          WHERE id = $1`,
        [targetId],
      );
      await sqlExec(em, `DELETE FROM admin_recovery_codes WHERE admin_id = $1`, [targetId]);
      await revokeSessions(em, 'admin', targetId, now);
      await recordOperatorAction(
        em,
        who,
        {
          action: 'operator.totp_reset',
          target: { type: 'operator', id: targetId },
          before: { totp_enabled: true, recovery_codes_left: left },
          after: { totp_enabled: false, totp_required: target.totp_required, sessions_ended: true },
        },
        now,
      );
      const [view] = await sqlRows<OperatorResponse>(em, `${OPERATOR_VIEW} WHERE id = $1`, [targetId]);
      return view;
    });
  }
}
