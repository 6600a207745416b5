import { AdminCreateUsageError, parseAdminCreateArgs } from '../../src/admin/admin-accounts';
import { adminCreate } from '../../src/admin/admin-create.cli';
import { Logger } from '../../src/common/logging/logger';
import { createTestApp, TestApp } from '../support/app';
import { uniqueEmail } from '../support/agents';
import { databaseUrl } from '../support/databases';

describe('npm run admin:create', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  const run = (args: string[]) =>
    adminCreate(databaseUrl(t.databaseName), parseAdminCreateArgs(args), new Logger('silent'));

  it('creates an operator who can then log in', async () => {
    const email = uniqueEmail('Ops');
    const result = await run(['--email', email, '--password', 'a strong passphrase']);
    expect(result).toEqual({ id: expect.any(String), email: email.toLowerCase(), created: true });
    const res = await t.http
      .post('/v1/admin/login')
      .send({ email, password: 'a strong passphrase' })
      .expect(200);
    expect(res.body.admin_id).toBe(result.id);
  });

  it('run again for the same email (any case): replaces the password and ends existing sessions', async () => {
    const email = uniqueEmail('ops');
    const first = await run([`--email=${email}`, '--password=first passphrase']);
    const login = await t.http
      .post('/v1/admin/login')
      .send({ email, password: 'first passphrase' })
      .expect(200);
    const second = await run(['--email', email.toUpperCase(), '--password', 'second passphrase']);
    expect(second).toEqual({ id: first.id, email, created: false });
    await t.http.post('/v1/admin/login').send({ email, password: 'first passphrase' }).expect(401);
    await t.http.post('/v1/admin/login').send({ email, password: 'second passphrase' }).expect(200);
    await t.http.post('/v1/admin/refresh').send({ refresh_token: login.body.refresh_token }).expect(401);
    const count = await t.db.query(`SELECT count(*)::int AS n FROM admins WHERE lower(email) = $1`, [email]);
    expect(count[0].n).toBe(1);
  });

  it('--require-totp, --no-require-totp and --reset-totp change an existing operator without a new password', async () => {
    const email = uniqueEmail('ops');
    const created = await run(['--email', email, '--password', 'a strong passphrase', '--require-totp']);
    const first = await t.http
      .post('/v1/admin/login')
      .send({ email, password: 'a strong passphrase' })
      .expect(200);
    expect(first.body.status).toBe('totp_enrolment_required');
    await run(['--email', email, '--no-require-totp']);
    const plain = await t.http
      .post('/v1/admin/login')
      .send({ email, password: 'a strong passphrase' })
      .expect(200);
    expect(plain.body.status).toBe('signed_in');
    const again = await run(['--email', email, '--reset-totp']);
    expect(again).toEqual({ id: created.id, email, created: false });
    // The password stayed; the session opened before the change did not.
    await t.http.post('/v1/admin/login').send({ email, password: 'a strong passphrase' }).expect(200);
    await t.http.post('/v1/admin/refresh').send({ refresh_token: plain.body.refresh_token }).expect(401);
  });

  it('an unknown email with a two-factor option but no password is refused, creating nothing', async () => {
    const email = uniqueEmail('ops');
    await expect(run(['--email', email, '--require-totp'])).rejects.toThrow(
      /no operator .* yet: --password is required/,
    );
    const count = await t.db.query(`SELECT count(*)::int AS n FROM admins WHERE lower(email) = $1`, [email]);
    expect(count[0].n).toBe(0);
  });

  it('parses the two-factor options', () => {
    expect(parseAdminCreateArgs(['--email', 'ops@example.com', '--require-totp', '--reset-totp'])).toEqual({
      email: 'ops@example.com',
      password: undefined,
      requireTotp: true,
      resetTotp: true,
    });
    expect(parseAdminCreateArgs(['--email=ops@example.com', '--no-require-totp'])).toMatchObject({
      requireTotp: false,
    });
  });

  it.each([
    [['--email', 'ops@example.com', '--require-totp', '--no-require-totp'], /contradict/],
    [[], /--email is required.*--password is required/],
    [['--email', 'ops@example.com'], /--password is required/],
    [['--email', 'not-an-email', '--password', 'a strong passphrase'], /not an email address/],
    [['--email', 'ops@example.com', '--password', 'short'], /12 to 128 characters/],
    [['--email', '--password', 'a strong passphrase'], /--email needs a value/],
    [
      ['--email', 'ops@example.com', '--password', 'a strong passphrase', '--role', 'x'],
      /unknown argument '--role'/,
    ],
  ])('%j is refused with a clear message', (args, message) => {
    expect(() => parseAdminCreateArgs(args)).toThrow(AdminCreateUsageError);
    expect(() => parseAdminCreateArgs(args)).toThrow(message);
  });
});
