import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveTestEnv } from '../../test/support/live-env';
import { loadConfig } from './config';
import { generateVapidPrivateKey, vapidPublicKeyOf } from './notification-config';

describe('SMS and Web Push settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'legwork-notification-config-'));
  const sandbox = (env: Record<string, string> = {}) =>
    loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, ...env });
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return '';
    } catch (err) {
      return (err as Error).message;
    }
  };

  it('sandbox: SMS go to the outbox, budgets 300/300/1000 an hour, a VAPID pair generated and kept', () => {
    const c = sandbox();
    expect(c.sms).toEqual({
      provider: 'sandbox',
      aliyun: null,
      budgetsPerHour: { register: 300, login: 300, offer: 1000 },
    });
    expect(c.webPush.publicKey).toBe(vapidPublicKeyOf(c.webPush.privateKey));
    expect(Buffer.from(c.webPush.publicKey, 'base64url')).toHaveLength(65);
    expect(c.webPush.subject).toBe('mailto:push@legwork.invalid');
    expect(sandbox().webPush).toEqual(c.webPush);
  });

  it('sandbox mode refuses a real SMS provider', () => {
    expect(problems({ DATA_DIR: dir, SMS_PROVIDER: 'aliyun' })).toContain(
      'SMS_PROVIDER must be sandbox when PAYMENT_MODE=sandbox',
    );
  });

  it('budgets are configurable, and a bad one names its variable', () => {
    expect(sandbox({ SMS_BUDGET_OFFER_PER_HOUR: '5' }).sms.budgetsPerHour.offer).toBe(5);
    expect(problems({ DATA_DIR: dir, SMS_BUDGET_REGISTER_PER_HOUR: '0' })).toContain(
      'SMS_BUDGET_REGISTER_PER_HOUR must be an integer from 1',
    );
  });

  it('live: Aliyun SMS by default, every setting read', () => {
    const c = loadConfig(liveTestEnv());
    expect(c.sms.provider).toBe('aliyun');
    expect(c.sms.aliyun).toEqual({
      endpoint: 'https://dysmsapi.aliyuncs.com',
      accessKeyId: 'LTAI5tLiveTestKeyId0001',
      accessKeySecret: expect.any(String),
      signName: 'Legwork',
      templates: {
        verification_code: 'SMS_100000001',
        offer: 'SMS_100000002',
        money: 'SMS_100000003',
      },
      timeoutMs: 5000,
    });
    expect(c.webPush.subject).toBe('https://api.legwork.example');
  });

  it('live refuses missing Aliyun settings, a loopback or http endpoint, and template codes of another shape', () => {
    const env = liveTestEnv({
      ALIYUN_SMS_ACCESS_KEY_SECRET: '',
      ALIYUN_SMS_TEMPLATE_OFFER: 'offer',
      ALIYUN_SMS_ENDPOINT: 'https://127.0.0.1:8443',
    });
    const message = problems(env);
    expect(message).toContain('ALIYUN_SMS_ACCESS_KEY_SECRET is required when SMS_PROVIDER=aliyun');
    expect(message).toContain('ALIYUN_SMS_TEMPLATE_OFFER must be an Aliyun template code');
    expect(message).toContain('ALIYUN_SMS_ENDPOINT must not be a loopback host');
    expect(problems(liveTestEnv({ ALIYUN_SMS_ENDPOINT: 'http://sms.example.com' }))).toContain(
      'ALIYUN_SMS_ENDPOINT must be a https: URL',
    );
  });

  it('live may run without SMS only when told to (SMS_PROVIDER=none), never with the sandbox outbox', () => {
    const c = loadConfig(liveTestEnv({ SMS_PROVIDER: 'none', ALIYUN_SMS_ACCESS_KEY_ID: '' }));
    expect(c.sms).toMatchObject({ provider: 'none', aliyun: null });
    expect(problems(liveTestEnv({ SMS_PROVIDER: 'sandbox' }))).toContain('SMS_PROVIDER=sandbox is refused');
  });

  it('live requires the VAPID private key; a public key that is not its pair, or a bad subject, stops the boot', () => {
    expect(problems(liveTestEnv({ VAPID_PRIVATE_KEY: '' }))).toContain(
      'VAPID_PRIVATE_KEY is required when PAYMENT_MODE=live',
    );
    expect(problems(liveTestEnv({ VAPID_PRIVATE_KEY: 'x'.repeat(43) }))).toContain(
      'VAPID_PRIVATE_KEY must be a P-256 private key',
    );
    const other = vapidPublicKeyOf(generateVapidPrivateKey())!;
    expect(problems(liveTestEnv({ VAPID_PUBLIC_KEY: other }))).toContain(
      'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY',
    );
    expect(problems(liveTestEnv({ VAPID_SUBJECT: 'http://legwork.example' }))).toContain(
      'VAPID_SUBJECT must be a mailto: address or an https: URL',
    );
    expect(problems(liveTestEnv({ PUBLIC_BASE_URL: 'http://10.0.0.5:8000' }))).toContain(
      'VAPID_SUBJECT is required when PAYMENT_MODE=live and PUBLIC_BASE_URL is not https',
    );
  });

  it('a generated private key is always 32 bytes, and its public key the uncompressed point', () => {
    for (let i = 0; i < 50; i++) {
      const key = generateVapidPrivateKey();
      expect(Buffer.from(key, 'base64url')).toHaveLength(32);
      expect(vapidPublicKeyOf(key)).toMatch(/^B[A-Za-z0-9_-]{86}$/);
    }
  });
});
