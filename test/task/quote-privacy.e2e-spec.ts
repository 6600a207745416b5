import { createAgent, createWorker, type TestAgent, type TestWorker } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { expectError } from '../support/errors';
import { offset, spot, type Point } from '../support/photos';
import { taskBody } from '../support/tasks';
import { goOnline } from '../matching/matching-helpers';
import { gridCell } from '../../src/common/geo-grid';

/**
 * Quotes say whether people are near a place, never where one is (product-decisions §16): the point snapped to its
 * 500 m grid cell, at least 2 km counted, figures in buckets, the agent's own simulated workers exact, and a budget
 * of quotes per agent. Before, 49 quotes with radii down to 1 m placed a worker within 10.2 m.
 */
describe('quote privacy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function quote(agent: TestAgent, at: Point, radius: number, path = '/v1/tasks/quote') {
    const res = await t.http
      .post(path)
      .set('Authorization', agent.key)
      .send(taskBody(t, { location: { ...at, max_distance_meters: radius } }))
      .expect(200);
    return res.body.workers as Record<string, number>;
  }

  async function onCall(at: Point): Promise<TestWorker> {
    const w = await createWorker(t);
    await goOnline(t, w, at);
    return w;
  }

  it('a worker 50 m from A: quotes at A and 1.5 km away, radius 100 m, answer the same, counted within 2 km', async () => {
    const agent = await createAgent(t);
    const a = spot();
    await onCall(offset(a, 50));
    const atA = await quote(agent, a, 100);
    expect(atA).toEqual({ radius_meters: 2000, eligible_online: 1, available_now: 1, simulated_online: 0 });
    for (const away of [offset(a, 1500), offset(a, 0, 1500), offset(a, -1500), offset(a, 0, -1500)]) {
      expect(await quote(agent, away, 100, '/api/v1/tasks/quote')).toEqual(atA);
    }
    // The attack that located a worker within 10 m: 1 m radii at the worker and around them answer alike.
    for (const probe of [offset(a, 50), offset(a, 60), offset(a, 40, 10), offset(a, 450, -450)]) {
      expect(await quote(agent, probe, 1)).toEqual(atA);
    }
  });

  it('moving the point inside its 500 m cell changes nothing; the count is around the cell’s centre', async () => {
    const agent = await createAgent(t);
    const place = spot();
    const cell = gridCell(place, 500).centre;
    // 1,990 m north of the cell's centre: inside 2 km of it, wherever the task's point lies in the cell.
    await onCall(offset(cell, 1990));
    const corners = [offset(cell, 240, 240), offset(cell, -240, -240), offset(cell, 240, -240), cell];
    for (const p of corners) {
      expect(gridCell(p, 500).centre).toEqual(cell);
      expect(await quote(agent, p, 100)).toMatchObject({ radius_meters: 2000, eligible_online: 1 });
    }
    // From the cell to the south the worker is 2,490 m away or a little more (that row's columns need not line up
    // with this one's, up to 250 m east or west): out of reach, unless the task's own radius is larger.
    expect(await quote(agent, offset(cell, -500), 100)).toMatchObject({ eligible_online: 0 });
    expect(await quote(agent, offset(cell, -500), 2600)).toMatchObject({
      radius_meters: 2600,
      eligible_online: 1,
    });
  });

  it('reports the lower bound of the bucket: 0, 1 (1-4), 5 (5-19), 20', async () => {
    const agent = await createAgent(t);
    const place = spot();
    const seen: [number, number][] = [];
    const record = async (people: number) => {
      const w = await quote(agent, place, 100);
      expect(w.available_now).toBe(w.eligible_online);
      seen.push([people, w.eligible_online]);
    };
    await record(0);
    let people = 0;
    for (const target of [1, 4, 5, 19, 20]) {
      while (people < target) await onCall(offset(place, 100 + 30 * people++));
      await record(people);
    }
    expect(seen).toEqual([
      [0, 0],
      [1, 1],
      [4, 1],
      [5, 5],
      [19, 5],
      [20, 20],
    ]);
  });

  it('counts the agent’s own simulated workers exactly, as the offers would reach them, and apart from people', async () => {
    const agent = await createAgent(t);
    const place = spot();
    const simulate = async (owner: TestAgent, at: Point) =>
      t.http.post('/v1/sandbox/workers').set('Authorization', owner.key).send({ location: at }).expect(201);
    for (const north of [10, 30, 60]) await simulate(agent, offset(place, north));
    await simulate(agent, offset(place, 400)); // outside the task's 100 m, the offers would not reach it
    await simulate(await createAgent(t), offset(place, 20)); // another agent's
    await onCall(offset(place, 40));
    expect(await quote(agent, place, 100)).toEqual({
      radius_meters: 2000,
      eligible_online: 1,
      available_now: 1,
      simulated_online: 3,
    });
    expect((await quote(agent, place, 500)).simulated_online).toBe(4);
    // Exact (a bucket would have said 1 for the three): two more in reach make 5.
    await simulate(agent, offset(place, 80));
    await simulate(agent, offset(place, 90));
    expect((await quote(agent, place, 100)).simulated_online).toBe(5);
  });
});

const DAY = 86_400_000;

describe('quote rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ QUOTE_RATE_LIMIT_PER_MINUTE: '3', QUOTE_RATE_LIMIT_PER_DAY: '5' });
  });
  afterAll(() => t.close());

  const quote = (agent: TestAgent, path = '/v1/tasks/quote') =>
    t.http.post(path).set('Authorization', agent.key).send(taskBody(t));

  it('has its own budget per agent, a minute and a day, on both surfaces; beyond it 429 with Retry-After', async () => {
    const agent = await createAgent(t);
    // At the start of a UTC day, so the day's window holds the whole test.
    t.clock.advance(DAY - (t.clock.now().getTime() % DAY) + 50);
    for (let i = 1; i <= 3; i++) {
      const res = await quote(agent, i === 2 ? '/api/v1/tasks/quote' : '/v1/tasks/quote').expect(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(3 - i));
    }
    const refused = await quote(agent, '/api/v1/tasks/quote');
    expectError(refused, 429, 'rate_limit_exceeded');
    expect(refused.body.error.message).toMatch(/^Quote rate limit of 3 requests per minute/);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBe(refused.body.error.retry_after);
    expect(refused.body.error.retry_after).toBeGreaterThan(0);
    expect(refused.body.error.retry_after).toBeLessThanOrEqual(60);

    // The agent's other requests keep their own budget, and another agent has its own quotes.
    const profile = await t.http.get('/v1/agent/profile').set('Authorization', agent.key).expect(200);
    expect(profile.headers['x-ratelimit-limit']).toBe('100000');
    await quote(await createAgent(t)).expect(200);

    // The next minute opens a new window, until the day's 5 are spent.
    t.clock.advance(60_000);
    await quote(agent).expect(200);
    const dayRefused = await quote(agent);
    expectError(dayRefused, 429, 'rate_limit_exceeded');
    expect(dayRefused.body.error.message).toMatch(/^Quote rate limit of 5 requests per day/);
    expect(dayRefused.body.error.retry_after).toBeGreaterThan(60);
  });
});
