import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMetricsServer, type MetricsServer } from '../../src/observability/metrics-server';
import { createWorker, uniqueKey } from '../support/actors';
import { startPaymentRig, type PaymentRig } from '../support/payment-rig';
import { offset, spot } from '../support/photos';
import { taskBody } from '../support/tasks';
import { waitFor } from '../support/waiters';
import { decline, goOnline, pendingOffer } from '../matching/matching-helpers';

/** One sample of the Prometheus text format: `name{label="value",...} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The text format as Prometheus reads it (comments skipped, label values unescaped). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of one series (0 when absent: a counter not yet incremented has no series). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found.reduce((sum, s) => sum + s.value, 0);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * product-decisions §20: `curl localhost:$METRICS_PORT/metrics` after the README's walkthrough (an agent registers,
 * funds its balance through the Alipay sandbox's signed notification, posts tasks; workers on call get offers, decline
 * and accept; the work is done and accepted; a webhook endpoint receives the events) shows each business metric with
 * the values the API itself gives. Jobs run in this process, so it exports the database's gauges too.
 */
describe('metrics: GET /metrics after the walkthrough', () => {
  let rig: PaymentRig;
  let metrics: MetricsServer;
  let receiver: Server;
  const received: string[] = [];

  beforeAll(async () => {
    rig = await startPaymentRig({ JOBS_IN_PROCESS: 'true', METRICS_PORT: '0' });
    metrics = await startMetricsServer(0, '127.0.0.1');
    receiver = createServer((req, res) => {
      received.push(String(req.headers['x-event-id']));
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await metrics?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    await rig?.close();
  });

  async function scrape(): Promise<Sample[]> {
    const res = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return parseMetrics(await res.text());
  }

  it('counts tasks, offers, webhooks, payment notifications and requests as the API reports them', async () => {
    const { t } = rig;
    const before = await scrape();
    const http = t.http;
    // 1. An agent registers (the README's step 1), with a webhook endpoint for every event.
    const reg = await http
      .post('/v1/agent/register')
      .send({
        email: `metrics-${Date.now()}@example.com`,
        password: 's3cret-pass-1',
        organization_name: 'Acme',
      })
      .expect(201);
    const key = `Bearer ${reg.body.api_key as string}`;
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const hook = await http
      .post('/v1/agent/webhooks')
      .set('Authorization', key)
      .send({ url: hookUrl, events: ['*'] })
      .expect(201);
    // 2. Funds through the Alipay sandbox: an order paid and credited by its signed notification.
    await http
      .post('/v1/sandbox/balance')
      .set('Authorization', key)
      .send({ amount_cents: 50_000 })
      .expect(200);

    // 3. Two workers on call near one spot; a task there is offered to the nearer, who declines, then to the other.
    const here = spot();
    const [near, other] = [await createWorker(t), await createWorker(t)];
    await goOnline(t, near, offset(here, 100));
    await goOnline(t, other, offset(here, 300));
    const create = (body: Record<string, unknown>, idempotencyKey = uniqueKey('metrics')) =>
      http
        .post('/v1/tasks/create')
        .set('Authorization', key)
        .set('Idempotency-Key', idempotencyKey)
        .send(body);
    const firstBody = taskBody(t, { location: here });
    const idempotencyKey = uniqueKey('metrics');
    const first = (await create(firstBody, idempotencyKey).expect(201)).body.task_id as string;
    // A retry with the same key answers the same task and is no second creation.
    const replay = await create(firstBody, idempotencyKey);
    expect({ status: replay.status, body: replay.body }).toMatchObject({
      status: 201,
      body: { task_id: first },
    });
    expect(replay.body.task_id).toBe(first);
    const offer = (await pendingOffer(t, first))!;
    expect(offer.worker_id).toBe(near.id);
    await decline(t, near, offer.id).expect(200);
    const second = (await pendingOffer(t, first))!;
    expect(second.worker_id).toBe(other.id);
    // 4. The offered worker takes it, does it; 5. the agent accepts.
    await http.post(`/v1/worker/tasks/${first}/accept`).set('Authorization', other.bearer).expect(200);
    await http
      .post(`/v1/worker/assignments/${second.id}/start`)
      .set('Authorization', other.bearer)
      .expect(200);
    await http
      .post(`/v1/worker/assignments/${second.id}/submit`)
      .set('Authorization', other.bearer)
      .send({ result_data: { open: true } })
      .expect(200);
    await http
      .post(`/v1/tasks/${first}/feedback`)
      .set('Authorization', key)
      .send({ accept_result: true, rating: 5, quality_score: 4.5 })
      .expect(200);
    // A second task far from anyone (no offer), left open: its cost stays in escrow.
    await create(taskBody(t, { location: offset(here, 50_000), title: 'Far away' })).expect(201);
    // A third, offered to the one worker still free of an offer of it, then cancelled: the offer is withdrawn.
    const third = (await create(taskBody(t, { location: here, title: 'Cancelled' })).expect(201)).body
      .task_id as string;
    expect(await pendingOffer(t, third)).not.toBeNull();
    await http.post(`/v1/tasks/${third}/cancel`).set('Authorization', key).expect(200);

    // Every webhook delivered (the receiver answers 200): the API's delivery log has nothing pending.
    let lastSignature = '';
    let lastChange = Date.now();
    const deliveries = await waitFor(async () => {
      const res = await http
        .get(`/v1/agent/webhooks/${hook.body.webhook_id as string}/deliveries?limit=100`)
        .set('Authorization', key);
      const data = res.body.data as { status: string; event_id: string }[];
      // Settled: nothing left to publish, every delivery made, and the receiver has had each.
      const [{ n }]: { n: number }[] = await t.db.query(
        `SELECT count(*)::int AS n FROM events WHERE published_at IS NULL`,
      );
      const settled =
        n === 0 && data.every((d) => d.status === 'delivered') && received.length === data.length;
      // And still so half a second later: an event made by the last steps' aftermath (published a moment after them)
      // must not arrive between this check and the scrape.
      const signature = `${data.length}/${received.length}`;
      const stable = settled && signature === lastSignature && Date.now() - lastChange >= 500;
      if (signature !== lastSignature) [lastSignature, lastChange] = [signature, Date.now()];
      return data.length > 0 && stable ? data : null;
    }, 'every webhook delivered');

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      value(after, name, labels) - value(before, name, labels);

    // The API's own figures.
    const tasks = (await http.get('/v1/tasks?limit=100').set('Authorization', key).expect(200)).body.data as {
      task_id: string;
      status: string;
    }[];
    expect(tasks).toHaveLength(3);
    expect(delta('legwork_tasks_created_total')).toBe(tasks.length);
    const offers: { status: string; n: number }[] = await t.db.query(
      `SELECT status, count(*)::int AS n FROM assignments WHERE offered_at IS NOT NULL
          AND task_id = ANY($1::uuid[]) GROUP BY status`,
      [tasks.map((x) => x.task_id)],
    );
    const offered = offers.reduce((n, o) => n + o.n, 0);
    expect(offered).toBe(3);
    expect(delta('legwork_offers_total', { outcome: 'offered' })).toBe(offered);
    expect(delta('legwork_offers_total', { outcome: 'declined' })).toBe(1);
    expect(delta('legwork_offers_total', { outcome: 'accepted' })).toBe(1);
    expect(delta('legwork_offers_total', { outcome: 'withdrawn' })).toBe(1);
    expect(delta('legwork_webhook_deliveries_total', { outcome: 'delivered' })).toBe(deliveries.length);
    expect(delta('legwork_webhook_deliveries_total', { outcome: 'failed' })).toBe(0);
    expect(new Set(received)).toEqual(new Set(deliveries.map((d) => d.event_id)));
    expect(delta('legwork_webhook_lag_seconds_count')).toBe(deliveries.length);
    expect(delta('legwork_payment_notifications_total', { provider: 'alipay', outcome: 'applied' })).toBe(1);
    // Escrow held: what the open task cost (the completed one paid out, the cancelled one refunded).
    const open = tasks.filter((x) => !['completed', 'cancelled', 'failed'].includes(x.status));
    expect(open).toHaveLength(1);
    const detail = await http.get(`/v1/tasks/${open[0].task_id}`).set('Authorization', key).expect(200);
    expect(value(after, 'legwork_escrow_held_cents')).toBe(detail.body.cost_breakdown.total_cents);
    expect(value(after, 'legwork_outbox_pending')).toBe(0);

    // HTTP by route template: three creations answered 201 (and the replay), none labelled with an id.
    expect(delta('http_requests_total', { method: 'POST', route: '/v1/tasks/create', status: '201' })).toBe(
      4,
    );
    expect(delta('http_requests_total', { method: 'POST', route: '/v1/tasks/:task_id/feedback' })).toBe(1);
    expect(delta('http_request_duration_seconds_count', { route: '/v1/tasks/create' })).toBe(4);
    // The provider's notification, by its route: the same one the payment counter counted.
    expect(delta('http_requests_total', { method: 'POST', route: '/webhooks/alipay', status: '200' })).toBe(
      1,
    );
    for (const s of after) for (const v of Object.values(s.labels)) expect(v).not.toMatch(UUID);
    for (const s of after) for (const v of Object.values(s.labels)) expect(v).not.toContain('@');

    // The pools, the event loop and the queues are there too.
    expect(value(after, 'legwork_db_pool_connections', { pool: 'main', state: 'total' })).toBeGreaterThan(0);
    expect(value(after, 'legwork_db_pool_max', { pool: 'jobs' })).toBe(4);
    expect(after.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect(after.some((s) => s.name === 'legwork_ledger_violations')).toBe(true);
    expect(value(after, 'legwork_ledger_violations')).toBe(0);
  });

  it('serves only /metrics', async () => {
    expect((await fetch(`http://127.0.0.1:${metrics.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metrics.port}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});
