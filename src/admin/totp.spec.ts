import { createHmac } from 'node:crypto';
import { Secret } from 'otpauth';
import {
  matchingStep,
  newRecoveryCodes,
  newTotpSecret,
  normaliseRecoveryCode,
  RECOVERY_CODE_COUNT,
  totpUri,
} from './totp';

/** RFC 6238 appendix B's SHA-1 seed, truncated to 6 digits (the test vectors give 8). */
const RFC_SECRET = Secret.fromLatin1('12345678901234567890').base32;

/** The RFC 4226 algorithm written out, to check the library against the standard rather than itself. */
function reference(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', Buffer.from(Secret.fromBase32(secret).buffer))
    .update(counter)
    .digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

describe('TOTP codes (RFC 6238, SHA-1, 6 digits, 30 s)', () => {
  it('accepts the RFC test vectors (last 6 digits) at their times, as their step', () => {
    const vectors: [number, string][] = [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
    ];
    for (const [seconds, code] of vectors) {
      expect(matchingStep(RFC_SECRET, code, new Date(seconds * 1000))).toBe(Math.floor(seconds / 30));
    }
  });

  it('accepts a code one step early or late (clock drift), as its own step, and nothing further', () => {
    const secret = newTotpSecret();
    const at = new Date(1_700_000_015_000);
    const step = Math.floor(at.getTime() / 30_000);
    expect(matchingStep(secret, reference(secret, step), at)).toBe(step);
    expect(matchingStep(secret, reference(secret, step - 1), at)).toBe(step - 1);
    expect(matchingStep(secret, reference(secret, step + 1), at)).toBe(step + 1);
    expect(matchingStep(secret, reference(secret, step - 2), at)).toBeNull();
    expect(matchingStep(secret, reference(secret, step + 2), at)).toBeNull();
    expect(matchingStep(secret, 'abcdef', at)).toBeNull();
  });

  it('makes 160-bit base32 secrets and an otpauth URI that names the issuer and account', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, 'Legwork (ops.example.com)', 'ops@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Legwork (ops.example.com):ops@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: 'Legwork (ops.example.com)',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});

describe('recovery codes', () => {
  it('are ten distinct xxxxx-xxxxx codes that read back as themselves', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) {
      expect(code).toMatch(/^[a-km-np-z2-9]{5}-[a-km-np-z2-9]{5}$/);
      expect(normaliseRecoveryCode(code)).toBe(code);
    }
  });

  it('are read in any case, with spaces or without the dash; anything else is no code', () => {
    expect(normaliseRecoveryCode(' ABCDE fghij ')).toBe('abcde-fghij');
    expect(normaliseRecoveryCode('abcdefghij')).toBe('abcde-fghij');
    expect(normaliseRecoveryCode('abcde-fghi')).toBeNull();
    expect(normaliseRecoveryCode('abcde-fghil')).toBeNull();
    expect(normaliseRecoveryCode('abcde-fgh1j')).toBeNull();
    expect(normaliseRecoveryCode('')).toBeNull();
  });
});
