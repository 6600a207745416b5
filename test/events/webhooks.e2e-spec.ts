import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from '../support/app';
import { createAgent, createWorker } from '../support/actors';
import { eventSchemaProblems } from '../support/typed-events';
import { MAX_ENDPOINTS_PER_AGENT } from '../../src/events/webhooks/webhook-endpoints.service';
import {
  registerWebhook,
  Receiver,
  signatureValid,
  startReceiver,
  timestampedSignatureValid,
} from './events-helpers';

describe('webhook endpoints (/v1/agent/webhooks)', () => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('POST registers an endpoint and shows the signing secret once; GET lists it without the secret', async () => {
    const agent = await createAgent(t);
    const res = await t.http
      .post('/v1/agent/webhooks')
      .set('Authorization', agent.bearer)
      .send({ url: receiver.url, events: ['task.completed', 'task.failed'] })
      .expect(201);
    expect(res.body).toEqual({
      webhook_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: receiver.url,
      events: ['task.completed', 'task.failed'],
      status: 'active',
      failing_since: null,
      last_success_at: null,
      disabled_at: null,
      disabled_reason: null,
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{40}$/),
    });
    const list = await t.http.get('/api/v1/agent/webhooks').set('Authorization', agent.bearer).expect(200);
    expect(list.body.data).toHaveLength(1);
    const { secret: _secret, ...withoutSecret } = res.body as Record<string, unknown>;
    expect(list.body.data[0]).toEqual(withoutSecret);
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
  });

  it('stores the secret sealed (AES-256-GCM), never in clear', async () => {
    const agent = await createAgent(t);
    const { webhook_id, secret } = await registerWebhook(t, agent, receiver.url);
    const [row]: { secret_sealed: string }[] = await t.db.query(
      `SELECT secret_sealed FROM webhook_endpoints WHERE id = $1`,
      [webhook_id],
    );
    expect(row.secret_sealed).toMatch(/^v1\./);
    expect(row.secret_sealed).not.toContain(secret);
    expect(row.secret_sealed).not.toContain(secret.slice(6));
  });

  it.each([
    [{ url: 'not a url', events: ['*'] }, 'url'],
    [{ url: 'ftp://example.com/x', events: ['*'] }, 'url'],
    [{ url: 'http://user:pass@127.0.0.1/x', events: ['*'] }, 'url'],
    [{ url: 'http://169.254.169.254/latest/meta-data', events: ['*'] }, 'url'],
    [{ events: ['*'] }, 'url'],
    [{ url: 'https://example.com/x', events: [] }, 'events'],
    [{ url: 'https://example.com/x', events: ['task.exploded'] }, 'events'],
    [{ url: 'https://example.com/x', events: ['assignment.accepted'] }, 'events'],
    [{ url: 'https://example.com/x', events: ['task.failed', 'task.failed'] }, 'events'],
    [{ url: 'https://example.com/x', events: 'task.failed' }, 'events'],
    [{ url: 'https://example.com/x', events: ['*'], secret: 'mine' }, 'secret'],
  ])('refuses %j with 400 validation_error on %s', async (body, field) => {
    const agent = await createAgent(t);
    const res = await t.http
      .post('/v1/agent/webhooks')
      .set('Authorization', agent.bearer)
      .send(body)
      .expect(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('accepts every name of the closed list, and "*"', async () => {
    const agent = await createAgent(t);
    const names = [
      'task.assigned',
      'task.started',
      'task.submitted',
      'task.completed',
      'task.failed',
      'task.cancelled',
      'payment.created',
      'payment.completed',
      'payment.failed',
      'payment.expired',
      'refund.created',
      'refund.completed',
      'refund.failed',
      'webhook.disabled',
      '*',
    ];
    const res = await t.http
      .post('/v1/agent/webhooks')
      .set('Authorization', agent.bearer)
      .send({ url: receiver.url, events: names })
      .expect(201);
    expect(res.body.events).toEqual(names);
  });

  it(`allows ${MAX_ENDPOINTS_PER_AGENT} endpoints per agent, then 409 conflict (also under concurrency)`, async () => {
    const agent = await createAgent(t);
    const results = await Promise.all(
      Array.from({ length: MAX_ENDPOINTS_PER_AGENT + 3 }, () =>
        t.http
          .post('/v1/agent/webhooks')
          .set('Authorization', agent.bearer)
          .send({ url: receiver.url, events: ['*'] }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_ENDPOINTS_PER_AGENT);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r.body.error.code).toBe('conflict');
  });

  it('DELETE answers 204, the endpoint disappears, and a second DELETE is 404', async () => {
    const agent = await createAgent(t);
    const { webhook_id } = await registerWebhook(t, agent, receiver.url);
    await t.http.delete(`/v1/agent/webhooks/${webhook_id}`).set('Authorization', agent.bearer).expect(204);
    const list = await t.http.get('/v1/agent/webhooks').set('Authorization', agent.bearer).expect(200);
    expect(list.body.data).toEqual([]);
    const again = await t.http
      .delete(`/v1/agent/webhooks/${webhook_id}`)
      .set('Authorization', agent.bearer)
      .expect(404);
    expect(again.body.error.code).toBe('not_found');
  });

  it("another agent's endpoint is 404 for delete, test and deliveries; a malformed id is 400", async () => {
    const owner = await createAgent(t);
    const other = await createAgent(t);
    const { webhook_id } = await registerWebhook(t, owner, receiver.url);
    for (const req of [
      t.http.delete(`/v1/agent/webhooks/${webhook_id}`),
      t.http.post(`/v1/agent/webhooks/${webhook_id}/test`),
      t.http.get(`/v1/agent/webhooks/${webhook_id}/deliveries`),
    ]) {
      const res = await req.set('Authorization', other.bearer).expect(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const list = await t.http.get('/v1/agent/webhooks').set('Authorization', other.bearer).expect(200);
    expect(list.body.data).toEqual([]);
    const bad = await t.http
      .delete('/v1/agent/webhooks/not-a-uuid')
      .set('Authorization', owner.bearer)
      .expect(400);
    expect(bad.body.error.details).toEqual([{ field: 'id', message: 'must be a UUID' }]);
  });

  it('an API key with webhook:manage manages endpoints like the JWT does; without it 403 insufficient_permissions', async () => {
    const agent = await createAgent(t, { permissions: ['task:read', 'webhook:manage'] });
    const created = await t.http
      .post('/v1/agent/webhooks')
      .set('Authorization', agent.key)
      .send({ url: receiver.url, events: ['task.completed'] })
      .expect(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const id = created.body.webhook_id as string;
    const listed = await t.http.get('/api/v1/agent/webhooks').set('Authorization', agent.key).expect(200);
    expect(listed.body.data.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([id]);
    const ping = await t.http
      .post(`/v1/agent/webhooks/${id}/test`)
      .set('Authorization', agent.key)
      .expect(200);
    expect(ping.body.delivered).toBe(true);
    await t.http.get(`/v1/agent/webhooks/${id}/deliveries`).set('Authorization', agent.key).expect(200);
    await t.http.post('/v1/agent/webhooks/callback-secret').set('Authorization', agent.key).expect(201);

    const narrow = await createAgent(t, { permissions: ['task:create', 'task:read', 'task:cancel'] });
    const calls = [
      () => t.http.post('/v1/agent/webhooks').send({ url: receiver.url, events: ['*'] }),
      () => t.http.get('/v1/agent/webhooks'),
      () => t.http.get('/api/v1/agent/webhooks'),
      () => t.http.delete(`/v1/agent/webhooks/${id}`),
      () => t.http.post(`/v1/agent/webhooks/${id}/test`),
      () => t.http.get(`/v1/agent/webhooks/${id}/deliveries`),
      () => t.http.post('/v1/agent/webhooks/callback-secret'),
    ];
    for (const call of calls) {
      const res = await call().set('Authorization', narrow.key).expect(403);
      expect(res.body.error).toMatchObject({
        code: 'insufficient_permissions',
        required_permission: 'webhook:manage',
      });
    }
    // The endpoint is untouched by the refused calls, and its owner's key deletes it.
    await t.http.delete(`/v1/agent/webhooks/${id}`).set('Authorization', agent.key).expect(204);
    const after = await t.http.get('/v1/agent/webhooks').set('Authorization', agent.bearer).expect(200);
    expect(after.body.data).toEqual([]);
  });

  it('a worker is 403 forbidden, no credential 401', async () => {
    const worker = await createWorker(t);
    await t.http.get('/v1/agent/webhooks').set('Authorization', worker.bearer).expect(403);
    const none = await t.http.get('/v1/agent/webhooks').expect(401);
    expect(none.body.error.code).toBe('authentication_required');
  });

  describe('POST /v1/agent/webhooks/{id}/test', () => {
    it('delivers a signed webhook.test now and reports the answer; the log shows it', async () => {
      const agent = await createAgent(t);
      const { webhook_id, secret } = await registerWebhook(t, agent, receiver.url, ['task.completed']);
      const before = receiver.received.length;
      const res = await t.http
        .post(`/v1/agent/webhooks/${webhook_id}/test`)
        .set('Authorization', agent.bearer)
        .expect(200);
      expect(res.body).toEqual({
        delivery_id: expect.any(String),
        event_id: expect.any(String),
        delivered: true,
        status_code: 200,
        latency_ms: expect.any(Number),
        error: null,
      });
      const got = receiver.received[before];
      expect(got.method).toBe('POST');
      expect(got.headers['user-agent']).toBe('Legwork-Webhooks/1');
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['x-event-id']).toBe(res.body.event_id);
      expect(signatureValid(secret, got.raw, got.headers['x-signature'])).toBe(true);
      expect(eventSchemaProblems(got.json)).toEqual([]);
      // The check is strict: an undocumented field, a missing one or a wrong name fails it.
      const data = got.json.data as Record<string, unknown>;
      expect(eventSchemaProblems({ ...got.json, data: { ...data, extra: 1 } })).not.toEqual([]);
      expect(eventSchemaProblems({ ...got.json, data: { message: data.message } })).not.toEqual([]);
      expect(eventSchemaProblems({ ...got.json, event: 'task.completed' })).not.toEqual([]);
      expect(timestampedSignatureValid(secret, got.raw, got.headers['legwork-signature'])).toBe(true);
      expect(got.json).toEqual({
        event: 'webhook.test',
        event_id: res.body.event_id,
        timestamp: expect.any(String),
        data: { webhook_id, message: expect.any(String) },
      });
      const log = await t.http
        .get(`/v1/agent/webhooks/${webhook_id}/deliveries`)
        .set('Authorization', agent.bearer)
        .expect(200);
      expect(log.body.data[0]).toMatchObject({
        delivery_id: res.body.delivery_id,
        event: 'webhook.test',
        kind: 'test',
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        next_retry_at: null,
        attempt_log: [{ attempt: 1, status_code: 200, error: null, latency_ms: expect.any(Number) }],
      });
    });

    it('reports a failing receiver without retrying it', async () => {
      const agent = await createAgent(t);
      const { webhook_id } = await registerWebhook(t, agent, receiver.url);
      receiver.script.push(500);
      const res = await t.http
        .post(`/v1/agent/webhooks/${webhook_id}/test`)
        .set('Authorization', agent.bearer)
        .expect(200);
      expect(res.body).toMatchObject({ delivered: false, status_code: 500, error: 'HTTP 500' });
      const [row]: { status: string; next_attempt_at: Date | null }[] = await t.db.query(
        `SELECT status, next_attempt_at FROM webhook_deliveries WHERE id = $1`,
        [res.body.delivery_id],
      );
      expect(row).toEqual({ status: 'failed', next_attempt_at: null });
    });

    it('gives up on a receiver that does not answer within 5 seconds', async () => {
      const agent = await createAgent(t);
      const silent = http.createServer(() => undefined); // reads the request, never answers
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const port = (silent.address() as AddressInfo).port;
      const { webhook_id } = await registerWebhook(t, agent, `http://127.0.0.1:${port}/slow`);
      const res = await t.http
        .post(`/v1/agent/webhooks/${webhook_id}/test`)
        .set('Authorization', agent.bearer)
        .expect(200);
      expect(res.body).toMatchObject({
        delivered: false,
        status_code: null,
        error: 'timeout: no response within 5 s',
      });
      expect(res.body.latency_ms).toBeGreaterThanOrEqual(4900);
      expect(res.body.latency_ms).toBeLessThan(7000);
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('reports a closed port as a connection error', async () => {
      const agent = await createAgent(t);
      const closed = await startReceiver();
      await closed.close();
      const { webhook_id } = await registerWebhook(t, agent, closed.url);
      const res = await t.http
        .post(`/v1/agent/webhooks/${webhook_id}/test`)
        .set('Authorization', agent.bearer)
        .expect(200);
      expect(res.body).toMatchObject({
        delivered: false,
        status_code: null,
        error: expect.stringContaining('ECONNREFUSED'),
      });
    });
  });

  describe('GET /v1/agent/webhooks/{id}/deliveries', () => {
    it('pages newest first with starting_after, filters by status, and refuses a foreign cursor', async () => {
      const agent = await createAgent(t);
      const { webhook_id } = await registerWebhook(t, agent, receiver.url);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        receiver.script.push(i === 2 ? 500 : 200);
        const r = await t.http
          .post(`/v1/agent/webhooks/${webhook_id}/test`)
          .set('Authorization', agent.bearer);
        ids.push(r.body.delivery_id as string);
        t.clock.advance(1000);
      }
      const page = (q: string) =>
        t.http
          .get(`/v1/agent/webhooks/${webhook_id}/deliveries${q}`)
          .set('Authorization', agent.bearer)
          .expect(200);
      const first = await page('?limit=2');
      expect(first.body.data.map((d: { delivery_id: string }) => d.delivery_id)).toEqual([ids[4], ids[3]]);
      expect(first.body).toMatchObject({ has_more: true, next_cursor: ids[3] });
      const second = await page(`?limit=2&starting_after=${ids[3]}`);
      expect(second.body.data.map((d: { delivery_id: string }) => d.delivery_id)).toEqual([ids[2], ids[1]]);
      const last = await page(`?limit=2&starting_after=${ids[1]}`);
      expect(last.body).toMatchObject({ has_more: false, next_cursor: null });
      expect(last.body.data).toHaveLength(1);
      const failed = await page('?status=failed');
      expect(failed.body.data.map((d: { delivery_id: string }) => d.delivery_id)).toEqual([ids[2]]);
      const foreign = await t.http
        .get(`/v1/agent/webhooks/${webhook_id}/deliveries?starting_after=${randomUUID()}`)
        .set('Authorization', agent.bearer)
        .expect(400);
      expect(foreign.body.error.details[0].field).toBe('starting_after');
      await t.http
        .get(`/v1/agent/webhooks/${webhook_id}/deliveries?limit=0`)
        .set('Authorization', agent.bearer)
        .expect(400);
    });
  });

  it('POST /v1/agent/webhooks/callback-secret rotates the order-callback secret (shown once)', async () => {
    const agent = await createAgent(t);
    const a = await t.http
      .post('/v1/agent/webhooks/callback-secret')
      .set('Authorization', agent.bearer)
      .expect(201);
    const b = await t.http
      .post('/v1/agent/webhooks/callback-secret')
      .set('Authorization', agent.bearer)
      .expect(201);
    expect(a.body.secret).toMatch(/^whsec_/);
    expect(b.body.secret).not.toBe(a.body.secret);
    const [row]: { secret_sealed: string }[] = await t.db.query(
      `SELECT secret_sealed FROM agent_callback_secrets WHERE agent_id = $1`,
      [agent.id],
    );
    expect(row.secret_sealed).not.toContain(b.body.secret);
    const narrow = await createAgent(t, { permissions: ['payment:read', 'payment:write'] });
    await t.http.post('/v1/agent/webhooks/callback-secret').set('Authorization', narrow.key).expect(403);
  });
});
