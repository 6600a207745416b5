import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { ErrorExtra } from '../../common/errors/error-catalog';
import { Logger } from '../../common/logging/logger';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { SmsBudget } from '../../config/notification-config';
import { SmsBudgets } from '../../sms/sms-budgets';
import { SMS_GATEWAY, type SmsGateway } from '../../sms/sms-gateway';
import { maskPhone, verificationMessage } from '../../sms/sms-message';
import type { SmsCodeRow } from '../worker.repository';
import {
  generateSmsCode,
  SMS_CODE_TTL_SECONDS,
  SMS_DAILY_LIMIT_PER_PHONE,
  SMS_DAILY_WINDOW_SECONDS,
  SMS_MAX_ATTEMPTS,
  SMS_RESEND_INTERVAL_SECONDS,
  SmsCodeHasher,
  type SmsPurpose,
} from './sms-codes';

/**
 * Namespace of the per-phone advisory lock (two-key form: it cannot collide with single-key locks such as the
 * migration lock). ASCII "SMS".
 */
const SMS_LOCK_NAMESPACE = 0x534d53;

/** Which global hourly budget (product-decisions §16) a code of each purpose is drawn from. */
const BUDGET_OF: Record<SmsPurpose, SmsBudget> = {
  register: 'register',
  login: 'login',
  reset_password: 'login',
};

/** A code check inside a caller's transaction; a failure is returned, not thrown, so the try it counted commits. */
export type SmsCheck = { ok: true } | { ok: false; error: ApiError };

export interface SentSms {
  sent: true;
  expires_in_seconds: number;
  resend_after_seconds: number;
  sandbox_code?: string;
}

interface SendUsage {
  sent_in_day: number;
  oldest_in_day: Date | null;
  last_for_purpose: Date | null;
}

/**
 * Verification codes (product-decisions §6): six CSPRNG digits stored only as a keyed hash, valid 5 minutes, single use,
 * burnt by 5 wrong tries; 1 send a minute per phone and purpose, 10 a day per phone; a new code supersedes the
 * open one. Sends of one phone are serialised by an advisory lock, so parallel requests cannot exceed the limits.
 * Past those, each code is drawn from its purpose's global hourly budget (product-decisions §16).
 */
@Injectable()
export class SmsService {
  private readonly hasher: SmsCodeHasher;

  constructor(
    private readonly ds: DataSource,
    @Inject(SMS_GATEWAY) private readonly gateway: SmsGateway,
    private readonly budgets: SmsBudgets,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Logger) private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    this.hasher = new SmsCodeHasher(config.jwt.refreshSecret);
  }

  /**
   * Issues a code. A register code for a registered number is 409 phone_taken (registration must say so anyway).
   * A login or reset_password code for an unknown number gets the same answer, limits and stored row as a real
   * one, but nothing is sent and no sandbox_code is returned: the response does not reveal whether the number
   * has an account (in sandbox mode the absent sandbox_code does, which is acceptable for test data).
   */
  async send(phone: string, purpose: SmsPurpose): Promise<SentSms> {
    const registered = await this.isRegistered(phone);
    if (purpose === 'register' && registered) {
      throw new ApiError('phone_taken', 'This phone number is already registered; log in instead.');
    }
    const deliver = purpose === 'register' || registered;
    const code = generateSmsCode();
    const id = await inTransaction(this.ds, (em) => this.record(em, phone, purpose, code));
    if (deliver) await this.deliver(id, phone, purpose, code);
    this.logger.info(
      { sms_purpose: purpose, sms_to: maskPhone(phone), delivered: deliver },
      'sms code issued',
    );
    return {
      sent: true,
      expires_in_seconds: SMS_CODE_TTL_SECONDS,
      resend_after_seconds: SMS_RESEND_INTERVAL_SECONDS,
      ...(deliver && this.config.paymentMode === 'sandbox' ? { sandbox_code: code } : {}),
    };
  }

  /** verify-sms: checks without consuming; a wrong code still counts a try. */
  async verify(phone: string, purpose: SmsPurpose, code: string): Promise<{ valid: true }> {
    const check = await inTransaction(this.ds, (em) =>
      this.check(em, phone, purpose, code, { consume: false }),
    );
    if (!check.ok) throw check.error;
    return { valid: true };
  }

  /**
   * Checks (and optionally consumes) the open code of a phone and purpose inside the caller's transaction. The
   * row is locked, so two requests presenting one code are serialised and only the first can consume it.
   */
  async check(
    em: EntityManager,
    phone: string,
    purpose: SmsPurpose,
    code: string,
    options: { consume: boolean },
  ): Promise<SmsCheck> {
    const now = this.clock.now();
    const rows = await sqlRows<Pick<SmsCodeRow, 'id' | 'code_hash'>>(
      em,
      `SELECT id, code_hash FROM sms_codes
        WHERE phone_number = $1 AND purpose = $2 AND consumed_at IS NULL AND superseded_at IS NULL
          AND attempts < $3 AND expires_at > $4
        FOR UPDATE`,
      [phone, purpose, SMS_MAX_ATTEMPTS, now],
    );
    const open = rows[0];
    if (!open) {
      return failure(
        'No valid code for this number: it expired, was already used, was replaced or had too many wrong tries. Request a new one.',
      );
    }
    if (!this.hasher.matches(open.code_hash, phone, purpose, code)) {
      const [counted] = await sqlRows<Pick<SmsCodeRow, 'attempts'>>(
        em,
        `UPDATE sms_codes SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts`,
        [open.id],
      );
      const remaining = SMS_MAX_ATTEMPTS - counted.attempts;
      return failure(
        remaining > 0
          ? 'The verification code is wrong.'
          : 'The verification code is wrong; too many wrong tries, so it no longer works. Request a new one.',
        { attempts_remaining: remaining },
      );
    }
    if (options.consume) {
      await sqlExec(em, `UPDATE sms_codes SET consumed_at = $2 WHERE id = $1`, [open.id, now]);
    }
    return { ok: true };
  }

  /** Counts this phone's recent sends under its lock, then supersedes the open code and stores the new one. */
  private async record(em: EntityManager, phone: string, purpose: SmsPurpose, code: string): Promise<string> {
    const now = this.clock.now();
    await sqlExec(em, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, [SMS_LOCK_NAMESPACE, phone]);
    const [usage] = await sqlRows<SendUsage>(
      em,
      `SELECT count(*)::int AS sent_in_day, min(created_at) AS oldest_in_day,
              max(created_at) FILTER (WHERE purpose = $2) AS last_for_purpose
         FROM sms_codes WHERE phone_number = $1 AND created_at > $3`,
      [phone, purpose, new Date(now.getTime() - SMS_DAILY_WINDOW_SECONDS * 1000)],
    );
    assertWithinLimits(usage, now);
    // Counted for numbers without an account too (nothing is sent to them): a spent budget must answer every number
    // alike, or the 429 would tell which numbers are registered.
    await this.budgets.spend(BUDGET_OF[purpose]);
    await sqlExec(
      em,
      `UPDATE sms_codes SET superseded_at = $3
        WHERE phone_number = $1 AND purpose = $2 AND consumed_at IS NULL AND superseded_at IS NULL`,
      [phone, purpose, now],
    );
    const [row] = await sqlRows<Pick<SmsCodeRow, 'id'>>(
      em,
      `INSERT INTO sms_codes (phone_number, purpose, code_hash, attempts, expires_at, created_at)
       VALUES ($1, $2, $3, 0, $4, $5) RETURNING id`,
      [
        phone,
        purpose,
        this.hasher.hash(phone, purpose, code),
        new Date(now.getTime() + SMS_CODE_TTL_SECONDS * 1000),
        now,
      ],
    );
    return row.id;
  }

  /**
   * Sends after commit (no external call while holding the lock). If the gateway fails, the unsent code is
   * deleted so it neither counts against the client's limits nor lingers as a valid code.
   */
  private async deliver(id: string, phone: string, purpose: SmsPurpose, code: string): Promise<void> {
    try {
      await this.gateway.send(phone, verificationMessage(code, purpose, SMS_CODE_TTL_SECONDS / 60));
    } catch (err) {
      await sqlExec(this.ds, `DELETE FROM sms_codes WHERE id = $1`, [id]);
      if (err instanceof ApiError) throw err;
      this.logger.error({ err, sms_gateway: this.gateway.name }, 'sms gateway failed');
      throw new ApiError('provider_error', 'The SMS provider failed to send the code; try again shortly.');
    }
  }

  private async isRegistered(phone: string): Promise<boolean> {
    const rows = await sqlRows(this.ds, `SELECT 1 FROM workers WHERE phone_number = $1`, [phone]);
    return rows.length > 0;
  }
}

function assertWithinLimits(usage: SendUsage, now: Date): void {
  const waits: number[] = [];
  if (usage.last_for_purpose) {
    const wait = usage.last_for_purpose.getTime() + SMS_RESEND_INTERVAL_SECONDS * 1000 - now.getTime();
    if (wait > 0) waits.push(wait);
  }
  if (usage.sent_in_day >= SMS_DAILY_LIMIT_PER_PHONE && usage.oldest_in_day) {
    waits.push(usage.oldest_in_day.getTime() + SMS_DAILY_WINDOW_SECONDS * 1000 - now.getTime());
  }
  if (waits.length === 0) return;
  const retryAfter = Math.max(1, Math.ceil(Math.max(...waits) / 1000));
  const daily = usage.sent_in_day >= SMS_DAILY_LIMIT_PER_PHONE;
  throw new ApiError(
    'rate_limit_exceeded',
    daily
      ? `At most ${SMS_DAILY_LIMIT_PER_PHONE} codes a day can be sent to one number.`
      : `At most one code a minute can be sent to one number for the same purpose.`,
    { retry_after: retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}

function failure(message: string, extra: ErrorExtra<'invalid_sms_code'> = {}): SmsCheck {
  return { ok: false, error: new ApiError('invalid_sms_code', message, extra) };
}
