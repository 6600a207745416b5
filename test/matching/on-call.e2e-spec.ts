import { ON_CALL_OFFER_QUEUE } from '../../src/jobs/on-call-offers';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { expectError } from '../support/errors';
import { offset, spot } from '../support/photos';
import { createTask, HOUR, relogin } from '../support/tasks';
import { waitFor } from '../support/waiters';
import { goOnline, offersOf, pendingOffer } from './matching-helpers';

const MINUTE = 60_000;

/**
 * On call (product-decisions §16): `online: true` lasts until turned off or ON_CALL_HOURS after the last report,
 * offers match on a position at most 30 minutes old, GET availability answers the server's state, and going on call
 * offers the best open task nearby (through the job queue, so the tests wait for it).
 */
describe('on call and presence', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = await createAgent(t, { balanceCents: 10_000_000 });
  });
  afterAll(() => t.close());

  const availability = (w: TestWorker, prefix = '/v1') =>
    t.http.get(`${prefix}/worker/availability`).set('Authorization', w.bearer).expect(200);
  const goOffline = (w: TestWorker) =>
    t.http.put('/v1/worker/availability').set('Authorization', w.bearer).send({ online: false }).expect(200);
  const eventsOf = async (w: TestWorker): Promise<{ name: string; data: Record<string, unknown> }[]> =>
    t.db.query(`SELECT name, data FROM events WHERE worker_id = $1 AND name LIKE 'worker.%' ORDER BY seq`, [
      w.id,
    ]);
  /** The worker's offer once the on-call job has made it (or null when none is made by the time it is idle). */
  const offerFor = (w: TestWorker) =>
    waitFor(
      async () =>
        (
          await t.db.query(
            `SELECT id, task_id FROM assignments WHERE worker_id = $1 AND status = 'pending'`,
            [w.id],
          )
        )[0] as { id: string; task_id: string } | undefined,
      'an offer to the worker going on call',
    );

  it('GET availability answers the server’s state on both surfaces; a new worker is off call', async () => {
    const w = await createWorker(t);
    for (const prefix of ['/v1', '/api/v1']) {
      expect((await availability(w, prefix)).body).toEqual({
        online: false,
        on_call_until: null,
        online_until: null,
        latitude: null,
        longitude: null,
        position_at: null,
        position_age_seconds: null,
        position_fresh: false,
        matching: false,
        last_seen_at: null,
      });
    }
    // A position of nulls is no position: going on call needs one.
    expectError(
      await t.http
        .put('/v1/worker/availability')
        .set('Authorization', w.bearer)
        .send({ online: true, latitude: null, longitude: null }),
      400,
      'validation_error',
    );
    const here = spot();
    const on = await t.http
      .put('/api/v1/worker/availability')
      .set('Authorization', w.bearer)
      .send({ online: true, ...here })
      .expect(200);
    expect(on.body).toMatchObject({
      online: true,
      position_fresh: true,
      matching: true,
      position_age_seconds: 0,
    });
    expect(new Date(on.body.on_call_until).getTime() - new Date(on.body.last_seen_at).getTime()).toBe(
      8 * HOUR,
    );
    expect(on.body.position_at).toBe(on.body.last_seen_at);
    expect(on.body.online_until).toBe(on.body.on_call_until);
    const read = (await availability(w)).body;
    expect({ ...read, position_age_seconds: 0 }).toEqual(on.body);
    expectError(
      await t.http.get('/v1/worker/availability').set('Authorization', agent.key),
      403,
      'forbidden',
    );
  });

  it('stays on call past 10 minutes without a report; a position older than 30 minutes is not matched until a fresh report', async () => {
    const here = spot();
    const w = await createWorker(t);
    await goOnline(t, w, offset(here, 100));
    t.clock.advance(11 * MINUTE);
    await relogin(t, w);
    const later = (await availability(w)).body;
    expect(later).toMatchObject({ online: true, position_fresh: true, matching: true });
    expect(later.position_age_seconds).toBeGreaterThanOrEqual(660);
    expect(later.position_age_seconds).toBeLessThan(720);
    const first = await createTask(t, agent, { location: here });
    expect((await pendingOffer(t, first))?.worker_id).toBe(w.id);
    await t.http.post(`/v1/worker/tasks/${first}/accept`).set('Authorization', w.bearer).expect(200);

    t.clock.advance(20 * MINUTE); // the position is now 31 minutes old
    await relogin(t, w);
    expect((await availability(w)).body).toMatchObject({
      online: true,
      position_fresh: false,
      matching: false,
    });
    const second = await createTask(t, agent, { location: here });
    expect(await offersOf(t, second)).toEqual([]);

    // A fresh report makes the worker reachable again, and the task waiting nearby is offered at once.
    await goOnline(t, w, offset(here, 100));
    expect((await offerFor(w)).task_id).toBe(second);
    expect((await eventsOf(w)).map((e) => e.name)).toEqual(['worker.on_call', 'worker.on_call']);
  });

  it('ends ON_CALL_HOURS after the last report, with nothing running; every report renews it', async () => {
    const here = spot();
    const w = await createWorker(t);
    await goOnline(t, w, here);
    t.clock.advance(7 * HOUR);
    await relogin(t, w);
    await goOnline(t, w, here); // renewed: 8 hours from now
    t.clock.advance(7 * HOUR);
    await relogin(t, w);
    expect((await availability(w)).body).toMatchObject({ online: true, position_fresh: false });
    t.clock.advance(HOUR + 1000);
    await relogin(t, w);
    expect((await availability(w)).body).toMatchObject({
      online: false,
      on_call_until: null,
      matching: false,
      latitude: here.latitude,
    });
    // A worker whose stale position would be fresh enough is still not matched once off call.
    await t.db.query(`UPDATE worker_availability SET position_at = $2 WHERE worker_id = $1`, [
      w.id,
      t.clock.now(),
    ]);
    expect(await offersOf(t, await createTask(t, agent, { location: here }))).toEqual([]);
  });

  it('turning off is at once and tells the worker’s other devices; turning on again tells them too', async () => {
    const here = spot();
    const w = await createWorker(t);
    const on = await t.http
      .put('/v1/worker/availability')
      .set('Authorization', w.bearer)
      .send({ online: true, ...here })
      .expect(200);
    await goOnline(t, w, offset(here, 50)); // still on call: nothing for other devices to hear
    const off = await goOffline(w);
    expect(off.body).toMatchObject({ online: false, on_call_until: null, matching: false });
    expect(await offersOf(t, await createTask(t, agent, { location: here }))).toEqual([]);
    await goOffline(w); // already off: no event
    const events = await eventsOf(w);
    expect(events.map((e) => e.name)).toEqual(['worker.on_call', 'worker.off_call']);
    expect(events[0].data).toEqual({ online: true, on_call_until: on.body.on_call_until });
    expect(events[1].data).toEqual({ online: false, on_call_until: null });
  });

  it('going on call offers the best open task nearby, once, and nothing while an offer waits', async () => {
    const here = spot();
    // Nobody is on call when these are posted, so they wait unoffered. The score's proximity is the distance within
    // each task's own radius: 400 m of 5,000 beats 300 m of 1,000, though farther; a task 2 km away with a 1 km
    // radius is out of reach.
    const near = await createTask(t, agent, { location: offset(here, 300), title: 'near' });
    const best = await createTask(t, agent, {
      location: { ...offset(here, 400), max_distance_meters: 5000 },
      title: 'best',
    });
    const outOfReach = await createTask(t, agent, { location: offset(here, 2000), title: 'out of reach' });
    const w = await createWorker(t);
    await goOnline(t, w, here);
    const offer = await offerFor(w);
    expect(offer.task_id).toBe(best);
    const offered = await t.http.get('/v1/worker/offers').set('Authorization', w.bearer).expect(200);
    expect(offered.body.offers.map((o: { task: { title: string } }) => o.task.title)).toEqual(['best']);
    expect(offered.body.offers[0].why.distance_meters).toBeGreaterThanOrEqual(399);
    expect(offered.body.offers[0].why.distance_meters).toBeLessThanOrEqual(401);

    // Off and on again with the offer still waiting: no second offer.
    await goOffline(w);
    await goOnline(t, w, here);
    await onCallJobsDone(w, 2);
    expect((await offersOf(t, near)).length + (await offersOf(t, outOfReach)).length).toBe(0);
  });

  it('a worker going on call without anything in reach, or with the task’s skills missing, is offered nothing', async () => {
    const here = spot();
    const skilled = await createTask(t, agent, { location: here, requirements: { skills: ['photography'] } });
    const w = await createWorker(t);
    await goOnline(t, w, offset(here, 100));
    await onCallJobsDone(w, 1);
    expect(await offersOf(t, skilled)).toEqual([]);
  });

  /** Waits until `n` on-call offer jobs for the worker have run (pg-boss's own table). */
  function onCallJobsDone(w: TestWorker, n: number): Promise<true> {
    return waitFor(async () => {
      const [jobs]: { all: number; done: number }[] = await t.db.query(
        `SELECT count(*)::int AS all, (count(*) FILTER (WHERE state = 'completed'))::int AS done
           FROM pgboss.job WHERE name = $1 AND data ->> 'worker_id' = $2`,
        [ON_CALL_OFFER_QUEUE, w.id],
      );
      return jobs.all === n && jobs.done === n;
    }, `${n} on-call job(s) of the worker to run`);
  }
});
