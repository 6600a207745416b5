import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Tokens } from '../../src/auth/tokens';
import { NotificationListener } from '../../src/database/notification-listener';
import { DELIVERIES_CHANNEL, EVENTS_CHANNEL } from '../../src/events/delivery/events-runner';
import { Logger } from '../../src/common/logging/logger';
import { inTransaction } from '../../src/database/transaction';
import { createTestApp, TestApp } from '../support/app';
import { createAgent, createWorker } from '../support/actors';
import { eventSchemaProblems } from '../support/typed-events';
import { databaseUrl } from '../support/databases';
import {
  insertTask,
  pump,
  registerWebhook,
  signatureValid,
  startReceiver,
  writeAssignmentEvent,
  writeTaskEvent,
} from './events-helpers';
import { waitFor } from '../support/waiters';

describe('event history, redelivery and payment events', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  describe('GET /v1/agent/events', () => {
    it('lists the agent’s own events newest first with cursor paging and a type filter', async () => {
      const agent = await createAgent(t);
      const other = await createAgent(t);
      const worker = await createWorker(t);
      const taskId = await insertTask(t, agent.id);
      const ids: string[] = [];
      for (const name of ['task.assigned', 'task.started', 'task.submitted', 'task.completed']) {
        ids.push(await writeTaskEvent(t, name, agent.id, taskId, { status: name }));
        await writeAssignmentEvent(t, 'assignment.accepted', worker.id, taskId, {});
        t.clock.advance(1000);
      }
      await writeTaskEvent(t, 'task.assigned', other.id, await insertTask(t, other.id), {});

      const get = (q = '', auth = agent.bearer) =>
        t.http.get(`/v1/agent/events${q}`).set('Authorization', auth).expect(200);
      const all = await get();
      expect(all.body.data.map((e: { event_id: string }) => e.event_id)).toEqual([...ids].reverse());
      expect(all.body).toMatchObject({ has_more: false, next_cursor: null });
      expect(all.body.data[0]).toEqual({
        event: 'task.completed',
        event_id: ids[3],
        task_id: taskId,
        timestamp: expect.any(String),
        data: { task_id: taskId, status: 'task.completed' },
      });
      const p1 = await get('?limit=3');
      expect(p1.body).toMatchObject({ has_more: true, next_cursor: ids[1] });
      const p2 = await get(`?limit=3&starting_after=${ids[1]}`);
      expect(p2.body.data.map((e: { event_id: string }) => e.event_id)).toEqual([ids[0]]);
      expect(p2.body.has_more).toBe(false);
      const typed = await get('?type=task.started');
      expect(typed.body.data.map((e: { event_id: string }) => e.event_id)).toEqual([ids[1]]);
      // The API surface mirrors it, and an API key with task:read may read it (a backend reconciles).
      const viaKey = await t.http.get('/api/v1/agent/events').set('Authorization', agent.key).expect(200);
      expect(viaKey.body).toEqual(all.body);
    });

    it('filters by task_id (one task’s history, as the MCP wait_for_task reads it)', async () => {
      const agent = await createAgent(t);
      const other = await createAgent(t);
      const [mine, second] = [await insertTask(t, agent.id), await insertTask(t, agent.id)];
      const first = await writeTaskEvent(t, 'task.assigned', agent.id, mine, {});
      t.clock.advance(1000);
      await writeTaskEvent(t, 'task.assigned', agent.id, second, {});
      t.clock.advance(1000);
      const then = await writeTaskEvent(t, 'task.started', agent.id, mine, {});
      const foreign = await insertTask(t, other.id);
      await writeTaskEvent(t, 'task.assigned', other.id, foreign, {});

      const ids = async (q: string) =>
        (await t.http.get(`/v1/agent/events${q}`).set('Authorization', agent.key).expect(200)).body.data.map(
          (e: { event_id: string }) => e.event_id,
        );
      expect(await ids(`?task_id=${mine}`)).toEqual([then, first]);
      expect(await ids(`?task_id=${mine}&type=task.started`)).toEqual([then]);
      expect(await ids(`?task_id=${mine}&limit=1&starting_after=${then}`)).toEqual([first]);
      // Another agent's task is not a way into its events.
      expect(await ids(`?task_id=${foreign}`)).toEqual([]);
      const bad = await t.http
        .get('/v1/agent/events?task_id=nope')
        .set('Authorization', agent.key)
        .expect(400);
      expect(bad.body.error.code).toBe('validation_error');
    });

    it('reaches back 30 days only', async () => {
      const agent = await createAgent(t);
      const taskId = await insertTask(t, agent.id);
      const old = await writeTaskEvent(t, 'task.assigned', agent.id, taskId, {});
      t.clock.advanceHours(24 * 29);
      const recent = await writeTaskEvent(t, 'task.started', agent.id, taskId, {});
      t.clock.advanceHours(24 * 2);
      const token = (await t.app.get(Tokens).issuePair('agent', agent.id)).access_token;
      const res = await t.http.get('/v1/agent/events').set('Authorization', `Bearer ${token}`).expect(200);
      expect(res.body.data.map((e: { event_id: string }) => e.event_id)).toEqual([recent]);
      expect(res.body.data.map((e: { event_id: string }) => e.event_id)).not.toContain(old);
    });

    it('validates the query and refuses a cursor that is not the agent’s; needs task:read', async () => {
      const agent = await createAgent(t);
      const other = await createAgent(t);
      const foreign = await writeTaskEvent(t, 'task.assigned', other.id, await insertTask(t, other.id), {});
      for (const q of [
        '?limit=0',
        '?limit=101',
        '?limit=x',
        '?type=assignment.accepted',
        '?starting_after=nope',
        `?starting_after=${foreign}`,
      ]) {
        const res = await t.http.get(`/v1/agent/events${q}`).set('Authorization', agent.bearer).expect(400);
        expect(res.body.error.code).toBe('validation_error');
      }
      const reader = await createAgent(t, { permissions: ['task:create'] });
      const res = await t.http.get('/v1/agent/events').set('Authorization', reader.key).expect(403);
      expect(res.body.error).toMatchObject({
        code: 'insufficient_permissions',
        required_permission: 'task:read',
      });
      const worker = await createWorker(t);
      await t.http.get('/v1/agent/events').set('Authorization', worker.bearer).expect(403);
    });
  });

  describe('POST /v1/agent/events/{event_id}/redeliver', () => {
    it('queues the same event again (same id and body) for every active subscribed endpoint', async () => {
      const agent = await createAgent(t);
      const rx = await startReceiver();
      const unsubscribed = await startReceiver();
      const { webhook_id, secret } = await registerWebhook(t, agent, rx.url, ['task.completed']);
      await registerWebhook(t, agent, unsubscribed.url, ['task.failed']);
      const taskId = await insertTask(t, agent.id);
      const eventId = await writeTaskEvent(t, 'task.completed', agent.id, taskId, { status: 'completed' });
      await pump(t);
      expect(rx.received).toHaveLength(1);

      const res = await t.http
        .post(`/v1/agent/events/${eventId}/redeliver`)
        .set('Authorization', agent.bearer)
        .expect(202);
      expect(res.body).toEqual({
        event_id: eventId,
        deliveries: [{ delivery_id: expect.any(String), webhook_id }],
      });
      await pump(t);
      expect(rx.received).toHaveLength(2);
      expect(rx.received[1].raw).toBe(rx.received[0].raw);
      expect(signatureValid(secret, rx.received[1].raw, rx.received[1].headers['x-signature'])).toBe(true);
      expect(unsubscribed.received).toEqual([]);
      const log = await t.http
        .get(`/v1/agent/webhooks/${webhook_id}/deliveries`)
        .set('Authorization', agent.bearer)
        .expect(200);
      expect(log.body.data.map((d: { kind: string }) => d.kind)).toEqual(['redelivery', 'event']);
      await rx.close();
      await unsubscribed.close();
    });

    it("is 404 for another agent's event or an unknown one, and JWT-only", async () => {
      const agent = await createAgent(t);
      const other = await createAgent(t);
      const foreign = await writeTaskEvent(t, 'task.assigned', other.id, await insertTask(t, other.id), {});
      for (const id of [foreign, randomUUID()]) {
        const res = await t.http
          .post(`/v1/agent/events/${id}/redeliver`)
          .set('Authorization', agent.bearer)
          .expect(404);
        expect(res.body.error.code).toBe('not_found');
      }
      // Its owner's API key may redeliver it with webhook:manage, not without.
      const narrow = await createAgent(t, { permissions: ['task:read'] });
      const own = await writeTaskEvent(t, 'task.assigned', narrow.id, await insertTask(t, narrow.id), {});
      const refused = await t.http
        .post(`/v1/agent/events/${own}/redeliver`)
        .set('Authorization', narrow.key)
        .expect(403);
      expect(refused.body.error).toMatchObject({
        code: 'insufficient_permissions',
        required_permission: 'webhook:manage',
      });
      await t.http.post(`/v1/agent/events/${foreign}/redeliver`).set('Authorization', other.key).expect(202);
    });
  });

  describe('payment events', () => {
    it('go to subscribed endpoints as {event, event_id, timestamp, data} and to the order callback_url, signed with the callback secret', async () => {
      const agent = await createAgent(t);
      const rx = await startReceiver();
      const callback = await startReceiver('/orders/callback');
      const { secret } = await registerWebhook(t, agent, rx.url, ['payment.completed']);
      const rotated = await t.http
        .post('/v1/agent/webhooks/callback-secret')
        .set('Authorization', agent.bearer)
        .expect(201);
      const taskId = await insertTask(t, agent.id);
      const orderId = randomUUID();
      const data = {
        order_id: orderId,
        task_id: taskId,
        amount: 5000,
        currency: 'CNY',
        payment_method: 'alipay',
        status: 'completed',
        transaction_id: '2024112222001400000001',
      };
      const [{ id: eventId }]: { id: string }[] = await t.db.query(
        `INSERT INTO events (name, agent_id, task_id, data, created_at) VALUES ('payment.completed', $1, $2, $3, $4) RETURNING id`,
        [agent.id, taskId, JSON.stringify({ ...data, callback_url: callback.url }), t.clock.now()],
      );
      await pump(t);
      for (const [receiver, key] of [
        [rx, secret],
        [callback, rotated.body.secret as string],
      ] as const) {
        expect(receiver.received).toHaveLength(1);
        const got = receiver.received[0];
        expect(Object.keys(got.json)).toEqual(['event', 'event_id', 'timestamp', 'data']);
        expect(got.json).toEqual({
          event: 'payment.completed',
          event_id: eventId,
          timestamp: expect.any(String),
          data,
        });
        expect(signatureValid(key, got.raw, got.headers['x-signature'])).toBe(true);
        expect(eventSchemaProblems(got.json)).toEqual([]);
      }
      expect(callback.received[0].path).toBe('/orders/callback');
      await rx.close();
      await callback.close();
    });

    it('a callback_url that is not an http(s) URL is skipped, endpoints still get the event', async () => {
      const agent = await createAgent(t);
      const rx = await startReceiver();
      await registerWebhook(t, agent, rx.url, ['*']);
      await t.db.query(
        `INSERT INTO events (name, agent_id, data, created_at) VALUES ('refund.completed', $1, $2, $3)`,
        [
          agent.id,
          JSON.stringify({ order_id: randomUUID(), callback_url: 'file:///etc/passwd' }),
          t.clock.now(),
        ],
      );
      await pump(t);
      expect(rx.received.map((r) => r.json.event)).toEqual(['refund.completed']);
      const [{ n }]: { n: number }[] = await t.db.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE agent_id = $1 AND endpoint_id IS NULL`,
        [agent.id],
      );
      expect(n).toBe(0);
      await rx.close();
    });
  });

  describe('low latency: LISTEN/NOTIFY', () => {
    it('the outbox trigger notifies only when the inserting transaction commits', async () => {
      const seen: string[] = [];
      const listener = new NotificationListener(databaseUrl(t.databaseName), new Logger('silent'));
      await listener.subscribe({
        channels: [EVENTS_CHANNEL, DELIVERIES_CHANNEL],
        notify: (c) => seen.push(c),
      });
      try {
        const agent = await createAgent(t);
        const client = new Client({ connectionString: databaseUrl(t.databaseName) });
        await client.connect();
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO events (name, agent_id, data, created_at) VALUES ('task.assigned', $1, '{}', now())`,
          [agent.id],
        );
        await new Promise((r) => setTimeout(r, 200));
        expect(seen).toEqual([]);
        await client.query('COMMIT');
        await waitFor(() => seen.includes('legwork_events'), 'NOTIFY after commit', 2000);
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO events (name, agent_id, data, created_at) VALUES ('task.started', $1, '{}', now())`,
          [agent.id],
        );
        await client.query('ROLLBACK');
        await client.end();
        await new Promise((r) => setTimeout(r, 200));
        expect(seen.filter((c) => c === 'legwork_events')).toHaveLength(1);
      } finally {
        await listener.close();
      }
    });

    it('with the in-process runner, an event reaches the receiver moments after its transaction commits', async () => {
      const live = await createTestApp({}, { databaseName: t.databaseName });
      try {
        const agent = await createAgent(live);
        const rx = await startReceiver();
        await registerWebhook(live, agent, rx.url, ['*']);
        const taskId = await insertTask(live, agent.id);
        const started = Date.now();
        await inTransaction(live.db, (em) =>
          em.query(
            `INSERT INTO events (name, agent_id, task_id, data, created_at) VALUES ('task.assigned', $1, $2, '{}', $3)`,
            [agent.id, taskId, live.clock.now()],
          ),
        );
        await waitFor(() => rx.received.length === 1, 'delivery by the in-process runner', 5000);
        expect(Date.now() - started).toBeLessThan(3000);
        await rx.close();
      } finally {
        await live.close();
      }
    });
  });
});
