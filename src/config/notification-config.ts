import { createECDH } from 'node:crypto';
import type { Reader } from './reader';
import { isLoopbackHost } from './payment-config';

/**
 * How the service reaches workers outside the app (product-decisions §16): SMS (verification codes, offer links and
 * news of their money)
 * and Web Push. Parsed from the environment by loadConfig (config.ts).
 */
export const SMS_PROVIDERS = ['sandbox', 'aliyun', 'none'] as const;
export type SmsProviderName = (typeof SMS_PROVIDERS)[number];

/** The SMS a gateway sends: each is a template registered with the provider. */
export const SMS_TEMPLATES = ['verification_code', 'offer', 'money'] as const;
export type SmsTemplate = (typeof SMS_TEMPLATES)[number];

/** The separate hourly budgets of product-decisions §16, each global (every instance together). */
export const SMS_BUDGETS = ['register', 'login', 'offer'] as const;
export type SmsBudget = (typeof SMS_BUDGETS)[number];

export interface AliyunSmsSettings {
  /** Origin of the SendSms API, e.g. https://dysmsapi.aliyuncs.com */
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly accessKeySecret: string;
  /** The approved signature (签名) every message carries. */
  readonly signName: string;
  /** Template codes (SMS_123456789) approved for each message kind. */
  readonly templates: Readonly<Record<SmsTemplate, string>>;
  readonly timeoutMs: number;
}

export interface SmsSettings {
  /**
   * `sandbox`: nothing leaves the machine, every message goes to the sandbox outbox (GET /v1/sandbox/sms);
   * `aliyun`: Aliyun SMS (live mode); `none`: live mode without SMS, every send answers 503.
   */
  readonly provider: SmsProviderName;
  readonly aliyun: AliyunSmsSettings | null;
  /** Messages per hour across every instance, per kind; past one, that kind is refused until the hour ends. */
  readonly budgetsPerHour: Readonly<Record<SmsBudget, number>>;
}

export interface WebPushSettings {
  /** VAPID application server key pair (RFC 8292), base64url: the 65-byte uncompressed P-256 point, 32-byte scalar. */
  readonly publicKey: string;
  readonly privateKey: string;
  /** The contact push services may use (`mailto:` or `https:`), sent in every VAPID token. */
  readonly subject: string;
}

export function loadSmsSettings(r: Reader, live: boolean): SmsSettings {
  const budgetsPerHour = {
    register: r.int('SMS_BUDGET_REGISTER_PER_HOUR', 300, 1, 10_000_000),
    login: r.int('SMS_BUDGET_LOGIN_PER_HOUR', 300, 1, 10_000_000),
    offer: r.int('SMS_BUDGET_OFFER_PER_HOUR', 1000, 1, 10_000_000),
  };
  const provider = r.oneOf('SMS_PROVIDER', live ? 'aliyun' : 'sandbox', SMS_PROVIDERS);
  if (!live) {
    // Sandbox mode never sends a real SMS, as it never reaches a real payment provider.
    if (provider !== 'sandbox') r.problems.push('SMS_PROVIDER must be sandbox when PAYMENT_MODE=sandbox');
    return { provider: 'sandbox', aliyun: null, budgetsPerHour };
  }
  if (provider === 'sandbox') r.problems.push('SMS_PROVIDER=sandbox is refused when PAYMENT_MODE=live');
  return { provider, aliyun: provider === 'aliyun' ? loadAliyun(r) : null, budgetsPerHour };
}

function loadAliyun(r: Reader): AliyunSmsSettings {
  const endpoint = r.url('ALIYUN_SMS_ENDPOINT', ['https:']) ?? 'https://dysmsapi.aliyuncs.com';
  const host = new URL(endpoint).hostname;
  if (isLoopbackHost(host)) {
    r.problems.push(`ALIYUN_SMS_ENDPOINT must not be a loopback host when PAYMENT_MODE=live (got ${host})`);
  }
  const template = (name: string): string => {
    const code = required(r, name);
    if (code && !/^SMS_\d+$/.test(code))
      r.problems.push(`${name} must be an Aliyun template code (SMS_ and digits)`);
    return code;
  };
  return {
    endpoint: endpoint.replace(/\/$/, ''),
    accessKeyId: required(r, 'ALIYUN_SMS_ACCESS_KEY_ID'),
    accessKeySecret: required(r, 'ALIYUN_SMS_ACCESS_KEY_SECRET'),
    signName: required(r, 'ALIYUN_SMS_SIGN_NAME'),
    templates: {
      verification_code: template('ALIYUN_SMS_TEMPLATE_VERIFICATION'),
      offer: template('ALIYUN_SMS_TEMPLATE_OFFER'),
      money: template('ALIYUN_SMS_TEMPLATE_MONEY'),
    },
    timeoutMs: r.int('ALIYUN_SMS_TIMEOUT_MS', 5000, 500, 60_000),
  };
}

function required(r: Reader, name: string): string {
  const v = r.optional(name);
  if (v === null) r.problems.push(`${name} is required when SMS_PROVIDER=aliyun (or set SMS_PROVIDER=none)`);
  return v ?? '';
}

/**
 * The VAPID keys. The private key is a secret like the JWT secrets (generated and kept under DATA_DIR in sandbox
 * mode, required in live mode: loadConfig hands it over); the public key follows from it, and when VAPID_PUBLIC_KEY
 * is set it must be that key, so a pasted pair that does not belong together stops the boot instead of every push.
 */
export function loadWebPushSettings(
  r: Reader,
  live: boolean,
  privateKey: string,
  publicBaseUrl: string,
): WebPushSettings {
  const publicKey = vapidPublicKeyOf(privateKey);
  if (privateKey && publicKey === null) {
    r.problems.push(
      'VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes, base64url (web-push generate-vapid-keys)',
    );
  }
  const given = r.optional('VAPID_PUBLIC_KEY');
  if (given !== null && publicKey !== null && given !== publicKey) {
    r.problems.push('VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY');
  }
  return { publicKey: publicKey ?? '', privateKey, subject: vapidSubject(r, live, publicBaseUrl) };
}

/** Unset: the service's own https address, else (sandbox on http) a mailto: that names no one. */
function vapidSubject(r: Reader, live: boolean, publicBaseUrl: string): string {
  const subject = r.optional('VAPID_SUBJECT');
  if (subject === null) {
    if (publicBaseUrl.startsWith('https:')) return publicBaseUrl;
    if (live)
      r.problems.push('VAPID_SUBJECT is required when PAYMENT_MODE=live and PUBLIC_BASE_URL is not https');
    return 'mailto:push@legwork.invalid';
  }
  if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s]+)$/.test(subject)) {
    r.problems.push(`VAPID_SUBJECT must be a mailto: address or an https: URL (got '${subject}')`);
  }
  return subject;
}

/** The uncompressed public point of a base64url P-256 private key, or null when it is not one. */
export function vapidPublicKeyOf(privateKey: string): string | null {
  const bytes = Buffer.from(privateKey, 'base64url');
  if (bytes.length !== 32 || bytes.toString('base64url') !== privateKey) return null;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(bytes);
    return ecdh.getPublicKey().toString('base64url');
  } catch {
    return null;
  }
}

/** A new VAPID private key (what sandbox mode keeps in DATA_DIR/secrets.json). */
export function generateVapidPrivateKey(): string {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  // getPrivateKey drops leading zero bytes; the key is always written as 32.
  const raw = ecdh.getPrivateKey();
  return Buffer.concat([Buffer.alloc(32 - raw.length), raw]).toString('base64url');
}
