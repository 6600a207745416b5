import http from 'node:http';
import { createAgent, type TestAgent } from '../support/actors';
import { agentBalance } from '../support/balances';
import {
  alipayPaidNotification,
  cashier,
  type GenuineNotification,
  journalsOf,
  orderEventsOf,
  type PaymentRig,
  type ProviderName,
  sandboxTradeNo,
  startPaymentRig,
  wechatPaidNotification,
  createQrOrder,
} from '../support/payment-rig';
import { orderStatus, waitForNotification } from '../support/waiters';

/**
 * A provider that sends one genuine notification many times at once (a retry storm, or someone replaying a
 * captured message). Every copy that loses the race to complete the order must settle on the connection it holds:
 * a copy that asks the pool for a second connection while holding its first deadlocks the pool once twenty do it
 * together, and every other request (and /health) waits for the pool's 10 s timeout. The money is credited once
 * and the API keeps answering. The latency of other requests during the storm is printed, never asserted.
 */
jest.setTimeout(120_000);

describe('a storm of duplicate provider notifications', () => {
  let rig: PaymentRig;
  beforeAll(async () => {
    rig = await startPaymentRig();
  });
  afterAll(() => rig.close());

  /**
   * An order paid at the sandbox whose own notifications are all forged (refused), so it stays pending here until
   * a test delivers the genuine message by hand.
   */
  async function paidAtProvider(
    agent: TestAgent,
    provider: ProviderName,
    cents: number,
  ): Promise<{ orderId: string; notification: GenuineNotification }> {
    const { id: orderId, qr } = await createQrOrder(rig, agent, provider, cents);
    await rig.api(provider, 'POST', '/__sandbox/faults', {
      target: 'notification',
      kind: 'tampered_signature',
      match: orderId,
      all_attempts: true,
    });
    await cashier(qr, 'pay');
    await waitForNotification(rig, provider, orderId, (r) => r.deliveries.length >= 1);
    const tradeNo = await sandboxTradeNo(rig, provider, orderId);
    const notification =
      provider === 'alipay'
        ? alipayPaidNotification(rig, { orderId, tradeNo, amountYuan: (cents / 100).toFixed(2) })
        : wechatPaidNotification(rig, { orderId, tradeNo, cents });
    return { orderId, notification };
  }

  /**
   * Connections opened before the storm and kept alive, so the copies arrive together rather than one TCP handshake
   * after another (as from a provider's pool of connections).
   */
  const agentPool = new http.Agent({ keepAlive: true, maxSockets: 100 });
  afterAll(() => agentPool.destroy());

  function post(
    path: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const url = new URL(path, rig.baseUrl);
      const req = http.request(url, { method: 'POST', headers, agent: agentPool }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Delivers one copy as the provider would; true when the answer is the provider's success acknowledgement. */
  async function deliver(provider: ProviderName, n: GenuineNotification): Promise<boolean> {
    const { status, text } = await post(`/webhooks/${provider}`, n.headers, n.body);
    if (provider === 'alipay') return status === 200 && text === 'success';
    return status === 200 && (JSON.parse(text) as { code: string }).code === 'SUCCESS';
  }

  /** Other traffic during the storm: four clients asking /health and the agent profile in turn, until stopped. */
  function otherTraffic(agent: TestAgent): {
    stop(): Promise<{ ms: number; status: number; path: string }[]>;
  } {
    const samples: { ms: number; status: number; path: string }[] = [];
    let running = true;
    const client = async (i: number) => {
      for (let n = i; running; n++) {
        const path = n % 2 === 0 ? '/health' : '/v1/agent/profile';
        const started = performance.now();
        const res = await fetch(`${rig.baseUrl}${path}`, { headers: { Authorization: agent.key } });
        await res.arrayBuffer();
        samples.push({ ms: performance.now() - started, status: res.status, path });
      }
    };
    const clients = [0, 1, 2, 3].map(client);
    return {
      async stop() {
        running = false;
        await Promise.all(clients);
        return samples;
      },
    };
  }

  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  };

  it('100 concurrent copies (Alipay, WeChat, replays of a completed order) credit once; /health stays 200', async () => {
    const agent = await createAgent(rig.t);
    const alipay = await paidAtProvider(agent, 'alipay', 2300);
    const wechat = await paidAtProvider(agent, 'wechat', 2400);
    const done = await paidAtProvider(agent, 'alipay', 2500);
    expect(await deliver('alipay', done.notification)).toBe(true);
    expect(await orderStatus(rig.t, done.orderId)).toBe('completed');

    const copies: [ProviderName, GenuineNotification][] = [
      ...Array.from(
        { length: 40 },
        () => ['alipay', alipay.notification] as [ProviderName, GenuineNotification],
      ),
      ...Array.from(
        { length: 40 },
        () => ['wechat', wechat.notification] as [ProviderName, GenuineNotification],
      ),
      ...Array.from(
        { length: 20 },
        () => ['alipay', done.notification] as [ProviderName, GenuineNotification],
      ),
    ];
    // Open the storm's connections first: 100 at once, kept alive.
    await Promise.all(Array.from({ length: 100 }, () => post('/livez', {}, '')));
    const traffic = otherTraffic(agent);
    await new Promise((r) => setTimeout(r, 50));
    const acknowledged = await Promise.all(copies.map(([provider, n]) => deliver(provider, n)));
    const samples = await traffic.stop();

    const ms = samples.map((s) => s.ms);
    console.log(
      `notification storm: 100 copies; ${samples.length} other requests during it: ` +
        `p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms, ` +
        `max ${Math.max(...ms).toFixed(1)} ms (target p99 under 200 ms)`,
    );
    expect(samples.filter((s) => s.status !== 200)).toEqual([]);
    expect(acknowledged.filter((ok) => !ok)).toHaveLength(0);

    for (const o of [alipay, wechat, done]) {
      expect(await orderStatus(rig.t, o.orderId)).toBe('completed');
      expect(await journalsOf(rig.t, o.orderId)).toHaveLength(1);
      const completed = (await orderEventsOf(rig.t, o.orderId)).filter((e) => e.name === 'payment.completed');
      expect(completed).toHaveLength(1);
    }
    expect(await agentBalance(rig.t, agent.id)).toBe(2300 + 2400 + 2500);
    const health = await fetch(`${rig.baseUrl}/health`);
    expect(health.status).toBe(200);
  });
});
