import { createDecipheriv } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppConfig, loadConfig } from '../../src/config/config';
import { AlipayProvider } from '../../src/payment/providers/alipay.provider';
import type { NotificationResult, ProviderNotification } from '../../src/payment/providers/provider.types';
import { WechatPayProvider } from '../../src/payment/providers/wechat.provider';
import {
  type ProviderSandbox,
  type ProviderSandboxOptions,
  startProviderSandbox,
} from '../../src/sandbox/provider-sandbox';
import {
  type NotificationReceiver,
  type ReceiverAnswer,
  startNotificationReceiver,
} from './notification-receiver';

/**
 * Contract-test rig: a provider sandbox on random loopback ports, the service's config loaded from the environment
 * it publishes, the service's SDK-based providers, and a notification receiver that verifies every delivery with
 * those providers and answers with their acknowledgement (unless a test forces an answer).
 */
export interface ContractRig {
  readonly sandbox: ProviderSandbox;
  readonly config: AppConfig;
  readonly alipay: AlipayProvider;
  readonly wechat: WechatPayProvider;
  readonly receiver: NotificationReceiver<NotificationResult>;
  /** Registers the amount the "service" expects for an order, refund or transfer id. */
  expect(id: string, amountCents: number): void;
  /** The next answers to deliveries about `reference`, given without verifying (e.g. failures to test redelivery). */
  forceAnswers(reference: string, ...answers: ReceiverAnswer<NotificationResult>[]): void;
  /** Calls the sandbox test API of a provider; rejects on non-2xx unless `allowError`. */
  api<T = Record<string, unknown>>(
    provider: 'alipay' | 'wechat',
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T>;
  apiRaw(provider: 'alipay' | 'wechat', method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

function referenceOf(n: ProviderNotification): string {
  if (n.kind === 'payment') return n.orderId;
  if (n.kind === 'refund') return n.refundId;
  return n.transferId;
}

export async function startContractRig(options: Partial<ProviderSandboxOptions> = {}): Promise<ContractRig> {
  const dataDir = mkdtempSync(join(tmpdir(), 'legwork-contract-'));
  const sandbox = await startProviderSandbox({
    dataDir,
    alipayPort: 0,
    wechatPort: 0,
    timeScale: 0.0001,
    autoCompleteMs: null,
    refundDelayMs: 30,
    deliveryTimeoutMs: 2000,
    ...options,
  });
  const expected = new Map<string, number>();
  const forced = new Map<string, ReceiverAnswer<NotificationResult>[]>();
  let providers: { alipay: AlipayProvider; wechat: WechatPayProvider } | null = null;

  const receiver = await startNotificationReceiver<NotificationResult>(async (request) => {
    const wechat = request.path.includes('/wechat');
    const tag = wechat
      ? wechatReference(request.rawBody, sandbox.credentials.wechat.apiV3Key)
      : alipayReference(request.rawBody);
    const next = tag === undefined ? undefined : forced.get(tag)?.shift();
    if (next) return { ...next, tag };
    const provider = wechat ? providers!.wechat : providers!.alipay;
    const result = await provider.verifyNotification(
      { rawBody: request.rawBody, headers: request.headers },
      (n) => expected.get(referenceOf(n)) ?? null,
    );
    const ack = provider.acknowledge(result);
    return { status: ack.status, contentType: ack.contentType, body: ack.body, outcome: result, tag };
  });

  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PAYMENT_NOTIFY_BASE_URL: receiver.url,
    PAYMENT_PROVIDER_TIMEOUT_MS: '3000',
    ...sandbox.serviceEnv,
  });
  providers = {
    alipay: new AlipayProvider(config.payments.alipay!, config.payments.requestTimeoutMs),
    wechat: new WechatPayProvider(config.payments.wechat!, config.payments.requestTimeoutMs),
  };

  const apiRaw = (provider: 'alipay' | 'wechat', method: string, path: string, body?: unknown) =>
    fetch(`${provider === 'alipay' ? sandbox.alipayBaseUrl : sandbox.wechatBaseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  return {
    sandbox,
    config,
    ...providers,
    receiver,
    expect: (id, cents) => expected.set(id, cents),
    forceAnswers: (reference, ...answers) =>
      forced.set(reference, [...(forced.get(reference) ?? []), ...answers]),
    apiRaw,
    async api<T>(provider: 'alipay' | 'wechat', method: string, path: string, body?: unknown): Promise<T> {
      const res = await apiRaw(provider, method, path, body);
      const text = await res.text();
      if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text) as T;
    },
    async close() {
      await sandbox.stop();
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The out_trade_no an Alipay notification is about, read without verifying it (to sort deliveries in tests). */
function alipayReference(raw: Buffer): string | undefined {
  return new URLSearchParams(raw.toString('utf8')).get('out_trade_no') ?? undefined;
}

/**
 * The merchant id a WeChat notification is about (out_refund_no, out_bill_no or out_trade_no), read by decrypting
 * the resource with plain node:crypto and no verification, so faulty deliveries can be attributed too.
 */
function wechatReference(raw: Buffer, apiV3Key: string): string | undefined {
  try {
    const { resource } = JSON.parse(raw.toString('utf8')) as { resource: Record<string, string> };
    const data = Buffer.from(resource.ciphertext, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(resource.nonce));
    decipher.setAAD(Buffer.from(resource.associated_data ?? ''));
    decipher.setAuthTag(data.subarray(data.length - 16));
    const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
    const r = JSON.parse(plain.toString('utf8')) as Record<string, string | undefined>;
    return r.out_refund_no ?? r.out_bill_no ?? r.out_trade_no;
  } catch {
    return undefined;
  }
}

/** Verification outcomes of the deliveries about `reference`, in arrival order. */
export function outcomesFor(rig: ContractRig, reference: string): NotificationResult[] {
  return rig.receiver.received.filter((r) => r.tag === reference && r.outcome).map((r) => r.outcome!);
}

let counter = 0;
/** A fresh merchant id accepted by both providers (letters and digits, at most 32). */
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 8)}`.slice(
    0,
    32,
  );
}
