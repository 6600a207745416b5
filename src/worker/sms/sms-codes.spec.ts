import { generateSmsCode, SmsCodeHasher } from './sms-codes';

describe('SMS codes', () => {
  it('are six digits, leading zeros kept, spread over the whole range', () => {
    const codes = Array.from({ length: 5000 }, generateSmsCode);
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    // With 5000 uniform draws every leading digit shows up (a missing one has probability ~10 * 0.9^5000).
    expect(new Set(codes.map((c) => c[0])).size).toBe(10);
    expect(new Set(codes).size).toBeGreaterThan(4900);
  });

  describe('SmsCodeHasher', () => {
    const hasher = new SmsCodeHasher('a-server-secret-of-at-least-32-characters!');

    it('matches only the same code, phone and purpose', () => {
      const h = hasher.hash('13800138000', 'register', '012345');
      expect(h).toMatch(/^[0-9a-f]{64}$/);
      expect(hasher.matches(h, '13800138000', 'register', '012345')).toBe(true);
      expect(hasher.matches(h, '13800138000', 'register', '012346')).toBe(false);
      expect(hasher.matches(h, '13800138001', 'register', '012345')).toBe(false);
      expect(hasher.matches(h, '13800138000', 'reset_password', '012345')).toBe(false);
    });

    it('depends on the server secret (a leaked table cannot be brute-forced without it)', () => {
      const other = new SmsCodeHasher('another-server-secret-of-32-characters!!');
      expect(other.hash('13800138000', 'login', '123456')).not.toBe(
        hasher.hash('13800138000', 'login', '123456'),
      );
    });
  });
});
