import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reader } from './reader';
import { loadOrCreateSandboxCredentials } from './sandbox-credentials';

/**
 * Payment provider settings, parsed from the environment by loadConfig (config.ts). In sandbox mode the identities and
 * keys come from the provider sandbox's credentials file and the hosts default to the sandbox on loopback; in live
 * mode every secret must be configured and the hosts must be real, non-loopback https hosts.
 */
export const PAYMENT_PROVIDER_NAMES = ['alipay', 'wechat'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDER_NAMES)[number];

export interface AlipaySettings {
  /** OpenAPI v2 gateway, e.g. https://openapi.alipay.com/gateway.do */
  readonly gatewayUrl: string;
  readonly appId: string;
  /** App private key, normalised to PKCS#8 PEM. */
  readonly appPrivateKeyPem: string;
  /** Alipay platform public key (SPKI PEM): verifies responses and notifications. */
  readonly alipayPublicKeyPem: string;
  readonly notifyUrl: string;
}

export interface WechatPaySettings {
  /** APIv3 base URL, e.g. https://api.mch.weixin.qq.com/ */
  readonly baseUrl: string;
  readonly mchId: string;
  readonly appId: string;
  readonly merchantSerial: string;
  readonly merchantPrivateKeyPem: string;
  readonly apiV3Key: string;
  readonly platformPublicKeyId: string;
  readonly platformPublicKeyPem: string;
  readonly notifyUrl: string;
  readonly transferSceneId: string;
}

export interface ProviderSandboxSettings {
  readonly credentialsFile: string;
  readonly host: string;
  readonly alipayPort: number;
  readonly wechatPort: number;
  /** The test Web Push service beside them (src/sandbox/push). */
  readonly pushPort: number;
  /** Unpaid sandbox orders complete by themselves after this long; null disables. */
  readonly autoCompleteMs: number | null;
  /** Multiplies the providers' notification retry schedules (1 = real time). */
  readonly timeScale: number;
  /** Whether `npm start` spawns the sandbox process next to the API. */
  readonly spawn: boolean;
}

export interface PaymentSettings {
  readonly providers: readonly PaymentProviderName[];
  readonly notifyBaseUrl: string;
  /** Where the buyer's browser returns after a page/wap payment when the order names no return_url. */
  readonly defaultReturnUrl: string;
  readonly requestTimeoutMs: number;
  /** null when the provider is not enabled in PAYMENT_PROVIDERS. */
  readonly alipay: AlipaySettings | null;
  readonly wechat: WechatPaySettings | null;
  /** null in live mode. */
  readonly sandbox: ProviderSandboxSettings | null;
}

const PRODUCTION_HOST = /(^|\.)(alipay\.com|weixin\.qq\.com|tenpay\.com)$/i;

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    /^127\./.test(h) ||
    h === '::1' ||
    h === '0.0.0.0' ||
    h === '::'
  );
}

/** The ports of a sandbox run on its own (`npm run sandbox`), which a separately started API must be told. */
export const STANDALONE_SANDBOX_PORTS = { alipay: 8101, wechat: 8102, push: 8103 } as const;

/**
 * The sandbox settings. Unset ports: the sandbox that `npm start` spawns takes free ones (0) and tells the API which
 * (so a second `PORT=3001 npm start` beside a running one starts too); a sandbox on its own, or one an API with
 * SANDBOX_SPAWN=false expects, uses the fixed STANDALONE_SANDBOX_PORTS.
 */
export function loadSandboxSettings(r: Reader, dataDir: string, standalone = false): ProviderSandboxSettings {
  const autoComplete = r.int('SANDBOX_AUTO_COMPLETE_MS', 5000, 0, 24 * 3600 * 1000);
  const spawn = r.bool('SANDBOX_SPAWN', true);
  const fixed = standalone || !spawn;
  return {
    credentialsFile: r.str('SANDBOX_CREDENTIALS_FILE', join(dataDir, 'sandbox', 'credentials.json')),
    host: r.str('SANDBOX_HOST', '127.0.0.1'),
    alipayPort: r.int('SANDBOX_ALIPAY_PORT', fixed ? STANDALONE_SANDBOX_PORTS.alipay : 0, 0, 65535),
    wechatPort: r.int('SANDBOX_WECHAT_PORT', fixed ? STANDALONE_SANDBOX_PORTS.wechat : 0, 0, 65535),
    pushPort: r.int('SANDBOX_PUSH_PORT', fixed ? STANDALONE_SANDBOX_PORTS.push : 0, 0, 65535),
    autoCompleteMs: autoComplete === 0 ? null : autoComplete,
    timeScale: r.num('SANDBOX_TIME_SCALE', 1, 0, 1000),
    spawn,
  };
}

export function loadPaymentSettings(
  r: Reader,
  live: boolean,
  dataDir: string,
  publicBaseUrl: string,
): PaymentSettings {
  const providers = r.list('PAYMENT_PROVIDERS', ['alipay', 'wechat'], PAYMENT_PROVIDER_NAMES);
  const notifyBaseUrl = (r.url('PAYMENT_NOTIFY_BASE_URL', ['http:', 'https:']) ?? publicBaseUrl).replace(
    /\/$/,
    '',
  );
  const sandbox = live ? null : loadSandboxSettings(r, dataDir);
  const hosts = new HostRules(r, live);
  hosts.check('PAYMENT_NOTIFY_BASE_URL (default PUBLIC_BASE_URL)', notifyBaseUrl, {
    productionAllowed: true,
  });
  const defaultReturnUrl = r.url('PAYMENT_RETURN_URL', ['http:', 'https:']) ?? `${publicBaseUrl}/`;
  hosts.check('PAYMENT_RETURN_URL (default PUBLIC_BASE_URL/)', defaultReturnUrl, { productionAllowed: true });
  const base: Omit<PaymentSettings, 'alipay' | 'wechat'> = {
    providers,
    notifyBaseUrl,
    defaultReturnUrl,
    requestTimeoutMs: r.int('PAYMENT_PROVIDER_TIMEOUT_MS', 10000, 100, 120000),
    sandbox,
  };
  if (sandbox) return { ...base, ...sandboxProviders(r, sandbox, providers, notifyBaseUrl, hosts) };
  return {
    ...base,
    alipay: providers.includes('alipay') ? liveAlipay(r, notifyBaseUrl, hosts) : null,
    wechat: providers.includes('wechat') ? liveWechat(r, notifyBaseUrl, hosts) : null,
  };
}

/** Live mode: https, no loopback. Sandbox mode: never a production provider host. */
class HostRules {
  constructor(
    private readonly r: Reader,
    private readonly live: boolean,
  ) {}

  check(name: string, url: string, opts: { productionAllowed?: boolean } = {}): void {
    const u = new URL(url);
    if (this.live) {
      if (u.protocol !== 'https:')
        this.r.problems.push(`${name} must be an https URL when PAYMENT_MODE=live`);
      if (isLoopbackHost(u.hostname)) {
        this.r.problems.push(
          `${name} must not be a loopback host when PAYMENT_MODE=live (got ${u.hostname})`,
        );
      }
    } else if (!opts.productionAllowed && PRODUCTION_HOST.test(u.hostname)) {
      this.r.problems.push(
        `${name} must not be a production provider host in sandbox mode (got ${u.hostname})`,
      );
    }
  }
}

function sandboxProviders(
  r: Reader,
  sandbox: ProviderSandboxSettings,
  providers: readonly PaymentProviderName[],
  notifyBaseUrl: string,
  hosts: HostRules,
): Pick<PaymentSettings, 'alipay' | 'wechat'> {
  const creds = loadOrCreateSandboxCredentials(sandbox.credentialsFile);
  const gatewayUrl =
    r.url('ALIPAY_GATEWAY_URL', ['http:', 'https:']) ?? `http://127.0.0.1:${sandbox.alipayPort}/gateway.do`;
  const baseUrl =
    r.url('WECHATPAY_BASE_URL', ['http:', 'https:']) ?? `http://127.0.0.1:${sandbox.wechatPort}/`;
  hosts.check('ALIPAY_GATEWAY_URL', gatewayUrl);
  hosts.check('WECHATPAY_BASE_URL', baseUrl);
  return {
    alipay: providers.includes('alipay')
      ? {
          gatewayUrl,
          appId: creds.alipay.appId,
          appPrivateKeyPem: creds.alipay.appPrivateKey,
          alipayPublicKeyPem: creds.alipay.platformPublicKey,
          notifyUrl: `${notifyBaseUrl}/webhooks/alipay`,
        }
      : null,
    wechat: providers.includes('wechat')
      ? {
          baseUrl,
          mchId: creds.wechat.mchId,
          appId: creds.wechat.appId,
          merchantSerial: creds.wechat.merchantSerial,
          merchantPrivateKeyPem: creds.wechat.merchantPrivateKey,
          apiV3Key: creds.wechat.apiV3Key,
          platformPublicKeyId: creds.wechat.platformPublicKeyId,
          platformPublicKeyPem: creds.wechat.platformPublicKey,
          notifyUrl: `${notifyBaseUrl}/webhooks/wechat`,
          transferSceneId: r.str('WECHATPAY_TRANSFER_SCENE_ID', '1005'),
        }
      : null,
  };
}

function liveAlipay(r: Reader, notifyBaseUrl: string, hosts: HostRules): AlipaySettings {
  const gatewayUrl = r.url('ALIPAY_GATEWAY_URL', ['https:']) ?? 'https://openapi.alipay.com/gateway.do';
  hosts.check('ALIPAY_GATEWAY_URL', gatewayUrl);
  return {
    gatewayUrl,
    appId: required(r, 'ALIPAY_APP_ID'),
    appPrivateKeyPem: pemKey(r, 'ALIPAY_APP_PRIVATE_KEY', 'private'),
    alipayPublicKeyPem: pemKey(r, 'ALIPAY_PUBLIC_KEY', 'public'),
    notifyUrl: `${notifyBaseUrl}/webhooks/alipay`,
  };
}

function liveWechat(r: Reader, notifyBaseUrl: string, hosts: HostRules): WechatPaySettings {
  const baseUrl = r.url('WECHATPAY_BASE_URL', ['https:']) ?? 'https://api.mch.weixin.qq.com/';
  hosts.check('WECHATPAY_BASE_URL', baseUrl);
  const apiV3Key = required(r, 'WECHATPAY_APIV3_KEY');
  if (apiV3Key && Buffer.byteLength(apiV3Key) !== 32) r.problems.push('WECHATPAY_APIV3_KEY must be 32 bytes');
  const platformPublicKeyId = required(r, 'WECHATPAY_PUBLIC_KEY_ID');
  if (platformPublicKeyId && !platformPublicKeyId.startsWith('PUB_KEY_ID_')) {
    r.problems.push('WECHATPAY_PUBLIC_KEY_ID must start with PUB_KEY_ID_ (WeChat Pay public key mode)');
  }
  return {
    baseUrl,
    mchId: required(r, 'WECHATPAY_MCH_ID'),
    appId: required(r, 'WECHATPAY_APP_ID'),
    merchantSerial: required(r, 'WECHATPAY_MCH_SERIAL'),
    merchantPrivateKeyPem: pemKey(r, 'WECHATPAY_MCH_PRIVATE_KEY', 'private'),
    apiV3Key,
    platformPublicKeyId,
    platformPublicKeyPem: pemKey(r, 'WECHATPAY_PUBLIC_KEY', 'public'),
    notifyUrl: `${notifyBaseUrl}/webhooks/wechat`,
    transferSceneId: r.str('WECHATPAY_TRANSFER_SCENE_ID', '1005'),
  };
}

function required(r: Reader, name: string): string {
  const v = r.optional(name);
  if (v === null) r.problems.push(`${name} is required when PAYMENT_MODE=live`);
  return v ?? '';
}

/**
 * An RSA key given inline (`NAME`: PEM, with literal \n allowed, or bare base64 DER as the providers' consoles show
 * it) or as a file (`NAME_FILE`). Normalised to PKCS#8 (private) or SPKI (public) PEM so every consumer gets one form.
 */
function pemKey(r: Reader, name: string, kind: 'private' | 'public'): string {
  const file = r.optional(`${name}_FILE`);
  let raw = r.optional(name);
  if (raw === null && file !== null) {
    if (!existsSync(file)) {
      r.problems.push(`${name}_FILE points to a missing file (${file})`);
      return '';
    }
    raw = readFileSync(file, 'utf8');
  }
  if (raw === null) {
    r.problems.push(`${name} or ${name}_FILE is required when PAYMENT_MODE=live`);
    return '';
  }
  try {
    const key = parseRsaKey(raw.replace(/\\n/g, '\n').trim(), kind);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    return kind === 'private'
      ? (key.export({ type: 'pkcs8', format: 'pem' }) as string)
      : (key.export({ type: 'spki', format: 'pem' }) as string);
  } catch {
    r.problems.push(`${name} is not a valid RSA ${kind} key`);
    return '';
  }
}

function parseRsaKey(text: string, kind: 'private' | 'public'): KeyObject {
  if (text.startsWith('-----BEGIN'))
    return kind === 'private' ? createPrivateKey(text) : createPublicKey(text);
  const key = Buffer.from(text.replace(/\s+/g, ''), 'base64');
  const attempts =
    kind === 'private'
      ? [
          () => createPrivateKey({ key, format: 'der', type: 'pkcs8' }),
          () => createPrivateKey({ key, format: 'der', type: 'pkcs1' }),
        ]
      : [
          () => createPublicKey({ key, format: 'der', type: 'spki' }),
          () => createPublicKey({ key, format: 'der', type: 'pkcs1' }),
        ];
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // try the next encoding
    }
  }
  throw new Error('unparseable key');
}
