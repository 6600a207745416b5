import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createAdmin } from '../support/admins';
import { createTestApp, TestApp } from '../support/app';
import { spot, type Point } from '../support/photos';
import { accept, createTask, feedback, HOUR, relogin, submit } from '../support/tasks';
import { goOnline, pendingOffer } from './matching-helpers';

const DAY = 24 * HOUR;

/**
 * The agent's record on what a worker sees before taking a task (product-decisions §19): how many of its results
 * were decided in 90 days, the share it rejected (null under 5), and the disputes it lost (overturned or split), on
 * the nearby list and on the offers, each agent's own figures only.
 */
describe("the agent's record on the worker's task card", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** One result of `agent`'s, decided: approved, or rejected; returns what a dispute needs. */
  async function decided(agent: TestAgent, approve: boolean) {
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent);
    const assignmentId = await accept(t, worker, taskId);
    await submit(t, worker, assignmentId).expect(200);
    const body = approve
      ? { accept_result: true }
      : { accept_result: false, reason_code: 'wrong_location', feedback_text: 'Not the shop' };
    await feedback(t, agent, taskId, body).expect(200);
    return { worker, taskId, assignmentId };
  }

  /** The worker disputes, the agent answers, an operator decides `outcome`. */
  async function disputeDecided(
    agent: TestAgent,
    r: { worker: TestWorker; taskId: string; assignmentId: string },
    outcome: Record<string, unknown>,
  ) {
    const opened = await t.http
      .post(`/v1/worker/assignments/${r.assignmentId}/dispute`)
      .set('Authorization', r.worker.bearer)
      .send({ statement: 'The photo shows the right shop.' })
      .expect(201);
    const disputeId = opened.body.dispute_id as string;
    await t.http
      .post(`/v1/tasks/${r.taskId}/disputes/${disputeId}/response`)
      .set('Authorization', agent.key)
      .send({ statement: 'It is the wrong shop.' })
      .expect(200);
    const admin = await createAdmin(t);
    await t.http
      .post(`/v1/admin/disputes/${disputeId}/decision`)
      .set('Authorization', admin.bearer)
      .send(outcome)
      .expect(200);
  }

  const available = (worker: TestWorker, at: Point) =>
    t.http
      .get(`/v1/worker/tasks/available?latitude=${at.latitude}&longitude=${at.longitude}`)
      .set('Authorization', worker.bearer)
      .expect(200);

  it('shows 6 decided, 2 of them rejected (1/3) and one dispute lost; fewer than 5 decided → no rate; another agent’s figures never mix in', async () => {
    // Agent A: 4 approved, 2 rejected, one rejection overturned on dispute.
    const a = await createAgent(t, { balanceCents: 1_000_000 });
    for (let i = 0; i < 4; i++) await decided(a, true);
    const lost = await decided(a, false);
    await decided(a, false);
    await disputeDecided(a, lost, { outcome: 'overturned', note: 'The door shows 302.' });

    // Agent B: 3 decided (1 rejected, its dispute upheld: not lost) and a split lost.
    const b = await createAgent(t, { balanceCents: 1_000_000 });
    await decided(b, true);
    const upheld = await decided(b, false);
    const split = await decided(b, false);
    await disputeDecided(b, upheld, { outcome: 'upheld' });
    await disputeDecided(b, split, { outcome: 'split', worker_percent: 40 });

    // Agent C: nothing decided yet.
    const c = await createAgent(t, { balanceCents: 1_000_000 });

    const here = spot();
    const fromA = await createTask(t, a, { location: here, title: 'From A' });
    const fromB = await createTask(t, b, { location: here, title: 'From B' });
    const fromC = await createTask(t, c, { location: here, title: 'From C' });

    const worker = await createWorker(t);
    const res = await available(worker, here);
    const byId = new Map<string, { agent_record: unknown }>(
      res.body.tasks.map((x: { task_id: string; agent_record: unknown }) => [x.task_id, x]),
    );
    expect(byId.get(fromA)!.agent_record).toEqual({
      decided: 6,
      rejection_rate: expect.closeTo(1 / 3, 10),
      disputes_lost: 1,
    });
    expect(byId.get(fromB)!.agent_record).toEqual({ decided: 3, rejection_rate: null, disputes_lost: 1 });
    expect(byId.get(fromC)!.agent_record).toEqual({ decided: 0, rejection_rate: null, disputes_lost: 0 });
    // Counts only: nothing about which workers or tasks.
    expect(Object.keys(byId.get(fromA)!.agent_record as object).sort()).toEqual([
      'decided',
      'disputes_lost',
      'rejection_rate',
    ]);

    // The same record on an offer: a worker on call near a new task of A's is offered it.
    const there = spot();
    const onCall = await createWorker(t);
    await goOnline(t, onCall, there);
    const offered = await createTask(t, a, { location: there, title: 'Offered from A' });
    const offer = (await pendingOffer(t, offered))!;
    expect(offer.worker_id).toBe(onCall.id);
    const offers = await t.http.get('/v1/worker/offers').set('Authorization', onCall.bearer).expect(200);
    expect(offers.body.offers).toEqual([
      expect.objectContaining({
        assignment_id: offer.id,
        task: expect.objectContaining({
          task_id: offered,
          agent_record: { decided: 6, rejection_rate: expect.closeTo(1 / 3, 10), disputes_lost: 1 },
        }),
      }),
    ]);
  });

  it('counts only the last 90 days', async () => {
    const a = await createAgent(t, { balanceCents: 1_000_000 });
    for (let i = 0; i < 4; i++) await decided(a, true);
    const lost = await decided(a, false);
    await disputeDecided(a, lost, { outcome: 'overturned' });

    // 89 days on, all five still count; at 91 days none does.
    t.clock.advance(89 * DAY);
    const worker = await createWorker(t);
    const here = spot();
    // Its deadline beyond the second look, so it is still listed then.
    const deadline = new Date(t.clock.now().getTime() + 5 * DAY).toISOString();
    const listed = await createTask(t, a, { location: here, deadline_at: deadline });
    const record = async () => {
      await relogin(t, worker);
      const res = await available(worker, here);
      return res.body.tasks.find((x: { task_id: string }) => x.task_id === listed).agent_record;
    };
    expect(await record()).toEqual({ decided: 5, rejection_rate: 0.2, disputes_lost: 1 });
    t.clock.advance(2 * DAY);
    expect(await record()).toEqual({ decided: 0, rejection_rate: null, disputes_lost: 0 });
  });
});
