import { createTestApp, type TestApp } from '../support/app';

/**
 * Dynamic client registration (RFC 7591) is open to anyone, so it is rate-limited per IP like the other public auth
 * routes (product-decisions §21; AUTH_RATE_LIMIT_PER_MINUTE): past the budget a client is refused with 429 and no
 * client is created. Its own app, with a budget of 3, so the other OAuth tests' registrations never reach it.
 */
describe('OAuth dynamic registration: rate-limited per IP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  const register = (name: string) =>
    t.http
      .post('/oauth/register')
      .send({ client_name: name, redirect_uris: ['http://127.0.0.1:9/callback'] });

  it('registers 3 clients a minute from one address; the 4th is 429 and creates nothing', async () => {
    const count = async (): Promise<number> =>
      Number((await t.db.query(`SELECT count(*)::int AS n FROM oauth_clients`))[0].n);
    const before = await count();
    for (const n of [1, 2, 3]) {
      const ok = await register(`client ${n}`);
      expect(ok.status).toBe(201);
      expect(ok.body.client_id).toEqual(expect.any(String));
    }
    const refused = await register('client 4');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toEqual(expect.any(String));
    expect(await count()).toBe(before + 3);

    // A minute later the budget is back.
    t.clock.advance(61_000);
    expect((await register('client 5')).status).toBe(201);
  });
});
