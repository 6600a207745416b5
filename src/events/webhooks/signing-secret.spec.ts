import { createHmac } from 'node:crypto';
import { SecretBox } from '../../common/secret-box';
import { signBody } from '../delivery/webhook-sender';
import { newSigningSecret, SIGNING_SECRETS_PURPOSE } from './signing-secret';

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

  it('opens a signing secret sealed before the sealing key took a purpose (stored secrets keep working)', () => {
    // Sealed by the second round's SecretBox, whose HKDF info was fixed to the webhook purpose's text.
    const sealed = 'v1.t7_-o_BGLhgWpgLP.y9NdFqNi-vAaeJ1fK8NcqQ.tL05HZI4NT_M7g';
    const box = new SecretBox('unit-master-key-0123456789abcdefghijklmnop', SIGNING_SECRETS_PURPOSE);
    expect(box.open(sealed, 'webhook_endpoint:1')).toBe('whsec_kept');
  });
});
