import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ProviderSandbox,
  type ProviderSandboxOptions,
  startProviderSandbox,
} from '../../src/sandbox/provider-sandbox';
import { signNotification } from '../../src/sandbox/alipay/alipay-crypto';
import { alipayTime, wechatTime } from '../../src/sandbox/formats';
import { encryptResource, signatureHeaders } from '../../src/sandbox/wechat/wechat-crypto';
import type { TestAgent } from './actors';
import { createTestApp, type TestApp } from './app';
import { freePort } from './process';

/**
 * The payment e2e rig: the provider sandbox as its own server on loopback ports, and the real app listening on a
 * real port that the sandbox delivers notifications to (PAYMENT_NOTIFY_BASE_URL). Retry schedules are scaled down
 * so redeliveries come within milliseconds; sandbox orders never pay themselves unless a test says so. Scheduled
 * jobs are off: tests call expireDue() and reconcile() themselves, with the test clock.
 */
export type ProviderName = 'alipay' | 'wechat';

export interface PaymentRig {
  readonly t: TestApp;
  readonly sandbox: ProviderSandbox;
  readonly baseUrl: string;
  api<T = Record<string, unknown>>(
    provider: ProviderName,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T>;
  apiRaw(provider: ProviderName, method: string, path: string, body?: unknown): Promise<globalThis.Response>;
  close(): Promise<void>;
}

/** `sandboxOptions` overrides the provider sandbox's test settings (for example `autoCompleteMs: 5000`). */
export async function startPaymentRig(
  env: Record<string, string> = {},
  sandboxOptions: Partial<ProviderSandboxOptions> = {},
): Promise<PaymentRig> {
  const dataDir = mkdtempSync(join(tmpdir(), 'legwork-payments-'));
  const sandbox = await startProviderSandbox({
    dataDir,
    alipayPort: 0,
    wechatPort: 0,
    timeScale: 0.0001,
    autoCompleteMs: null,
    refundDelayMs: 30,
    deliveryTimeoutMs: 5000,
    onError: () => undefined,
    ...sandboxOptions,
  });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    ...sandbox.serviceEnv,
    // The app is reachable here: links it writes (upload URLs, return URLs) point at this port, not 8000.
    PUBLIC_BASE_URL: baseUrl,
    PAYMENT_NOTIFY_BASE_URL: baseUrl,
    PAYMENT_PROVIDER_TIMEOUT_MS: '3000',
    JOBS_IN_PROCESS: 'false',
    ...env,
  });
  await t.app.listen(port, '127.0.0.1');
  const apiRaw = (provider: ProviderName, method: string, path: string, body?: unknown) =>
    fetch(`${provider === 'alipay' ? sandbox.alipayBaseUrl : sandbox.wechatBaseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    t,
    sandbox,
    baseUrl,
    apiRaw,
    async api<T>(provider: ProviderName, method: string, path: string, body?: unknown): Promise<T> {
      const res = await apiRaw(provider, method, path, body);
      const text = await res.text();
      if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text) as T;
    },
    async close() {
      await sandbox.stop();
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Journals posted for an order (deposit, refunds): the exactly-once evidence. */
export async function journalsOf(
  t: TestApp,
  orderId: string,
): Promise<{ kind: string; reference: string }[]> {
  return t.db.query(`SELECT kind, reference FROM ledger_journals WHERE order_id = $1 ORDER BY id`, [orderId]);
}

/** Events about an order (payment, refunds), oldest first. */
export async function orderEventsOf(
  t: TestApp,
  orderId: string,
): Promise<{ name: string; data: Record<string, unknown> }[]> {
  return t.db.query(`SELECT name, data FROM events WHERE data->>'order_id' = $1 ORDER BY created_at, name`, [
    orderId,
  ]);
}

/** The buyer opens an Alipay page/wap payment URL (the trade starts to exist) and lands on the cashier page. */
/** The QR-code payment type of each provider (Alipay's precreate, WeChat Pay's Native). */
const QR_TYPE: Record<ProviderName, string> = { alipay: 'qr', wechat: 'native' };

/** A QR-code top-up order of `cents` through `provider`, created by the agent through the API. */
export async function createQrOrder(
  rig: PaymentRig,
  agent: TestAgent,
  provider: ProviderName,
  cents: number,
): Promise<{ id: string; qr: string }> {
  const res = await rig.t.http
    .post('/v1/payment/create')
    .set('Authorization', agent.key)
    .send({ amount_cents: cents, payment_method: provider, payment_type: QR_TYPE[provider] });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { id: res.body.order_id as string, qr: res.body.qr_code_url as string };
}

export async function openAlipayUrl(paymentUrl: string, sandbox: ProviderSandbox): Promise<string> {
  const opened = await fetch(paymentUrl, { redirect: 'manual' });
  if (opened.status !== 303)
    throw new Error(`opening the payment URL: ${opened.status} ${await opened.text()}`);
  return new URL(opened.headers.get('location')!, sandbox.alipayBaseUrl).toString();
}

/** Presses a button on a cashier page (pay, decline, expire), optionally paying with a test card. */
export async function cashier(
  cashierUrl: string,
  action: 'pay' | 'decline' | 'expire',
  card?: string,
): Promise<void> {
  const res = await fetch(`${cashierUrl}/${action}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: card ? new URLSearchParams({ card_number: card }).toString() : '',
  });
  if (res.status !== 303) throw new Error(`cashier ${action}: ${res.status}`);
}

/** Headers of the reference payment surface: the API key plus its secret. */
export function referenceAuth(agent: TestAgent): Record<string, string> {
  return { Authorization: agent.key, 'X-API-Secret': agent.apiSecret };
}

/** A notification as the provider sends it: the exact body bytes and the headers that go with them. */
export interface GenuineNotification {
  body: string;
  headers: Record<string, string>;
}

/**
 * A genuine Alipay trade_status_sync about a paid order, signed with the sandbox's platform key exactly as Alipay
 * signs. `notifyTime` is when Alipay says it sent it (now unless a test dates it).
 */
export function alipayPaidNotification(
  rig: PaymentRig,
  o: { orderId: string; tradeNo: string; amountYuan: string; notifyTime?: Date },
): GenuineNotification {
  const creds = rig.sandbox.credentials.alipay;
  const sent = o.notifyTime ?? new Date();
  const params = signNotification(
    {
      notify_type: 'trade_status_sync',
      notify_id: `n${Date.now()}${Math.random().toString(36).slice(2, 8)}`,
      notify_time: alipayTime(sent),
      app_id: creds.appId,
      charset: 'utf-8',
      version: '1.0',
      trade_no: o.tradeNo,
      out_trade_no: o.orderId,
      trade_status: 'TRADE_SUCCESS',
      total_amount: o.amountYuan,
      gmt_payment: alipayTime(sent),
    },
    creds.platformPrivateKey,
  );
  return {
    body: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
  };
}

/**
 * A genuine WeChat Pay TRANSACTION.SUCCESS: the resource encrypted with the APIv3 key, the body signed with the
 * platform key (the signature's timestamp is now). `createTime` is the event's own create_time (now by default).
 */
export function wechatPaidNotification(
  rig: PaymentRig,
  o: { orderId: string; tradeNo: string; cents: number; createTime?: Date },
): GenuineNotification {
  const creds = rig.sandbox.credentials.wechat;
  const created = o.createTime ?? new Date();
  const resource = JSON.stringify({
    mchid: creds.mchId,
    appid: creds.appId,
    out_trade_no: o.orderId,
    transaction_id: o.tradeNo,
    trade_state: 'SUCCESS',
    amount: { total: o.cents, currency: 'CNY' },
    success_time: created.toISOString(),
  });
  const body = JSON.stringify({
    id: `evt-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    create_time: wechatTime(created),
    event_type: 'TRANSACTION.SUCCESS',
    resource_type: 'encrypt-resource',
    resource: encryptResource(resource, creds.apiV3Key, 'transaction'),
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      ...signatureHeaders(body, creds.platformPrivateKey, creds.platformPublicKeyId),
    },
  };
}

/** The paid order's provider transaction id, as the sandbox reports it. */
export async function sandboxTradeNo(
  rig: PaymentRig,
  provider: ProviderName,
  orderId: string,
): Promise<string> {
  return (await rig.api<{ trade_no: string }>(provider, 'GET', `/__sandbox/orders/${orderId}`)).trade_no;
}
