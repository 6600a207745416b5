import { DEFAULT_MAX_DISTANCE_METERS } from '../../src/task/domain/task-policy';
import { createAgent, createWorker, type TestAgent, type TestWorker } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { offset, spot } from '../support/photos';
import { createTask } from '../support/tasks';
import { goOnline, pendingOffer, setReputation } from './matching-helpers';

/**
 * "Why this offer" (product-decisions §19): each offer the worker reads says what chose them: how far they were, their
 * reputation and responsiveness then, the task's radius, the required skills they hold and the minimum reputation
 * they met.
 */
describe('why this offer', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
  });
  afterAll(() => t.close());

  const offers = async (w: TestWorker) =>
    (await t.http.get('/v1/worker/offers').set('Authorization', w.bearer).expect(200)).body.offers as {
      assignment_id: string;
      why: Record<string, unknown>;
    }[];

  it('names the distance, the skills matched, the reputation against the minimum and the radius, on both surfaces', async () => {
    const here = spot();
    const worker = await createWorker(t, { skills: ['photography', 'ladder', 'driving'] });
    await setReputation(t, worker, 4.2);
    await goOnline(t, worker, offset(here, 700));
    const taskId = await createTask(t, agent, {
      location: { ...here, address: 'Fuzhou Road 88', max_distance_meters: 3000 },
      requirements: { skills: ['photography', 'ladder'], min_reputation: 3.5 },
    });
    const offer = (await pendingOffer(t, taskId))!;
    expect(offer.worker_id).toBe(worker.id);

    const [listed] = await offers(worker);
    expect(listed.assignment_id).toBe(offer.id);
    expect(listed.why).toEqual({
      distance_meters: expect.any(Number),
      reputation: 4.2,
      response: 0.5,
      max_distance_meters: 3000,
      skills_matched: ['photography', 'ladder'],
      min_reputation: 3.5,
    });
    expect(listed.why.distance_meters).toBeGreaterThanOrEqual(699);
    expect(listed.why.distance_meters).toBeLessThanOrEqual(701);
    const api = await t.http.get('/api/v1/worker/offers').set('Authorization', worker.bearer).expect(200);
    expect(api.body.offers[0].why).toEqual(listed.why);
  });

  it('a task asking for no skill and no minimum says so: none matched, no minimum, the default radius', async () => {
    const here = spot();
    const worker = await createWorker(t, { skills: ['photography'] });
    await goOnline(t, worker, offset(here, 150));
    const taskId = await createTask(t, agent, { location: { ...here, address: 'Nanjing Road 1' } });
    expect((await pendingOffer(t, taskId))!.worker_id).toBe(worker.id);
    const [listed] = await offers(worker);
    expect(listed.why).toMatchObject({
      reputation: 4,
      max_distance_meters: DEFAULT_MAX_DISTANCE_METERS,
      skills_matched: [],
      min_reputation: null,
    });
  });
});
