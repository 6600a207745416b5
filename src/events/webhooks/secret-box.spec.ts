import { newSigningSecret, SecretBox } from './secret-box';
import { signBody } from '../delivery/webhook-sender';
import { createHmac } from 'node:crypto';

describe('SecretBox', () => {
  const box = new SecretBox('unit-master-key-0123456789abcdefghijklmnop');

  it('round-trips a secret bound to its owner, and the sealed text does not contain it', () => {
    const secret = newSigningSecret();
    const sealed = box.seal(secret, 'owner-1');
    expect(sealed).not.toContain(secret);
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.open(sealed, 'owner-1')).toBe(secret);
  });

  it('seals the same secret differently each time (random IV)', () => {
    expect(box.seal('s', 'o')).not.toBe(box.seal('s', 'o'));
  });

  it('refuses a sealed secret moved to another owner, a tampered one, and another master key', () => {
    const sealed = box.seal('whsec_abc', 'owner-1');
    expect(() => box.open(sealed, 'owner-2')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('whsec_abd').toString('base64url');
    expect(() => box.open(parts.join('.'), 'owner-1')).toThrow();
    expect(() => new SecretBox('another-master-key-0123456789abcdefghijk').open(sealed, 'owner-1')).toThrow();
    expect(() => box.open('v0.x.y.z', 'owner-1')).toThrow('unrecognised');
  });
});

describe('newSigningSecret and signBody', () => {
  it('makes distinct whsec_ secrets of 46 characters', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(newSigningSecret()).not.toBe(a);
  });

  it('signs the raw body as sha256=<hex HMAC-SHA256>', () => {
    const body = '{"event":"task.assigned"}';
    const expected = createHmac('sha256', 'whsec_k').update(body).digest('hex');
    expect(signBody('whsec_k', body)).toBe(`sha256=${expected}`);
    expect(signBody('whsec_k', body + ' ')).not.toBe(`sha256=${expected}`);
  });
});
