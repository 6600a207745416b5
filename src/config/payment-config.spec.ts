import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, loadSandboxServerConfig } from './config';
import { isLoopbackHost } from './payment-config';
import { loadOrCreateSandboxCredentials } from './sandbox-credentials';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'legwork-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const rsa = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

function problems(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

const LIVE_BASE = {
  PAYMENT_MODE: 'live',
  DATABASE_URL: 'postgres://u:p@db.example/legwork',
  JWT_ACCESS_SECRET: 'a'.repeat(40),
  JWT_REFRESH_SECRET: 'b'.repeat(40),
  WEBHOOK_SECRET_KEY: 'c'.repeat(40),
  VAPID_PRIVATE_KEY: 'Non7M5rL_KEJh3rp5KlDxcrjOQCCwW_5aUpa3_6GC3M',
  PUBLIC_BASE_URL: 'https://api.legwork.example',
  // SMS settings have their own spec (notification-config.spec.ts).
  SMS_PROVIDER: 'none',
};

function liveEnv(): Record<string, string> {
  const app = rsa();
  const alipay = rsa();
  const wechat = rsa();
  const pkcs1Der = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs1', format: 'der' })
    .toString('base64');
  writeFileSync(join(dir, 'wechat_pub.pem'), wechat.publicKey);
  return {
    ...LIVE_BASE,
    ALIPAY_APP_ID: '2021000000000001',
    // As a one-line environment value with literal \n.
    ALIPAY_APP_PRIVATE_KEY: app.privateKey.replace(/\n/g, '\\n'),
    // Bare base64, as the Alipay console shows keys.
    ALIPAY_PUBLIC_KEY: alipay.publicKey.replace(/-----[^-]+-----|\n/g, ''),
    WECHATPAY_MCH_ID: '1900000001',
    WECHATPAY_APP_ID: 'wx0123456789abcdef',
    WECHATPAY_MCH_SERIAL: 'ABCDEF0123456789ABCDEF0123456789ABCDEF01',
    WECHATPAY_MCH_PRIVATE_KEY: pkcs1Der,
    WECHATPAY_APIV3_KEY: 'k'.repeat(32),
    WECHATPAY_PUBLIC_KEY_FILE: join(dir, 'wechat_pub.pem'),
    WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0119000000012024000000000000',
  };
}

describe('payment settings in sandbox mode', () => {
  it('a spawned sandbox takes free ports unless told; one started apart (SANDBOX_SPAWN=false) is on 8101/8102', () => {
    expect(loadConfig({ DATA_DIR: dir }).payments.sandbox).toMatchObject({
      spawn: true,
      alipayPort: 0,
      wechatPort: 0,
    });
    const told = loadConfig({ DATA_DIR: dir, SANDBOX_ALIPAY_PORT: '9301', SANDBOX_WECHAT_PORT: '9302' });
    expect(told.payments.alipay!.gatewayUrl).toBe('http://127.0.0.1:9301/gateway.do');
    expect(told.payments.wechat!.baseUrl).toBe('http://127.0.0.1:9302/');
  });

  it('default to the sandbox on loopback and its credentials file, created once and reused', () => {
    const config = loadConfig({ DATA_DIR: dir, SANDBOX_SPAWN: 'false' });
    const p = config.payments;
    const file = join(dir, 'sandbox', 'credentials.json');
    expect(p.sandbox).toMatchObject({
      credentialsFile: file,
      alipayPort: 8101,
      wechatPort: 8102,
      autoCompleteMs: 5000,
    });
    expect(existsSync(file)).toBe(true);
    const creds = loadOrCreateSandboxCredentials(file);
    expect(p.alipay).toMatchObject({
      gatewayUrl: 'http://127.0.0.1:8101/gateway.do',
      appId: creds.alipay.appId,
      alipayPublicKeyPem: creds.alipay.platformPublicKey,
      notifyUrl: 'http://localhost:8000/webhooks/alipay',
    });
    expect(p.wechat).toMatchObject({
      baseUrl: 'http://127.0.0.1:8102/',
      mchId: creds.wechat.mchId,
      platformPublicKeyId: creds.wechat.platformPublicKeyId,
      notifyUrl: 'http://localhost:8000/webhooks/wechat',
    });
    expect(creds.wechat.platformPublicKeyId).toMatch(/^PUB_KEY_ID_/);
    expect(Buffer.byteLength(creds.wechat.apiV3Key)).toBe(32);
    expect(loadConfig({ DATA_DIR: dir }).payments.alipay!.appId).toBe(creds.alipay.appId);
  });

  it('refuse production provider hosts', () => {
    expect(
      problems({ DATA_DIR: dir, ALIPAY_GATEWAY_URL: 'https://openapi.alipay.com/gateway.do' }),
    ).toContain('ALIPAY_GATEWAY_URL must not be a production provider host');
    expect(problems({ DATA_DIR: dir, WECHATPAY_BASE_URL: 'https://api.mch.weixin.qq.com/' })).toContain(
      'WECHATPAY_BASE_URL must not be a production provider host',
    );
  });

  it('a corrupt credentials file stops the boot instead of being replaced silently', () => {
    const file = join(dir, 'creds.json');
    writeFileSync(file, '{"version":2}');
    expect(() => loadConfig({ DATA_DIR: dir, SANDBOX_CREDENTIALS_FILE: file })).toThrow(
      /not a Legwork sandbox/,
    );
    expect(readFileSync(file, 'utf8')).toBe('{"version":2}');
  });

  it('PAYMENT_PROVIDERS enables a subset and rejects unknown names', () => {
    const p = loadConfig({ DATA_DIR: dir, PAYMENT_PROVIDERS: 'wechat' }).payments;
    expect(p.providers).toEqual(['wechat']);
    expect(p.alipay).toBeNull();
    expect(problems({ DATA_DIR: dir, PAYMENT_PROVIDERS: 'wechat,paypal' })).toContain('PAYMENT_PROVIDERS');
  });
});

describe('payment settings in live mode', () => {
  it('require every provider secret', () => {
    const message = problems({ ...LIVE_BASE, DATA_DIR: dir });
    for (const name of [
      'ALIPAY_APP_ID',
      'ALIPAY_APP_PRIVATE_KEY',
      'ALIPAY_PUBLIC_KEY',
      'WECHATPAY_MCH_ID',
      'WECHATPAY_MCH_SERIAL',
      'WECHATPAY_MCH_PRIVATE_KEY',
      'WECHATPAY_APIV3_KEY',
      'WECHATPAY_PUBLIC_KEY',
      'WECHATPAY_PUBLIC_KEY_ID',
    ]) {
      expect(message).toContain(name);
    }
  });

  it('accept keys as escaped PEM, bare base64 (PKCS#8 or PKCS#1) or a file, normalised to PEM', () => {
    const p = loadConfig({ ...liveEnv(), DATA_DIR: dir }).payments;
    expect(p.sandbox).toBeNull();
    expect(p.alipay!.gatewayUrl).toBe('https://openapi.alipay.com/gateway.do');
    expect(p.alipay!.appPrivateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(p.alipay!.alipayPublicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(p.wechat!.merchantPrivateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(p.wechat!.platformPublicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(p.wechat!.baseUrl).toBe('https://api.mch.weixin.qq.com/');
    expect(p.wechat!.notifyUrl).toBe('https://api.legwork.example/webhooks/wechat');
  });

  it('refuse loopback hosts for providers and for the notification base URL', () => {
    expect(
      problems({ ...liveEnv(), DATA_DIR: dir, ALIPAY_GATEWAY_URL: 'https://127.0.0.1/gateway.do' }),
    ).toContain('ALIPAY_GATEWAY_URL must not be a loopback host');
    expect(
      problems({ ...liveEnv(), DATA_DIR: dir, WECHATPAY_BASE_URL: 'https://localhost:8102/' }),
    ).toContain('WECHATPAY_BASE_URL must not be a loopback host');
    expect(problems({ ...liveEnv(), DATA_DIR: dir, PUBLIC_BASE_URL: 'http://localhost:8000' })).toMatch(
      /PAYMENT_NOTIFY_BASE_URL.*https[\s\S]*loopback/,
    );
  });

  it('check key formats, the APIv3 key length and the public key id', () => {
    const message = problems({
      ...liveEnv(),
      DATA_DIR: dir,
      ALIPAY_APP_PRIVATE_KEY: 'not a key',
      WECHATPAY_APIV3_KEY: 'short',
      WECHATPAY_PUBLIC_KEY_ID: '7132D72A03E93CDDF8C03BBD1F37EEDF',
      WECHATPAY_PUBLIC_KEY_FILE: join(dir, 'missing.pem'),
    });
    expect(message).toContain('ALIPAY_APP_PRIVATE_KEY is not a valid RSA private key');
    expect(message).toContain('WECHATPAY_APIV3_KEY must be 32 bytes');
    expect(message).toContain('WECHATPAY_PUBLIC_KEY_ID must start with PUB_KEY_ID_');
    expect(message).toContain('WECHATPAY_PUBLIC_KEY_FILE points to a missing file');
  });

  it('only the enabled providers need secrets', () => {
    const env = liveEnv();
    for (const k of Object.keys(env)) if (k.startsWith('WECHATPAY_')) delete env[k];
    const p = loadConfig({ ...env, DATA_DIR: dir, PAYMENT_PROVIDERS: 'alipay' }).payments;
    expect(p.wechat).toBeNull();
    expect(p.alipay!.appId).toBe('2021000000000001');
  });
});

describe('sandbox process settings', () => {
  it('read DATA_DIR and SANDBOX_*; 0 turns auto-completion off; live mode is refused', () => {
    expect(loadSandboxServerConfig({ DATA_DIR: dir })).toMatchObject({
      dataDir: dir,
      credentialsFile: join(dir, 'sandbox', 'credentials.json'),
      host: '127.0.0.1',
      alipayPort: 8101,
      wechatPort: 8102,
      autoCompleteMs: 5000,
      timeScale: 1,
    });
    expect(
      loadSandboxServerConfig({ DATA_DIR: dir, SANDBOX_AUTO_COMPLETE_MS: '0' }).autoCompleteMs,
    ).toBeNull();
    expect(() => loadSandboxServerConfig({ PAYMENT_MODE: 'live' })).toThrow(
      /does not run when PAYMENT_MODE=live/,
    );
  });

  it('knows loopback hosts', () => {
    for (const h of ['localhost', 'api.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', '0.0.0.0']) {
      expect(isLoopbackHost(h)).toBe(true);
    }
    for (const h of ['example.com', '10.0.0.1', 'openapi.alipay.com']) expect(isLoopbackHost(h)).toBe(false);
  });
});
