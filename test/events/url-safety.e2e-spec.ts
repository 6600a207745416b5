import { createTestApp, TestApp } from '../support/app';
import { liveTestEnv } from '../support/live-env';
import { createAgent, TestAgent } from '../support/actors';
import { HOST_RESOLVER, HostResolver, ResolvedAddress } from '../../src/events/url-safety/url-safety';
import { insertTask, pump, registerWebhook, startReceiver, writeTaskEvent } from './events-helpers';

/** DNS for the tests: names map to whatever addresses a test sets, so no test depends on real DNS. */
const dns = new Map<string, string[]>();
const fakeResolver: HostResolver = async (host) => {
  const found = dns.get(host);
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};

/** The complete live-mode settings, on the test's own database. */
function liveEnv(): Record<string, string> {
  const { DATABASE_URL: _unused, ...env } = liveTestEnv();
  return env;
}

describe('webhook URL safety (SSRF) in live mode', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp(
      { ...liveEnv(), JOBS_IN_PROCESS: 'false' },
      { overrides: [{ provide: HOST_RESOLVER, useValue: fakeResolver }] },
    );
    agent = await createAgent(t);
    dns.set('public.example', ['93.184.216.34']);
    dns.set('public6.example', ['2606:2800:220:1:248:1893:25c8:1946']);
    dns.set('internal.example', ['10.1.2.3']);
    dns.set('mixed.example', ['93.184.216.34', '10.0.0.1']);
    dns.set('metadata.example', ['169.254.169.254']);
    dns.set('loop6.example', ['::1']);
    dns.set('mapped.example', ['::ffff:127.0.0.1']);
    dns.set('cgnat.example', ['100.64.1.1']);
  });
  afterAll(() => t.close());

  const register = (url: string) =>
    t.http
      .post('/v1/agent/webhooks')
      .set('Authorization', agent.bearer)
      .send({ url, events: ['*'] });

  it('runs in live mode', () => {
    expect(t.config.paymentMode).toBe('live');
  });

  it.each([
    ['http://public.example/hook', 'must use https'],
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://127.1.2.3/hook', 'loopback'],
    ['https://2130706433/hook', 'loopback'],
    ['https://0177.0.0.1/hook', 'loopback'],
    ['https://0x7f.0.0.1/hook', 'loopback'],
    ['https://127.1/hook', 'loopback'],
    ['https://localhost/hook', 'loopback'],
    ['https://api.localhost/hook', 'loopback'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['https://[::ffff:7f00:1]/hook', 'loopback'],
    ['https://10.0.0.1/hook', 'private'],
    ['https://172.16.5.4/hook', 'private'],
    ['https://172.31.255.255/hook', 'private'],
    ['https://192.168.0.10/hook', 'private'],
    ['https://[::ffff:10.0.0.1]/hook', 'private'],
    ['https://167772161/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://[fe80::1]/hook', 'link-local'],
    ['https://100.64.0.1/hook', 'carrier-grade NAT'],
    ['https://[fc00::1]/hook', 'unique-local'],
    ['https://[fd00:ec2::254]/hook', 'unique-local'],
    ['https://0.0.0.0/hook', 'unspecified'],
    ['https://[::]/hook', 'unspecified'],
    ['https://224.0.0.251/hook', 'multicast'],
    ['https://[ff02::1]/hook', 'multicast'],
    ['https://internal.example/hook', 'private'],
    ['https://mixed.example/hook', 'private'],
    ['https://metadata.example/hook', 'link-local'],
    ['https://loop6.example/hook', 'loopback'],
    ['https://mapped.example/hook', 'loopback'],
    ['https://cgnat.example/hook', 'carrier-grade NAT'],
    ['https://nxdomain.example/hook', 'does not resolve'],
    ['https://user:secret@public.example/hook', 'credentials'],
  ])('refuses %s with 400 validation_error on url (%s)', async (url, reason) => {
    const res = await register(url).expect(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual([{ field: 'url', message: expect.stringContaining(reason) }]);
  });

  it('accepts https URLs whose host resolves only to public addresses', async () => {
    await register('https://public.example/hook').expect(201);
    await register('https://public6.example/hook').expect(201);
    await register('https://93.184.216.34/hook').expect(201);
  });

  it('checks again at connect time and connects only to the checked address: DNS rebinding is refused', async () => {
    const rx = await startReceiver();
    dns.set('rebind.example', ['93.184.216.34']);
    const created = await register(`https://rebind.example:${rx.port}/hook`).expect(201);
    dns.set('rebind.example', ['127.0.0.1']); // the name now points at the service's own host
    const ping = await t.http
      .post(`/v1/agent/webhooks/${created.body.webhook_id}/test`)
      .set('Authorization', agent.bearer)
      .expect(200);
    expect(ping.body).toMatchObject({
      delivered: false,
      status_code: null,
      error: expect.stringMatching(/^blocked: .*loopback/),
    });

    // Event deliveries take the same path: blocked, then retried later like any failure.
    const taskId = await insertTask(t, agent.id);
    const eventId = await writeTaskEvent(t, 'task.assigned', agent.id, taskId, {});
    await pump(t);
    const rows: { status: string; last_error: string }[] = await t.db.query(
      `SELECT status, last_error FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2`,
      [eventId, created.body.webhook_id],
    );
    expect(rows).toEqual([{ status: 'pending', last_error: expect.stringMatching(/^blocked: .*loopback/) }]);
    expect(rx.connections).toBe(0);
    expect(rx.received).toEqual([]);
    await rx.close();
  });
});

describe('webhook URLs in sandbox mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  it('allows http and localhost so agents can test locally', async () => {
    const agent = await createAgent(t);
    const rx = await startReceiver();
    const { webhook_id } = await registerWebhook(t, agent, `http://localhost:${rx.port}/hooks`);
    const ping = await t.http
      .post(`/v1/agent/webhooks/${webhook_id}/test`)
      .set('Authorization', agent.bearer)
      .expect(200);
    expect(ping.body.delivered).toBe(true);
    expect(rx.received).toHaveLength(1);
    await rx.close();
  });

  it('never follows a redirect (here to loopback): a 302 is a failed delivery, retried later', async () => {
    const agent = await createAgent(t);
    const rx = await startReceiver();
    const target = await startReceiver('/internal/admin');
    rx.script.push(302, 302);
    rx.headers[302] = { Location: target.url };
    const { webhook_id } = await registerWebhook(t, agent, rx.url);
    const ping = await t.http
      .post(`/v1/agent/webhooks/${webhook_id}/test`)
      .set('Authorization', agent.bearer)
      .expect(200);
    expect(ping.body).toMatchObject({
      delivered: false,
      status_code: 302,
      error: 'redirect not followed (HTTP 302)',
    });

    const taskId = await insertTask(t, agent.id);
    const eventId = await writeTaskEvent(t, 'task.assigned', agent.id, taskId, {});
    await pump(t);
    const rows: { status: string; last_status_code: number }[] = await t.db.query(
      `SELECT status, last_status_code FROM webhook_deliveries WHERE event_id = $1`,
      [eventId],
    );
    expect(rows).toEqual([{ status: 'pending', last_status_code: 302 }]);
    expect(rx.received).toHaveLength(2);
    expect(target.received).toEqual([]);
    expect(target.connections).toBe(0);
    await rx.close();
    await target.close();
  });

  it('still refuses link-local (cloud metadata), multicast and unspecified destinations', async () => {
    const agent = await createAgent(t);
    for (const url of [
      'http://169.254.169.254/latest/',
      'http://[fe80::1]/x',
      'http://224.0.0.1/x',
      'http://0.0.0.0:8000/x',
    ]) {
      const res = await t.http
        .post('/v1/agent/webhooks')
        .set('Authorization', agent.bearer)
        .send({ url, events: ['*'] })
        .expect(400);
      expect(res.body.error.details[0].field).toBe('url');
    }
  });
});
