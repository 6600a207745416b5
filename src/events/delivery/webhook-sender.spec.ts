import { signBody, signTimestamped } from './webhook-sender';

/** Vectors computed outside Node (Python's hmac), so the scheme is pinned, not just self-consistent. */
describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const body = '{"event":"webhook.test"}';

  it('X-Signature is sha256=<hex> of the raw body', () => {
    expect(signBody(secret, body)).toBe(
      'sha256=e1202d2376daf8d5d43fdf1ebc2de3477727322835b6b57e43748d89454cb183',
    );
  });

  it('Legwork-Signature is t=<unix seconds>,v1=<hex> of "<t>.<raw body>" (Stripe’s scheme)', () => {
    expect(signTimestamped(secret, body, new Date(1_700_000_000_999))).toBe(
      't=1700000000,v1=1d83e338c8b0156315e4b02e94f96d83e4260098aa05dead2a856d36245f342f',
    );
  });
});
