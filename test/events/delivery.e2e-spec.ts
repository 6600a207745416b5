import { Tokens } from '../../src/auth/tokens';
import { createTestApp, TestApp } from '../support/app';
import { createAgent, createWorker, TestAgent } from '../support/actors';
import { eventSchemaProblems } from '../support/typed-events';
import { CLAIM_LEASE_MS, MAX_ATTEMPTS, maxRetryDelayMs } from '../../src/events/delivery/backoff';
import { deliveryHeaders, WebhookDelivery } from '../../src/events/delivery/webhook-delivery';
import { OutboxPublisher } from '../../src/events/delivery/outbox-publisher';
import { WebhookSender } from '../../src/events/delivery/webhook-sender';
import { DeliveryRepository } from '../../src/events/delivery/delivery.repository';
import {
  insertTask,
  pump,
  Receiver,
  registerWebhook,
  signatureValid,
  timestampedSignatureValid,
  startReceiver,
  writeEventsTogether,
  writeTaskEvent,
} from './events-helpers';

interface DeliveryRow {
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
}

describe('webhook delivery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  const deliveriesOf = (eventId: string): Promise<DeliveryRow[]> =>
    t.db.query(
      `SELECT status, attempts, next_attempt_at, last_error FROM webhook_deliveries WHERE event_id = $1 ORDER BY created_at`,
      [eventId],
    );

  async function setup(
    events: string[] = ['*'],
  ): Promise<{ agent: TestAgent; rx: Receiver; secret: string; webhookId: string }> {
    const agent = await createAgent(t);
    const rx = await startReceiver();
    const { secret, webhook_id } = await registerWebhook(t, agent, rx.url, events);
    return { agent, rx, secret, webhookId: webhook_id };
  }

  it('delivers every event of a task lifecycle exactly as specified, in order, signed', async () => {
    const { agent, rx, secret } = await setup();
    const worker = await createWorker(t);
    const taskId = await insertTask(t, agent.id);
    const steps = [
      ['assignment.accepted', 'task.assigned', 'pending', 'assigned'],
      ['assignment.started', 'task.started', 'assigned', 'in_progress'],
      ['assignment.submitted', 'task.submitted', 'in_progress', 'submitted'],
      ['assignment.approved', 'task.completed', 'submitted', 'completed'],
    ];
    // task.submitted carries the results awaiting review (product-decisions §10).
    const submissions = [
      {
        assignment_id: '6456d0c2-8f2e-4c1a-9b7e-2d3f4a5b6c7d',
        worker_id: worker.id,
        status: 'submitted',
        submitted_at: t.clock.now().toISOString(),
        data: { open: true },
        worker_notes: null,
        photos: [],
        device_location: null,
        risk: 'low',
        review_required: false,
        review_deadline_at: null,
      },
    ];
    const taskData = (name: string, status: string, previous: string) => ({
      task_id: taskId,
      status,
      previous_status: previous,
      ...(name === 'task.submitted'
        ? { submissions, answer_schema: null, risk: 'low', review_required: false }
        : {}),
    });
    const taskEventIds: string[] = [];
    for (const [assignmentEvent, taskEvent, previous, status] of steps) {
      // One transition writes the worker's assignment event and the agent's task event in one transaction.
      const [, id] = await writeEventsTogether(t, [
        { name: assignmentEvent, workerId: worker.id, taskId, data: { task_id: taskId, status: 'x' } },
        {
          name: taskEvent,
          agentId: agent.id,
          taskId,
          data: taskData(taskEvent, status, previous),
        },
      ]);
      taskEventIds.push(id);
      t.clock.advance(1000);
    }
    await pump(t);
    await rx.close();

    expect(rx.received.map((r) => r.json.event)).toEqual([
      'task.assigned',
      'task.started',
      'task.submitted',
      'task.completed',
    ]);
    const stored: { id: string; created_at: Date }[] = await t.db.query(
      `SELECT id, created_at FROM events WHERE id = ANY($1) ORDER BY seq`,
      [taskEventIds],
    );
    rx.received.forEach((r, i) => {
      const [, , previous, status] = steps[i];
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/hooks');
      expect(Object.keys(r.json)).toEqual(['event', 'event_id', 'task_id', 'timestamp', 'data']);
      expect(r.json).toEqual({
        event: steps[i][1],
        event_id: stored[i].id,
        task_id: taskId,
        timestamp: stored[i].created_at.toISOString(),
        data: taskData(steps[i][1], status, previous),
      });
      expect(signatureValid(secret, r.raw, r.headers['x-signature'])).toBe(true);
      expect(eventSchemaProblems(r.json)).toEqual([]);
      expect(signatureValid(secret, r.raw + ' ', r.headers['x-signature'])).toBe(false);
      // The replay-proof signature: valid now, not for a changed body, a changed t, or five minutes too late.
      const stamped = r.headers['legwork-signature'] as string;
      expect(stamped).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(timestampedSignatureValid(secret, r.raw, stamped)).toBe(true);
      expect(timestampedSignatureValid(secret, r.raw + ' ', stamped)).toBe(false);
      const t0 = Number(/^t=(\d+)/.exec(stamped)![1]);
      expect(timestampedSignatureValid(secret, r.raw, stamped.replace(`t=${t0}`, `t=${t0 + 1}`), t0)).toBe(
        false,
      );
      expect(timestampedSignatureValid(secret, r.raw, stamped, t0 + 301)).toBe(false);
      expect(r.headers['x-event-id']).toBe(stored[i].id);
      expect(r.headers['x-event-timestamp']).toBe(stored[i].created_at.toISOString());
      expect(r.headers['user-agent']).toBe('Legwork-Webhooks/1');
      expect(r.headers['content-type']).toBe('application/json');
    });
    const [{ unpublished }]: { unpublished: number }[] = await t.db.query(
      `SELECT count(*)::int AS unpublished FROM events WHERE task_id = $1 AND published_at IS NULL`,
      [taskId],
    );
    expect(unpublished).toBe(0);
    // Publishing again sends nothing twice.
    await pump(t);
    expect(rx.received).toHaveLength(4);
  });

  it('delivers only subscribed events, only to the owning agent, never to deleted endpoints', async () => {
    const agent = await createAgent(t);
    const other = await createAgent(t);
    const [completedOnly, everything, deleted, othersRx] = await Promise.all(
      [1, 2, 3, 4].map(() => startReceiver()),
    );
    await registerWebhook(t, agent, completedOnly.url, ['task.completed']);
    await registerWebhook(t, agent, everything.url, ['*']);
    const gone = await registerWebhook(t, agent, deleted.url, ['*']);
    await registerWebhook(t, other, othersRx.url, ['*']);
    await t.http
      .delete(`/v1/agent/webhooks/${gone.webhook_id}`)
      .set('Authorization', agent.bearer)
      .expect(204);
    const taskId = await insertTask(t, agent.id);
    await writeTaskEvent(t, 'task.assigned', agent.id, taskId, {
      status: 'assigned',
      previous_status: 'pending',
    });
    await writeTaskEvent(t, 'task.completed', agent.id, taskId, {
      status: 'completed',
      previous_status: 'submitted',
    });
    await pump(t);
    expect(completedOnly.received.map((r) => r.json.event)).toEqual(['task.completed']);
    expect(everything.received.map((r) => r.json.event)).toEqual(['task.assigned', 'task.completed']);
    expect(deleted.received).toEqual([]);
    expect(othersRx.received).toEqual([]);
    await Promise.all([completedOnly, everything, deleted, othersRx].map((r) => r.close()));
  });

  it('a receiver that fails twice gets the event on the 3rd attempt, after the backoff delays', async () => {
    const { agent, rx, secret, webhookId } = await setup();
    rx.script.push(500, 503);
    const taskId = await insertTask(t, agent.id);
    const eventId = await writeTaskEvent(t, 'task.assigned', agent.id, taskId, { status: 'assigned' });

    await pump(t);
    expect(rx.received).toHaveLength(1);
    let [d] = await deliveriesOf(eventId);
    expect(d).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 500' });
    const delay = d.next_attempt_at!.getTime() - t.clock.now().getTime();
    expect(delay).toBeGreaterThan(20_000);
    expect(delay).toBeLessThanOrEqual(maxRetryDelayMs(1));

    await pump(t); // not due yet
    expect(rx.received).toHaveLength(1);

    t.clock.advance(maxRetryDelayMs(1));
    await pump(t);
    expect(rx.received).toHaveLength(2);
    [d] = await deliveriesOf(eventId);
    expect(d).toMatchObject({ status: 'pending', attempts: 2, last_error: 'HTTP 503' });

    t.clock.advance(maxRetryDelayMs(2));
    await pump(t);
    expect(rx.received).toHaveLength(3);
    [d] = await deliveriesOf(eventId);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, next_attempt_at: null, last_error: null });

    // Every attempt carried the same bytes, event id and a valid signature.
    expect(new Set(rx.received.map((r) => r.raw)).size).toBe(1);
    expect(rx.received.map((r) => r.headers['x-event-id'])).toEqual([eventId, eventId, eventId]);
    expect(rx.received.map((r) => r.headers['x-delivery-attempt'])).toEqual(['1', '2', '3']);
    for (const r of rx.received) expect(signatureValid(secret, r.raw, r.headers['x-signature'])).toBe(true);

    const log = await t.http
      .get(`/v1/agent/webhooks/${webhookId}/deliveries`)
      .set('Authorization', agent.bearer)
      .expect(200);
    expect(log.body.data[0].attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([
      500, 503, 200,
    ]);
    expect(log.body.data[0]).toMatchObject({
      status: 'delivered',
      attempts: 3,
      next_retry_at: null,
      last_status_code: 200,
    });
    await rx.close();
  });

  it("holds a task's later events while an earlier one is retried; other tasks are not held", async () => {
    const { agent, rx } = await setup();
    const taskA = await insertTask(t, agent.id);
    const taskB = await insertTask(t, agent.id);
    let failedOnce = false;
    // Deliveries of different tasks go out concurrently: fail A's first one, whatever arrives first.
    rx.decide = (r) => (r.json.task_id === taskA && !failedOnce ? ((failedOnce = true), 500) : undefined);
    await writeTaskEvent(t, 'task.assigned', agent.id, taskA, { status: 'assigned' });
    await writeTaskEvent(t, 'task.started', agent.id, taskA, { status: 'in_progress' });
    await writeTaskEvent(t, 'task.assigned', agent.id, taskB, { status: 'assigned' });
    await pump(t);
    const seen = () =>
      rx.received.map((r) => `${r.json.task_id === taskA ? 'A' : 'B'}:${String(r.json.event)}`);
    // A's first failed; A's second waits behind it.
    expect(seen().sort()).toEqual(['A:task.assigned', 'B:task.assigned']);
    t.clock.advance(maxRetryDelayMs(1));
    await pump(t);
    await pump(t);
    expect(seen().slice(2)).toEqual(['A:task.assigned', 'A:task.started']);
    await rx.close();
  });

  it('a runner killed after claiming loses nothing: the lease runs out and the delivery is retried', async () => {
    const { agent, rx, webhookId } = await setup();
    const taskId = await insertTask(t, agent.id);
    const eventId = await writeTaskEvent(t, 'task.completed', agent.id, taskId, { status: 'completed' });
    const deliveries = t.app.get(WebhookDelivery);
    await pump(t); // a runner publishes and sends it... but first, make this one crash:
    expect(rx.received).toHaveLength(1);

    // A second event: claimed by a runner that dies before sending.
    const lost = await writeTaskEvent(t, 'task.failed', agent.id, taskId, { status: 'failed' });
    await t.app.get(OutboxPublisher).drain();
    const claimed = await deliveries.claim();
    expect(claimed.map((c) => c.event_id)).toEqual([lost]);
    // ... the process is gone. Other runners see nothing due while the lease lasts.
    await deliveries.drain();
    expect(rx.received).toHaveLength(1);
    t.clock.advance(CLAIM_LEASE_MS + 1);
    await deliveries.drain();
    expect(rx.received.map((r) => r.json.event_id)).toEqual([eventId, lost]);
    const [d] = await deliveriesOf(lost);
    expect(d).toMatchObject({ status: 'delivered', attempts: 2 });
    const log = await t.http
      .get(`/v1/agent/webhooks/${webhookId}/deliveries`)
      .set('Authorization', agent.bearer)
      .expect(200);
    expect(log.body.data[0].attempt_log).toEqual([
      expect.objectContaining({
        attempt: 1,
        status_code: null,
        error: expect.stringMatching(/^interrupted/),
      }),
      expect.objectContaining({ attempt: 2, status_code: 200, error: null }),
    ]);
    await rx.close();
  });

  it('a runner killed after sending but before recording causes a duplicate with the same event_id', async () => {
    const { agent, rx, secret } = await setup();
    const taskId = await insertTask(t, agent.id);
    const eventId = await writeTaskEvent(t, 'task.submitted', agent.id, taskId, { status: 'submitted' });
    await t.app.get(OutboxPublisher).drain();
    const deliveries = t.app.get(WebhookDelivery);
    const [claimed] = await deliveries.claim();
    const sent = await t.app
      .get(WebhookSender)
      .send(claimed.url, deliveryHeaders(claimed, secret), claimed.body);
    expect(sent.ok).toBe(true); // received, but the runner dies before recording it
    t.clock.advance(CLAIM_LEASE_MS + 1);
    await deliveries.drain();
    expect(rx.received.map((r) => r.json.event_id)).toEqual([eventId, eventId]);
    expect(rx.received[0].raw).toBe(rx.received[1].raw);
    await rx.close();
  });

  it('a late result from a superseded claim changes nothing: the current claim decides', async () => {
    const { agent, rx } = await setup();
    const taskId = await insertTask(t, agent.id);
    const eventId = await writeTaskEvent(t, 'task.started', agent.id, taskId, { status: 'in_progress' });
    await t.app.get(OutboxPublisher).drain();
    const deliveries = t.app.get(WebhookDelivery);
    const [stale] = await deliveries.claim();
    expect(stale.event_id).toBe(eventId);
    // The first runner hangs past its lease; a second claims the delivery again (attempt 2) and is still sending.
    t.clock.advance(CLAIM_LEASE_MS + 1);
    const [current] = await deliveries.claim();
    expect(current).toMatchObject({ id: stale.id, attempts: 2 });
    // The hung runner wakes up and records its success: refused, the delivery stays claimed by attempt 2.
    const ok = { ok: true, statusCode: 200, latencyMs: 3, error: null };
    expect(await DeliveryRepository.recordSuccess(t.db, stale, ok, t.clock.now())).toBe(false);
    expect((await deliveriesOf(eventId))[0]).toMatchObject({ status: 'pending', attempts: 2 });
    // The current claim's result counts.
    expect(await DeliveryRepository.recordSuccess(t.db, current, ok, t.clock.now())).toBe(true);
    expect((await deliveriesOf(eventId))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    await rx.close();
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts over about two days; 3 days without success disables the endpoint and tells the agent`, async () => {
    const agent = await createAgent(t);
    const dead = await startReceiver();
    await dead.close(); // connection refused from now on
    const watcher = await startReceiver();
    const { webhook_id: deadId } = await registerWebhook(t, agent, dead.url, ['*']);
    const { secret: watcherSecret } = await registerWebhook(t, agent, watcher.url, ['webhook.disabled']);
    const taskId = await insertTask(t, agent.id);
    const first = await writeTaskEvent(t, 'task.assigned', agent.id, taskId, { status: 'assigned' });
    const started = t.clock.now().getTime();
    await pump(t);
    for (let hour = 1; hour <= 60; hour++) {
      t.clock.advanceHours(1);
      await pump(t);
    }
    const [d] = await deliveriesOf(first);
    expect(d).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, next_attempt_at: null });
    expect(d.last_error).toMatch(/ECONNREFUSED/);
    // Days have passed: the fixture's 15-minute token is long expired.
    const bearer = async () =>
      `Bearer ${(await t.app.get(Tokens).issuePair('agent', agent.id)).access_token}`;
    let list = await t.http
      .get('/v1/agent/webhooks')
      .set('Authorization', await bearer())
      .expect(200);
    const deadEp = () => list.body.data.find((w: { webhook_id: string }) => w.webhook_id === deadId);
    expect(deadEp().status).toBe('active');
    expect(Math.abs(new Date(deadEp().failing_since as string).getTime() - started)).toBeLessThan(1000);

    // Day 3 after the first failure: the next failure disables the endpoint.
    t.clock.advanceHours(13);
    const second = await writeTaskEvent(t, 'task.started', agent.id, taskId, { status: 'in_progress' });
    const third = await writeTaskEvent(t, 'task.submitted', agent.id, taskId, { status: 'submitted' });
    await pump(t);
    await pump(t);
    list = await t.http
      .get('/v1/agent/webhooks')
      .set('Authorization', await bearer())
      .expect(200);
    expect(deadEp()).toMatchObject({
      status: 'disabled',
      disabled_at: expect.any(String),
      disabled_reason: 'every delivery failed for 3 days',
    });
    expect(await deliveriesOf(second)).toEqual([
      expect.objectContaining({ status: 'cancelled', attempts: 1 }),
    ]);
    expect(await deliveriesOf(third)).toEqual([
      expect.objectContaining({ status: 'cancelled', attempts: 0 }),
    ]);

    expect(watcher.received.map((r) => r.json.event)).toEqual(['webhook.disabled']);
    const notice = watcher.received[0];
    expect(signatureValid(watcherSecret, notice.raw, notice.headers['x-signature'])).toBe(true);
    expect(eventSchemaProblems(notice.json)).toEqual([]);
    expect(notice.json).toEqual({
      event: 'webhook.disabled',
      event_id: expect.any(String),
      timestamp: expect.any(String),
      data: {
        webhook_id: deadId,
        url: dead.url,
        reason: 'every delivery failed for 3 days',
        failing_since: expect.any(String),
        disabled_at: expect.any(String),
      },
    });
    // New events are not queued for a disabled endpoint.
    await writeTaskEvent(t, 'task.completed', agent.id, taskId, { status: 'completed' });
    await pump(t);
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND event_name = 'task.completed'`,
      [deadId],
    );
    expect(n).toBe(0);
    await watcher.close();
  });

  it('a success in between resets the failure clock', async () => {
    const { agent, rx, webhookId } = await setup();
    rx.script.push(500);
    const taskId = await insertTask(t, agent.id);
    await writeTaskEvent(t, 'task.assigned', agent.id, taskId, {});
    await pump(t);
    const failing = async () => {
      const rows = await t.db.query<{ failing_since: Date | null }[]>(
        `SELECT failing_since FROM webhook_endpoints WHERE id = $1`,
        [webhookId],
      );
      return rows[0].failing_since;
    };
    expect(await failing()).not.toBeNull();
    t.clock.advance(maxRetryDelayMs(1));
    await pump(t);
    expect(await failing()).toBeNull();
    await rx.close();
  });
});
