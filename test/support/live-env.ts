import { generateKeyPairSync, randomBytes } from 'node:crypto';

/**
 * A complete, valid live-mode environment for tests that must boot in live mode (SSRF rules, SMS gateway choice,
 * config refusals): generated provider keys and https hosts that are never contacted. Test-only; nothing in the
 * service imports it.
 */
export function liveTestEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const pem = () =>
    generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
  const alipayApp = pem();
  const alipayPlatform = pem();
  const wechatMerchant = pem();
  const wechatPlatform = pem();
  return {
    NODE_ENV: 'test',
    PAYMENT_MODE: 'live',
    DATABASE_URL: 'postgres://localhost:5432/unused',
    PUBLIC_BASE_URL: 'https://api.legwork.example',
    JWT_ACCESS_SECRET: 'live-test-access-secret-0123456789abcdefghij',
    JWT_REFRESH_SECRET: 'live-test-refresh-secret-0123456789abcdefghi',
    WEBHOOK_SECRET_KEY: 'live-test-webhook-secret-key-0123456789abcdef',
    ALIPAY_APP_ID: '2021000000000001',
    ALIPAY_APP_PRIVATE_KEY: alipayApp.privateKey,
    ALIPAY_PUBLIC_KEY: alipayPlatform.publicKey,
    WECHATPAY_MCH_ID: '1900000001',
    WECHATPAY_APP_ID: 'wx0000000000000001',
    WECHATPAY_MCH_SERIAL: randomBytes(20).toString('hex').toUpperCase(),
    WECHATPAY_MCH_PRIVATE_KEY: wechatMerchant.privateKey,
    WECHATPAY_APIV3_KEY: randomBytes(16).toString('hex'),
    WECHATPAY_PUBLIC_KEY: wechatPlatform.publicKey,
    WECHATPAY_PUBLIC_KEY_ID: `PUB_KEY_ID_${randomBytes(8).toString('hex')}`,
    VAPID_PRIVATE_KEY: 'Non7M5rL_KEJh3rp5KlDxcrjOQCCwW_5aUpa3_6GC3M',
    ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI5tLiveTestKeyId0001',
    ALIYUN_SMS_ACCESS_KEY_SECRET: randomBytes(15).toString('hex'),
    ALIYUN_SMS_SIGN_NAME: 'Legwork',
    ALIYUN_SMS_TEMPLATE_VERIFICATION: 'SMS_100000001',
    ALIYUN_SMS_TEMPLATE_OFFER: 'SMS_100000002',
    ALIYUN_SMS_TEMPLATE_MONEY: 'SMS_100000003',
    ...overrides,
  };
}
