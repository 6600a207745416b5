import { join } from 'node:path';
import { loadOrCreateSandboxCredentials, type SandboxCredentials } from '../config/sandbox-credentials';
import { alipayDefinition } from './alipay/alipay-sandbox';
import { type RunningProvider, startProviderServer } from './provider-server';
import { startTestPushService, type TestPushService } from './push/test-push-service';
import { wechatDefinition } from './wechat/wechat-sandbox';

/**
 * The provider sandbox: Alipay's OpenAPI v2 gateway and WeChat Pay's APIv3, each on its own port so paths match
 * production, implemented with node:crypto (never the SDKs the service uses, so the contract tests compare two
 * independent implementations), and a test Web Push service on a third port. Never loaded in live mode.
 */
export interface ProviderSandboxOptions {
  /** Credentials live in `<dataDir>/sandbox/credentials.json` unless `credentialsFile` says otherwise. */
  readonly dataDir: string;
  readonly credentialsFile?: string;
  readonly host?: string;
  /** 0 picks a free port (tests). Defaults 8101 and 8102. */
  readonly alipayPort?: number;
  readonly wechatPort?: number;
  /** The test push service's port; default a free one (npm run sandbox alone passes 8103). */
  readonly pushPort?: number;
  /** Multiplies the notification retry schedules; e.g. 0.0001 turns Alipay's 4 minutes into 24 ms. Default 1. */
  readonly timeScale?: number;
  /** Orders pay themselves after this long unless declined; null disables. Default 5000. */
  readonly autoCompleteMs?: number | null;
  /** WeChat refunds stay PROCESSING this long before SUCCESS. Default 1000. */
  readonly refundDelayMs?: number;
  /** How long the sandbox waits for a notification receiver before counting the attempt failed. Default 5000. */
  readonly deliveryTimeoutMs?: number;
  onError?(err: unknown): void;
}

export interface ProviderSandbox {
  readonly alipayBaseUrl: string;
  readonly wechatBaseUrl: string;
  /** The test Web Push service: subscriptions are created under /__sandbox/subscriptions (src/sandbox/push). */
  readonly pushBaseUrl: string;
  readonly credentials: SandboxCredentials;
  readonly credentialsFile: string;
  /** Environment for the service to talk to this sandbox (for example createTestApp(sandbox.serviceEnv)). */
  readonly serviceEnv: Record<string, string>;
  stop(): Promise<void>;
}

export async function startProviderSandbox(options: ProviderSandboxOptions): Promise<ProviderSandbox> {
  const credentialsFile = options.credentialsFile ?? join(options.dataDir, 'sandbox', 'credentials.json');
  const credentials = loadOrCreateSandboxCredentials(credentialsFile);
  const common = {
    host: options.host ?? '127.0.0.1',
    autoCompleteMs: options.autoCompleteMs === undefined ? 5000 : options.autoCompleteMs,
    timeScale: options.timeScale ?? 1,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? 5000,
    onError: options.onError ?? ((err: unknown) => console.error('provider sandbox:', err)),
  };
  const started: RunningProvider[] = [];
  let push: TestPushService | null = null;
  try {
    started.push(
      await startProviderServer(alipayDefinition(credentials), {
        ...common,
        port: options.alipayPort ?? 8101,
      }),
    );
    started.push(
      await startProviderServer(wechatDefinition(credentials, options.refundDelayMs ?? 1000), {
        ...common,
        port: options.wechatPort ?? 8102,
      }),
    );
    push = await startTestPushService({ host: common.host, port: options.pushPort ?? 0 });
  } catch (err) {
    await Promise.all(started.map((s) => s.stop()));
    throw err;
  }
  const pushService = push;
  const [alipay, wechat] = started;
  return {
    alipayBaseUrl: alipay.baseUrl,
    wechatBaseUrl: wechat.baseUrl,
    pushBaseUrl: pushService.baseUrl,
    credentials,
    credentialsFile,
    serviceEnv: {
      PAYMENT_MODE: 'sandbox',
      SANDBOX_CREDENTIALS_FILE: credentialsFile,
      ALIPAY_GATEWAY_URL: `${alipay.baseUrl}/gateway.do`,
      WECHATPAY_BASE_URL: `${wechat.baseUrl}/`,
    },
    stop: async () => {
      await Promise.all([...started.map((s) => s.stop()), pushService.stop()]);
    },
  };
}
