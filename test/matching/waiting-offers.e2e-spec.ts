import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { TaskTimers } from '../../src/task/services/task-timers';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { expectError } from '../support/errors';
import { offset, spot, type Point } from '../support/photos';
import { accept, act, createTask, relogin } from '../support/tasks';
import { waitFor } from '../support/waiters';
import { decline, goOnline, offersOf, pendingOffer } from './matching-helpers';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

interface Delivery {
  channel: string;
  status: string;
  sent_at: string;
}

interface Offer {
  assignment_id: string;
  task: { task_id: string; title: string; distance_meters: number | null; payment_cents: number };
  offered_at: string;
  expires_at: string;
  deliveries: Delivery[];
  why: { distance_meters: number | null; reputation: number | null; response: number | null };
}

/**
 * Offers as the worker sees them (product-decisions §16): GET /v1/worker/offers with each offer's real expiry, how it
 * was sent (the socket delivery, checked across instances through Redis) and why it went to them; and an offer
 * declined or left to lapse keeps nobody from the task: it is listed and can be taken, but never offered again.
 */
describe('waiting offers', () => {
  let a: TestApp;
  let b: TestApp;
  let urlB: string;
  let agent: TestAgent;
  const sockets: Socket[] = [];
  const env = { REDIS_URL, REDIS_KEY_PREFIX: `lwtest-${randomUUID()}` };

  beforeAll(async () => {
    // A publishes events (jobs in process); B serves sockets only: a delivery to B's sockets is seen through Redis.
    a = await createTestApp({ ...env, INSTANCE_ID: 'offers-a' });
    b = await createTestApp(
      { ...env, INSTANCE_ID: 'offers-b', JOBS_IN_PROCESS: 'false' },
      { databaseName: a.databaseName },
    );
    await b.app.listen(0, '127.0.0.1');
    urlB = `http://127.0.0.1:${((b.app.getHttpServer() as Server).address() as AddressInfo).port}`;
    agent = await createAgent(a, { balanceCents: 10_000_000 });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await b.close();
    await a.close();
  });

  const offers = async (w: TestWorker): Promise<Offer[]> =>
    (await a.http.get('/v1/worker/offers').set('Authorization', w.bearer).expect(200)).body.offers;
  const listed = async (w: TestWorker, at: Point | null): Promise<string[]> => {
    const query = at
      ? `?latitude=${at.latitude}&longitude=${at.longitude}`
      : '?sort_by=distance_asc&limit=100';
    const res = await a.http
      .get(`/v1/worker/tasks/available${query}`)
      .set('Authorization', w.bearer)
      .expect(200);
    return res.body.tasks.map((x: { task_id: string }) => x.task_id);
  };

  async function connect(w: TestWorker): Promise<void> {
    const socket = io(urlB, {
      path: '/ws',
      auth: { token: w.jwt },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    await new Promise<void>((resolve) => socket.once('ready', () => resolve()));
  }

  it('lists open offers with their real expiry, the socket delivery and why; the assignment shows the same deliveries', async () => {
    const here = spot();
    const connected = await createWorker(a);
    const away = await createWorker(a);
    await goOnline(a, connected, offset(here, 100));
    await goOnline(a, away, offset(here, 100, 100));
    await connect(connected);
    const [first, second] = [
      await createTask(a, agent, { location: here, title: 'First' }),
      await createTask(a, agent, { location: here, title: 'Second' }),
    ];
    const toConnected = (await pendingOffer(a, first))!;
    expect(toConnected.worker_id).toBe(connected.id);
    expect((await pendingOffer(a, second))!.worker_id).toBe(away.id);

    const delivered = async (w: TestWorker) =>
      waitFor(async () => (await offers(w))[0]?.deliveries[0], 'the socket delivery to be recorded');
    expect(await delivered(connected)).toMatchObject({ channel: 'socket', status: 'sent' });
    expect(await delivered(away)).toMatchObject({ channel: 'socket', status: 'no_connection' });

    // The offer ladder's push step is a job due at once (the worker has no push subscription: no_connection); wait
    // for its record, so the two reads compared below cannot straddle it.
    await waitFor(
      async () => (await offers(connected))[0]?.deliveries.find((d) => d.channel === 'push'),
      'the push delivery to be recorded',
    );
    // Half a minute later the offer still ends when it was made to end, not 120 s from now.
    a.clock.advance(30_000);
    const [offer] = await offers(connected);
    expect(offer).toMatchObject({
      assignment_id: toConnected.id,
      offered_at: toConnected.offered_at!.toISOString(),
      expires_at: toConnected.offer_expires_at!.toISOString(),
      task: { task_id: first, title: 'First', payment_cents: 4500 },
      why: { reputation: 4, response: 0.5 },
    });
    expect(new Date(offer.expires_at).getTime() - new Date(offer.offered_at).getTime()).toBe(120_000);
    expect(offer.why.distance_meters).toBeGreaterThanOrEqual(99);
    expect(offer.why.distance_meters).toBeLessThanOrEqual(101);
    expect(offer.task.distance_meters).toBe(offer.why.distance_meters);
    const detail = await a.http
      .get(`/v1/worker/assignments/${toConnected.id}`)
      .set('Authorization', connected.bearer)
      .expect(200);
    expect(detail.body.deliveries).toEqual(offer.deliveries);
    // On /api/v1 too; another worker sees none of it.
    const api = await a.http.get('/api/v1/worker/offers').set('Authorization', connected.bearer).expect(200);
    expect(api.body.offers).toEqual([offer]);
    expect(await offers(await createWorker(a))).toEqual([]);

    // Past its expiry an offer is no longer listed, even before the sweep lapses it.
    a.clock.advance(91_000);
    await relogin(a, connected);
    expect(await offers(connected)).toEqual([]);
    // A task taken from the list was never an offer: no deliveries.
    const puller = await createWorker(a);
    const pulled = await accept(a, puller, await createTask(a, agent, { location: spot() }));
    const pulledDetail = await a.http
      .get(`/v1/worker/assignments/${pulled}`)
      .set('Authorization', puller.bearer)
      .expect(200);
    expect(pulledDetail.body.deliveries).toEqual([]);
  });

  it('a declined offer’s task stays listed to the worker, who may take it; it is never offered to them again', async () => {
    const here = spot();
    const w = await createWorker(a);
    await goOnline(a, w, offset(here, 100));
    const taskId = await createTask(a, agent, { location: here, max_workers: 2 });
    const offer = (await pendingOffer(a, taskId))!;
    expect(offer.worker_id).toBe(w.id);
    await decline(a, w, offer.id).expect(200);
    // Listed in both shapes of the search: around a position and everywhere.
    expect(await listed(w, here)).toContain(taskId);
    expect(await listed(w, null)).toContain(taskId);

    // A slot reopening (another worker gives it up) is not offered to the worker who declined.
    const other = await createWorker(a);
    const held = await accept(a, other, taskId);
    await accept(a, await createWorker(a), taskId);
    await act(a, other, held, 'abandon').expect(200);
    expect(await pendingOffer(a, taskId)).toBeNull();
    // Nor by going on call again.
    await a.http.put('/v1/worker/availability').set('Authorization', w.bearer).send({ online: false });
    await goOnline(a, w, offset(here, 100));
    await waitFor(async () => (await onCallJobs(w)) === 2, 'the on-call jobs to run');
    expect(await pendingOffer(a, taskId)).toBeNull();

    // From the list, the same assignment becomes accepted.
    const taken = await a.http
      .post(`/v1/worker/tasks/${taskId}/accept`)
      .set('Authorization', w.bearer)
      .expect(200);
    expect(taken.body).toMatchObject({ assignment_id: offer.id, status: 'accepted' });
    const [row]: { status: string; offer_ended_at: Date; accepted_at: Date; closed_at: Date | null }[] =
      await a.db.query(
        `SELECT status, offer_ended_at, accepted_at, closed_at FROM assignments WHERE id = $1`,
        [offer.id],
      );
    expect(row).toMatchObject({ status: 'accepted', closed_at: null });
    // When the offer itself was answered stays known (the matcher's responsiveness reads it).
    expect(row.offer_ended_at.getTime()).toBeLessThan(row.accepted_at.getTime());
    expect((await offersOf(a, taskId)).filter((o) => o.worker_id === w.id)).toHaveLength(1);
    // Now it is the worker's task: no longer listed, and a second accept is refused.
    expect(await listed(w, here)).not.toContain(taskId);
    expectError(
      await a.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', w.bearer),
      409,
      'already_assigned',
    );
  });

  it('a lapsed offer’s task can be taken from the list while a slot is open, never over-filling', async () => {
    const here = spot();
    const [w, next] = [await createWorker(a), await createWorker(a)];
    await goOnline(a, w, offset(here, 100));
    const taskId = await createTask(a, agent, { location: here });
    const offer = (await pendingOffer(a, taskId))!;
    expect(offer.worker_id).toBe(w.id);
    await goOnline(a, next, offset(here, 200));
    a.clock.advance(121_000);
    await relogin(a, w);
    await relogin(a, next);
    await a.app.get(TaskTimers).expireOffers();
    expect((await offersOf(a, taskId)).map((o) => [o.worker_id, o.status])).toEqual([
      [w.id, 'expired'],
      [next.id, 'pending'],
    ]);
    // The slot went to the next worker: the task is full, so not listed, and not to be taken.
    expect((await pendingOffer(a, taskId))!.worker_id).toBe(next.id);
    expect(await listed(w, here)).not.toContain(taskId);
    expectError(
      await a.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', w.bearer),
      409,
      'task_full',
    );
    // The next worker declines too; nobody else is near: the slot is open, listed to both, and one of them gets it.
    await decline(a, next, (await pendingOffer(a, taskId))!.id).expect(200);
    expect(await listed(w, here)).toContain(taskId);
    const race = await Promise.all(
      [w, next, w, next].map((x) =>
        a.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', x.bearer),
      ),
    );
    expect(race.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of race.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(['task_full', 'already_assigned']).toContain(r.body.error.code);
    }
    const rows: { worker_id: string; status: string }[] = await a.db.query(
      `SELECT worker_id, status FROM assignments WHERE task_id = $1 ORDER BY created_at`,
      [taskId],
    );
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.status === 'accepted')).toHaveLength(1);
  });

  it('an offer past its window but not yet swept can still be taken by its worker', async () => {
    const here = spot();
    const w = await createWorker(a);
    await goOnline(a, w, offset(here, 100));
    const taskId = await createTask(a, agent, { location: here });
    const offer = (await pendingOffer(a, taskId))!;
    a.clock.advance(121_000);
    await relogin(a, w);
    const late = await a.http
      .post(`/v1/worker/tasks/${taskId}/accept`)
      .set('Authorization', w.bearer)
      .expect(200);
    expect(late.body).toMatchObject({ assignment_id: offer.id, status: 'accepted' });
  });

  async function onCallJobs(w: TestWorker): Promise<number> {
    const [{ n }]: { n: number }[] = await a.db.query(
      `SELECT count(*)::int AS n FROM pgboss.job
        WHERE name = 'worker-on-call-offer' AND data ->> 'worker_id' = $1 AND state = 'completed'`,
      [w.id],
    );
    return n;
  }
});
