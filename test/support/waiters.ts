import type { TestApp } from './app';

/**
 * Polls `check` every 20 ms until it gives a value other than undefined, null or false, and returns that value;
 * fails naming `what` after `timeoutMs`. The timeout is a give-up bound for things that happen asynchronously
 * (a webhook, a socket message, a provider notification), never a speed assertion: it is generous because the
 * test machine may be loaded.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 8000,
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false)
      return value as Exclude<T, undefined | null | false>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A payment order's status, read straight from SQL. */
export async function orderStatus(t: TestApp, orderId: string): Promise<string> {
  const rows: { status: string }[] = await t.db.query(`SELECT status FROM payment_orders WHERE id = $1`, [
    orderId,
  ]);
  return rows[0]?.status;
}

export function waitForOrder(t: TestApp, orderId: string, status: string): Promise<string> {
  return waitFor(
    async () => ((await orderStatus(t, orderId)) === status ? status : undefined),
    `order ${orderId} to be ${status}`,
  );
}

/** One notification the provider sandbox sent (or tried to), as its test API lists them. */
export interface SandboxNotificationRecord {
  id: string;
  event: string;
  keys: string[];
  state: string;
  attempts: number;
  faults: string[];
  deliveries: { attempt: number; copy: number; status: number | null; body: string; acknowledged: boolean }[];
}

/** Anything that can call the provider sandbox's test API: the payment rig and the contract rig both can. */
export interface SandboxApi {
  api<T = Record<string, unknown>>(
    provider: 'alipay' | 'wechat',
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T>;
}

/** The sandbox's notification log about `key` (an order, refund or transfer id). */
export async function notifications(
  rig: SandboxApi,
  provider: 'alipay' | 'wechat',
  key: string,
): Promise<SandboxNotificationRecord[]> {
  const { data } = await rig.api<{ data: SandboxNotificationRecord[] }>(
    provider,
    'GET',
    `/__sandbox/notifications?key=${encodeURIComponent(key)}`,
  );
  return data;
}

/** Waits until the sandbox has a notification about `key` matching `predicate`. */
export function waitForNotification(
  rig: SandboxApi,
  provider: 'alipay' | 'wechat',
  key: string,
  predicate: (r: SandboxNotificationRecord) => boolean,
): Promise<SandboxNotificationRecord> {
  return waitFor(
    async () => (await notifications(rig, provider, key)).find(predicate),
    `a ${provider} notification about ${key}`,
  );
}
