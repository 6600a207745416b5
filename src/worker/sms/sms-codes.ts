import { createHmac, hkdfSync, randomInt } from 'node:crypto';
import { safeEqual } from '../../common/crypto';

export const SMS_PURPOSES = ['register', 'login', 'reset_password'] as const;
export type SmsPurpose = (typeof SMS_PURPOSES)[number];

/** The SMS rules of product-decisions §6. */
export const SMS_CODE_TTL_SECONDS = 300;
export const SMS_MAX_ATTEMPTS = 5;
export const SMS_RESEND_INTERVAL_SECONDS = 60;
export const SMS_DAILY_LIMIT_PER_PHONE = 10;
export const SMS_DAILY_WINDOW_SECONDS = 86_400;

/** Six digits from the CSPRNG; randomInt is uniform (no modulo bias), leading zeros kept. */
export function generateSmsCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * Codes are stored as HMAC-SHA-256 over `purpose:phone:code`. Binding phone and purpose means a code's hash is
 * only valid for the request it was sent for; the server-side key (the pepper) matters because a plain hash of a
 * six-digit code is reversed by trying all 10^6 values, so without the key a leaked table reveals nothing.
 */
export class SmsCodeHasher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'legwork', 'sms-code-v1', 32));
  }

  hash(phone: string, purpose: SmsPurpose, code: string): string {
    return createHmac('sha256', this.key).update(`${purpose}:${phone}:${code}`).digest('hex');
  }

  matches(storedHash: string, phone: string, purpose: SmsPurpose, code: string): boolean {
    return safeEqual(storedHash, this.hash(phone, purpose, code));
  }
}
