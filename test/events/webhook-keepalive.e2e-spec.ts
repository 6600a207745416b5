import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HOST_RESOLVER, HostResolver, ResolvedAddress } from '../../src/events/url-safety/url-safety';
import { createAgent, TestAgent } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { insertTask, pump, registerWebhook, writeTaskEvent } from './events-helpers';

/** DNS for the test: one name whose answer the test changes between deliveries. */
let answer: string[] = [];
const resolver: HostResolver = async () =>
  answer.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));

/** A receiver on one loopback address, counting TCP connections and the event ids it got. */
async function receiverOn(host: string, port = 0) {
  const events: string[] = [];
  const sockets = new Set<unknown>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      events.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event_id: string }).event_id);
      res.writeHead(200).end('ok');
    });
  });
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((ok) => server.listen(port, host, ok));
  return {
    port: (server.address() as AddressInfo).port,
    events,
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * Deliveries reuse connections (keep-alive), but only to the addresses checked for that delivery: DNS is resolved
 * and checked before every delivery, and a kept-alive connection to an address the name no longer resolves to is
 * not used for it.
 */
describe('webhook keep-alive with the checked address pinned', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp(
      { JOBS_IN_PROCESS: 'false' },
      { overrides: [{ provide: HOST_RESOLVER, useValue: resolver }] },
    );
  });
  afterAll(() => t.close());
  // Each test has its own agent, so an endpoint of one test gets no delivery of the other's.
  beforeEach(async () => {
    agent = await createAgent(t);
  });

  async function deliverOne(): Promise<string> {
    const taskId = await insertTask(t, agent.id);
    const eventId = await writeTaskEvent(t, 'task.assigned', agent.id, taskId, {});
    await pump(t);
    return eventId;
  }

  it('reuses the connection while the name resolves the same, and connects to the new checked address when DNS changes', async () => {
    const first = await receiverOn('127.0.0.1');
    const second = await receiverOn('127.0.0.2', first.port);
    try {
      answer = ['127.0.0.1'];
      await registerWebhook(t, agent, `http://hooks.keepalive.test:${first.port}/hooks`);

      const a = await deliverOne();
      const b = await deliverOne();
      expect(first.events).toEqual([a, b]);
      // Two deliveries, one TCP connection: the second went out on the kept-alive socket.
      expect(first.connections()).toBe(1);

      // The name now points elsewhere: the next delivery goes to the newly checked address, although an idle
      // connection to the old one is still open.
      answer = ['127.0.0.2'];
      const c = await deliverOne();
      expect(second.events).toEqual([c]);
      expect(first.events).toEqual([a, b]);

      // Rebinding to an address webhooks may not reach (cloud metadata, link-local) is refused at connect time,
      // and no kept-alive connection to an earlier address carries the delivery instead.
      answer = ['169.254.169.254'];
      const d = await deliverOne();
      const rows: { status: string; last_error: string }[] = await t.db.query(
        `SELECT status, last_error FROM webhook_deliveries WHERE event_id = $1`,
        [d],
      );
      expect(rows).toEqual([
        { status: 'pending', last_error: expect.stringMatching(/^blocked: .*link-local/) },
      ]);
      expect(first.events).toEqual([a, b]);
      expect(second.events).toEqual([c]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('sends again on a new connection when the receiver closed the kept-alive one while it was idle', async () => {
    const rx = await receiverOn('127.0.0.1');
    try {
      answer = ['127.0.0.1'];
      await registerWebhook(t, agent, `http://hooks.idle.test:${rx.port}/hooks`);
      const a = await deliverOne();
      // The receiver drops its idle connection without telling the sender first (as one restarting would).
      await rx.close();
      const again = await receiverOn('127.0.0.1', rx.port);
      try {
        const b = await deliverOne();
        expect(rx.events).toEqual([a]);
        expect(again.events).toEqual([b]);
        const rows: { status: string; attempts: number }[] = await t.db.query(
          `SELECT status, attempts FROM webhook_deliveries WHERE event_id = $1`,
          [b],
        );
        expect(rows).toEqual([{ status: 'delivered', attempts: 1 }]);
      } finally {
        await again.close();
      }
    } finally {
      await rx.close().catch(() => undefined);
    }
  });
});
