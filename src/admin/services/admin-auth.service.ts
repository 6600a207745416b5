import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { recordOperatorAction, type AuditActor } from '../../audit/operator-audit';
import type { RequestOrigin } from '../../audit/operator-context';
import type { TokenPairResponse } from '../../auth/dtos/token-pair.dto';
import { LoginThrottle } from '../../auth/login-throttle';
import { PasswordHasher } from '../../auth/passwords';
import { CHALLENGE_TTL_SECONDS, SignInChallenges } from '../../auth/sign-in-challenges';
import { Tokens } from '../../auth/tokens';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows, type SqlRunner } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { AdminRow } from '../admin.rows';
import type {
  AdminLoginRequest,
  AdminLoginResponse,
  AdminSecondFactorRequest,
  AdminSignedInResponse,
} from '../dtos/admin-auth.dto';
import { SecondFactor, type SecondFactorMethod } from './second-factor';
import { TotpEnrolment } from './totp-enrolment';

type SignInAccount = Pick<AdminRow, 'id' | 'email' | 'totp_required'> & { totp_enabled: boolean };
type SignInMethod = 'password' | SecondFactorMethod;

/**
 * Operator sign-in (product-decisions §16): the password, then, for an account with two-factor (or one that must
 * enrol), a short-lived challenge answered with a code or a recovery code. Every sign-in, failed attempt on an
 * existing account and sign-out is in the audit log, with the address it came from.
 */
@Injectable()
export class AdminAuthService {
  constructor(
    private readonly ds: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly tokens: Tokens,
    private readonly throttle: LoginThrottle,
    private readonly challenges: SignInChallenges,
    private readonly secondFactor: SecondFactor,
    private readonly enrolment: TotpEnrolment,
    private readonly clock: Clock,
  ) {}

  async login(dto: AdminLoginRequest, origin: RequestOrigin): Promise<AdminLoginResponse> {
    const [found] = await sqlRows<SignInAccount & Pick<AdminRow, 'password_hash'>>(
      this.ds,
      `SELECT id, email, password_hash, totp_required, totp_enabled_at IS NOT NULL AS totp_enabled
         FROM admins WHERE lower(email) = $1`,
      [dto.email.toLowerCase()],
    );
    if (!found) {
      await this.hasher.verify(null, dto.password);
      throw invalidCredentials();
    }
    const { password_hash: hash, ...admin } = found;
    const twoStep = admin.totp_enabled || admin.totp_required;
    // With a second step to come, a right password leaves the failure count alone: only the whole sign-in clears it.
    const ok = await this.throttle.attempt('admin', admin.id, () => this.hasher.verify(hash, dto.password), {
      clearOnSuccess: !twoStep,
    });
    if (!ok) {
      await this.recordFailure(admin.id, origin, 'password');
      throw invalidCredentials();
    }
    if (!twoStep) return inTransaction(this.ds, (em) => this.signIn(em, admin, origin, 'password'));
    const purpose = admin.totp_enabled ? 'totp' : 'totp_enrolment';
    const challenge = {
      challenge_token: await this.challenges.issue('admin', admin.id, purpose),
      expires_in: CHALLENGE_TTL_SECONDS,
    };
    if (purpose === 'totp') return { status: 'totp_required', ...challenge };
    const setup = await this.enrolment.start(this.ds, admin);
    return { status: 'totp_enrolment_required', ...challenge, totp_setup: setup };
  }

  /** The second step: a code (or recovery code) for the challenge; for an enrolment, its first code. */
  async completeSignIn(dto: AdminSecondFactorRequest, origin: RequestOrigin): Promise<AdminSignedInResponse> {
    const { subjectId, purpose } = await this.challenges.verify('admin', dto.challenge_token);
    const admin = await this.account(this.ds, subjectId);
    if (purpose === 'totp_enrolment') {
      if (admin.totp_enabled) throw challengeVoid();
      if (dto.code == null) throw ApiError.field('code', 'is the first code of the new secret');
      const enrolled = await this.checked(admin.id, origin, 'totp', () =>
        this.enrolment.confirm(asOperator(admin.id, origin), admin.id, dto.code!, async (em) =>
          this.signIn(em, { ...admin, totp_enabled: true }, origin, 'totp'),
        ),
      );
      return { ...enrolled.result, recovery_codes: enrolled.recoveryCodes };
    }
    if (!admin.totp_enabled) throw challengeVoid();
    const method = dto.recovery_code != null ? 'recovery_code' : 'totp';
    await this.checked(admin.id, origin, method, () => this.secondFactor.verify(admin.id, dto));
    return inTransaction(this.ds, async (em) => {
      const session = await this.signIn(em, admin, origin, method);
      if (method === 'totp') return session;
      return { ...session, recovery_codes_left: await this.secondFactor.recoveryCodesLeft(em, admin.id) };
    });
  }

  async refresh(refreshToken: string): Promise<TokenPairResponse> {
    return (await this.tokens.rotate('admin', refreshToken)).pair;
  }

  /** Ends the session of the refresh token (and with it the session's access tokens: Authenticator checks). */
  async logout(refreshToken: string, origin: RequestOrigin): Promise<void> {
    await inTransaction(this.ds, async (em) => {
      const { subjectId, sessionId, ended } = await this.tokens.revoke('admin', refreshToken, em);
      // A session already ended is answered alike, and recorded once: when it ended.
      if (!ended) return;
      await recordOperatorAction(
        em,
        { source: 'api', adminId: subjectId, sessionId, requestId: origin.requestId, ip: null },
        { action: 'operator.signed_out', target: { type: 'operator', id: subjectId } },
        this.clock.now(),
      );
    });
  }

  /** Opens the session and records the sign-in, in the caller's transaction. */
  private async signIn(
    em: EntityManager,
    admin: SignInAccount,
    origin: RequestOrigin,
    method: SignInMethod,
  ): Promise<AdminSignedInResponse> {
    const session = await this.tokens.issueSession('admin', admin.id, { db: em });
    await recordOperatorAction(
      em,
      { ...asOperator(admin.id, origin), sessionId: session.sessionId },
      { action: 'operator.signed_in', target: { type: 'operator', id: admin.id }, after: { method } },
      this.clock.now(),
    );
    return {
      status: 'signed_in',
      ...session.pair,
      admin_id: admin.id,
      email: admin.email,
      session_expires_at: session.sessionEndsAt!,
      totp_enabled: admin.totp_enabled,
    };
  }

  /** Runs a second-factor check; a wrong code is recorded as a failed sign-in before the refusal goes out. */
  private async checked<T>(
    adminId: string,
    origin: RequestOrigin,
    step: SecondFactorMethod,
    check: () => Promise<T>,
  ): Promise<T> {
    try {
      return await check();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_totp_code') {
        await this.recordFailure(adminId, origin, step);
      }
      throw err;
    }
  }

  private async recordFailure(adminId: string, origin: RequestOrigin, step: SignInMethod): Promise<void> {
    await recordOperatorAction(
      this.ds,
      asOperator(adminId, origin),
      { action: 'operator.sign_in_failed', target: { type: 'operator', id: adminId }, after: { step } },
      this.clock.now(),
    );
  }

  private async account(db: SqlRunner, id: string): Promise<SignInAccount> {
    const [admin] = await sqlRows<SignInAccount>(
      db,
      `SELECT id, email, totp_required, totp_enabled_at IS NOT NULL AS totp_enabled FROM admins WHERE id = $1`,
      [id],
    );
    if (!admin) throw challengeVoid();
    return admin;
  }
}

/** A sign-in step names the account it is for and keeps the address it came from. */
function asOperator(adminId: string, origin: RequestOrigin): AuditActor {
  return { source: 'api', adminId, sessionId: null, requestId: origin.requestId, ip: origin.ip };
}

function invalidCredentials(): ApiError {
  return new ApiError('invalid_credentials', 'The email or password is wrong.');
}

/** The account changed since the password step (two-factor reset or removed): the challenge no longer applies. */
function challengeVoid(): ApiError {
  return new ApiError(
    'invalid_token',
    'This sign-in challenge no longer applies: sign in with the password again.',
  );
}
