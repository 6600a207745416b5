import { createAgent, createWorker, type TestAgent } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { agentBalance } from '../support/balances';
import { offset, spot } from '../support/photos';
import { accept, createTask, SURFACES } from '../support/tasks';
import { decline, goOnline, pendingOffer, setReputation } from '../matching/matching-helpers';

const PSEUDONYM = /^anon_[0-9a-f]{16}$/;

/**
 * A task's agent sees who holds its slots, but not who was offered one: until a worker accepts, the task's detail
 * names them by a pseudonym of that task (product-decisions §16). Before, creating a tiny task, reading its offer
 * and cancelling it (a full refund) located a worker at no cost.
 */
describe('offer pseudonyms', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function detail(agent: TestAgent, taskId: string, base = '/v1/tasks') {
    const res = await t.http.get(`${base}/${taskId}`).set('Authorization', agent.key).expect(200);
    return res.body as { assignments: Record<string, unknown>[] };
  }

  /** Everything the agent can read about the task: its detail on both surfaces and its events. */
  async function agentView(agent: TestAgent, taskId: string): Promise<string> {
    const events = await t.http
      .get('/v1/agent/events')
      .query({ task_id: taskId })
      .set('Authorization', agent.key)
      .expect(200);
    const both = [await detail(agent, taskId), await detail(agent, taskId, '/api/v1/tasks'), events.body];
    return JSON.stringify(both);
  }

  it('names the offered worker by a pseudonym stable within the task and new in the next; the id once accepted', async () => {
    const agent = await createAgent(t, { balanceCents: 100_000 });
    const place = spot();
    const w = await createWorker(t);
    await goOnline(t, w, offset(place, 30));
    await setReputation(t, w, 4.37);

    const first = await createTask(t, agent, { location: place });
    const offer = await pendingOffer(t, first);
    expect(offer!.worker_id).toBe(w.id);
    const [shown] = (await detail(agent, first)).assignments;
    expect(shown).toMatchObject({
      assignment_id: offer!.id,
      status: 'pending',
      worker_id: expect.stringMatching(PSEUDONYM),
      // Cut to one decimal while unnamed: two would follow the worker from task to task.
      worker_reputation: 4.3,
    });
    const name = shown.worker_id;
    expect(await agentView(agent, first)).not.toContain(w.id);
    expect((await detail(agent, first, '/api/v1/tasks')).assignments[0].worker_id).toBe(name);

    // Declined without ever accepting: still unnamed, under the same pseudonym.
    await decline(t, w, offer!.id).expect(200);
    expect((await detail(agent, first)).assignments).toEqual([
      expect.objectContaining({ status: 'declined', worker_id: name }),
    ]);
    expect(await agentView(agent, first)).not.toContain(w.id);

    // The same worker offered the next task has another, unrelated name there.
    const second = await createTask(t, agent, { location: place });
    expect((await pendingOffer(t, second))!.worker_id).toBe(w.id);
    const [next] = (await detail(agent, second)).assignments;
    expect(next.worker_id).toMatch(PSEUDONYM);
    expect(next.worker_id).not.toBe(name);

    // Accepted: the worker's id and reputation, as before; the first task keeps its pseudonym.
    await accept(t, w, second);
    expect((await detail(agent, second)).assignments).toEqual([
      expect.objectContaining({ status: 'accepted', worker_id: w.id, worker_reputation: 4.37 }),
    ]);
    expect((await detail(agent, second, '/api/v1/tasks')).assignments[0].worker_id).toBe(w.id);
    expect((await detail(agent, first)).assignments[0].worker_id).toBe(name);
  });

  it.each(Object.values(SURFACES))(
    'create, read the offer, cancel ($name): a full refund and still no id',
    async (surface) => {
      const agent = await createAgent(t, { balanceCents: 100_000 });
      const other = await createAgent(t, { balanceCents: 100_000 });
      const place = spot();
      const w = await createWorker(t);
      await goOnline(t, w, offset(place, 10));
      const taskId = await createTask(t, agent, { location: { ...place, max_distance_meters: 20 } }, surface);
      const offer = await pendingOffer(t, taskId);
      expect(offer!.worker_id).toBe(w.id);
      await surface.cancel(t, taskId).set('Authorization', agent.key).expect(200);
      expect(await agentBalance(t, agent.id)).toBe(100_000);
      const [cancelled] = (await detail(agent, taskId)).assignments;
      expect(cancelled).toMatchObject({ status: 'cancelled', worker_id: expect.stringMatching(PSEUDONYM) });
      expect(await agentView(agent, taskId)).not.toContain(w.id);

      // Another agent's task offered to the same worker: unrelated names, so two agents cannot match notes.
      const theirs = await createTask(t, other, { location: place });
      expect((await pendingOffer(t, theirs))!.worker_id).toBe(w.id);
      const [seen] = (await detail(other, theirs)).assignments;
      expect(seen.worker_id).toMatch(PSEUDONYM);
      expect(seen.worker_id).not.toBe(cancelled.worker_id);
    },
  );
});
