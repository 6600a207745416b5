import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it by default: HMAC-SHA1, 6 digits, 30-second steps. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** RFC 4226's recommended secret length (160 bits). */
const SECRET_BYTES = 20;
/** One step either side of now: a phone clock a little off still works, a code lives at most about 90 s. */
const WINDOW = 1;

export const RECOVERY_CODE_COUNT = 10;
/** 32 letters and digits without the ones read alike (0/o, 1/l): 5 bits each, no modulo bias from a byte. */
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

/** A new secret in base32, as authenticator apps take it when typed in. */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The otpauth:// URI a QR code carries; `issuer` and `account` are what the app shows beside the codes. */
export function totpUri(secret: string, issuer: string, account: string): string {
  return totp(secret, issuer, account).toString();
}

/**
 * The time step (counter) a code belongs to, if it is valid within the window at `at`; null otherwise. The step is
 * what replay protection compares: a code is refused for a step already used.
 */
export function matchingStep(secret: string, code: string, at: Date): number | null {
  const timestamp = at.getTime();
  const delta = totp(secret).validate({ token: code, timestamp, window: WINDOW });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp }) + delta;
}

/** Ten new recovery codes, `xxxxx-xxxxx` (50 bits each), shown once and stored as keyed hashes. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(RECOVERY_LENGTH)].map((b) => RECOVERY_ALPHABET[b & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/**
 * A recovery code as typed (any case, spaces or a dash anywhere) in the form it was hashed in; null when it cannot
 * be one, so nothing is looked up for it.
 */
export function normaliseRecoveryCode(input: string): string | null {
  const chars = input.toLowerCase().replace(/[\s-]/g, '');
  if (chars.length !== RECOVERY_LENGTH || [...chars].some((c) => !RECOVERY_ALPHABET.includes(c))) return null;
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

function totp(secret: string, issuer = '', label = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}
