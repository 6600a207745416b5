import { generateKeyPairSync, randomBytes, randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createOnce } from './write-once';

/**
 * The identities and keys shared by the provider sandbox and the service in sandbox mode. The sandbox plays both
 * providers, so it holds their platform private keys; the service reads only its own side (app/merchant private key,
 * platform public key, ids). Generated once per data directory and kept, so a restart keeps working.
 */
export interface SandboxCredentials {
  readonly version: 1;
  readonly createdAt: string;
  readonly alipay: {
    readonly appId: string;
    /** The merchant's Alipay user id (PID), reported as seller_id. */
    readonly sellerId: string;
    readonly appPrivateKey: string;
    readonly appPublicKey: string;
    readonly platformPrivateKey: string;
    readonly platformPublicKey: string;
  };
  readonly wechat: {
    readonly mchId: string;
    readonly appId: string;
    readonly merchantPrivateKey: string;
    readonly merchantPublicKey: string;
    /** Serial number of the merchant API certificate (40 hex digits). */
    readonly merchantSerial: string;
    /** APIv3 key: 32 ASCII characters, used as the AES-256-GCM key. */
    readonly apiV3Key: string;
    readonly platformPrivateKey: string;
    readonly platformPublicKey: string;
    /** WeChat Pay public key id (public key mode), sent as Wechatpay-Serial. */
    readonly platformPublicKeyId: string;
  };
}

function rsaPair(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

function digits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(randomInt(10));
  return out;
}

function alphanumeric(count: number): string {
  const chars = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let out = '';
  for (let i = 0; i < count; i++) out += chars[randomInt(chars.length)];
  return out;
}

export function generateSandboxCredentials(now: Date = new Date()): SandboxCredentials {
  const app = rsaPair();
  const alipayPlatform = rsaPair();
  const merchant = rsaPair();
  const wechatPlatform = rsaPair();
  const mchId = `1${digits(9)}`;
  return {
    version: 1,
    createdAt: now.toISOString(),
    alipay: {
      appId: `2021${digits(12)}`,
      sellerId: `2088${digits(12)}`,
      appPrivateKey: app.privateKey,
      appPublicKey: app.publicKey,
      platformPrivateKey: alipayPlatform.privateKey,
      platformPublicKey: alipayPlatform.publicKey,
    },
    wechat: {
      mchId,
      appId: `wx${randomBytes(8).toString('hex')}`,
      merchantPrivateKey: merchant.privateKey,
      merchantPublicKey: merchant.publicKey,
      merchantSerial: randomBytes(20).toString('hex').toUpperCase(),
      apiV3Key: alphanumeric(32),
      platformPrivateKey: wechatPlatform.privateKey,
      platformPublicKey: wechatPlatform.publicKey,
      platformPublicKeyId: `PUB_KEY_ID_01${mchId}${digits(18)}`,
    },
  };
}

function parse(file: string): SandboxCredentials {
  const data = JSON.parse(readFileSync(file, 'utf8')) as SandboxCredentials;
  if (data?.version !== 1 || !data.alipay?.appPrivateKey || !data.wechat?.apiV3Key) {
    throw new Error(`${file} is not a Legwork sandbox credentials file (delete it to regenerate)`);
  }
  return data;
}

/**
 * Reads the credentials file, creating it first when missing. Creation is atomic (write a private temporary file,
 * then hard-link it into place): when several processes start at once, exactly one file wins and everyone reads it.
 */
export function loadOrCreateSandboxCredentials(file: string): SandboxCredentials {
  if (!existsSync(file)) createOnce(file, JSON.stringify(generateSandboxCredentials(), null, 2));
  return parse(file);
}
