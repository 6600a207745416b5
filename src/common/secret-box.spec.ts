import { KeyedHash, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('unit-master-key-0123456789abcdefghijklmnop', 'unit purpose v1');

  it('round-trips a secret bound to its owner, and the sealed text does not contain it', () => {
    const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ0123456789';
    const sealed = box.seal(secret, 'owner-1');
    expect(sealed).not.toContain(secret);
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.open(sealed, 'owner-1')).toBe(secret);
  });

  it('seals the same secret differently each time (random IV)', () => {
    expect(box.seal('s', 'o')).not.toBe(box.seal('s', 'o'));
  });

  it('refuses a sealed secret moved to another owner, a tampered one, another master key or another purpose', () => {
    const sealed = box.seal('whsec_abc', 'owner-1');
    expect(() => box.open(sealed, 'owner-2')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('whsec_abd').toString('base64url');
    expect(() => box.open(parts.join('.'), 'owner-1')).toThrow();
    expect(() =>
      new SecretBox('another-master-key-0123456789abcdefghijk', 'unit purpose v1').open(sealed, 'owner-1'),
    ).toThrow();
    expect(() =>
      new SecretBox('unit-master-key-0123456789abcdefghijklmnop', 'another purpose v1').open(
        sealed,
        'owner-1',
      ),
    ).toThrow();
    expect(() => box.open('v0.x.y.z', 'owner-1')).toThrow('unrecognised');
  });
});

describe('KeyedHash', () => {
  it('is stable for one key and purpose, and differs with either', () => {
    const master = 'unit-master-key-0123456789abcdefghijklmnop';
    const hash = new KeyedHash(master, 'codes v1');
    expect(hash.hex('abcde-fghij')).toBe(new KeyedHash(master, 'codes v1').hex('abcde-fghij'));
    expect(hash.hex('abcde-fghij')).toMatch(/^[0-9a-f]{64}$/);
    expect(hash.hex('abcde-fghik')).not.toBe(hash.hex('abcde-fghij'));
    expect(new KeyedHash(master, 'codes v2').hex('abcde-fghij')).not.toBe(hash.hex('abcde-fghij'));
    expect(new KeyedHash(`${master}x`, 'codes v1').hex('abcde-fghij')).not.toBe(hash.hex('abcde-fghij'));
  });
});
