import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, type TestAgent } from '../support/actors';
import { offset, spot } from '../support/photos';
import { type PaymentRig, startPaymentRig } from '../support/payment-rig';
import { agentBalance, escrowOf, platformFees, workerBalance } from '../support/balances';
import { createAdmin } from '../support/admins';
import { waitFor } from '../support/waiters';
import { EVERY_KIND } from '../support/answer-schemas';
import { assignmentsOf, createTaskAt, reputationOf, simulatedWorker, taskEvents } from './simulation-helpers';

interface Activity {
  step: string;
  outcome: string;
  detail: Record<string, unknown> | null;
}

/**
 * Each persona does what its name says, through the real services: the persona worker is nearest, so it gets the
 * first offer; what it does with it shows in its assignment, its recorded steps, the events and the money. A
 * `reliable` worker farther away then gets the slot (abandoned and declined slots are offered again at no cost to
 * the agent) and completes it, so every task ends approved with exactly one payout.
 */
describe('personas', () => {
  let rig: PaymentRig;
  const uploadDir = mkdtempSync(join(tmpdir(), 'legwork-sim-uploads-'));

  beforeAll(async () => {
    rig = await startPaymentRig({ JOBS_IN_PROCESS: 'true', UPLOAD_DIR: uploadDir });
  });
  afterAll(async () => {
    await rig.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  async function run(
    persona: string,
    task: Record<string, unknown> = {},
    behavior?: Record<string, unknown>,
  ) {
    const t = rig.t;
    const agent: TestAgent = await createAgent(t);
    await t.http
      .post('/v1/sandbox/balance')
      .set('Authorization', agent.key)
      .send({ amount_cents: 20_000 })
      .expect(200);
    const at = spot();
    const personaId = await simulatedWorker(t, agent, {
      persona,
      location: offset(at, 20),
      ...(behavior ? { behavior } : {}),
    });
    const reliableId = await simulatedWorker(t, agent, { persona: 'reliable', location: offset(at, 600) });
    const taskId = await createTaskAt(t, agent, at, task);
    await waitFor(
      async () => ((await assignmentsOf(t, taskId)).some((a) => a.status === 'submitted') ? true : undefined),
      `${persona}: a submitted result`,
      30_000,
    );
    const review = await t.http
      .post(`/v1/tasks/${taskId}/feedback`)
      .set('Authorization', agent.key)
      .send({ accept_result: true, rating: 4, quality_score: 4 });
    expect(review.status).toBe(200);
    const view = await t.http.get(`/v1/sandbox/workers/${personaId}`).set('Authorization', agent.key);
    const steps = (view.body.activity as Activity[]).reverse();
    return {
      t,
      agent,
      taskId,
      personaId,
      reliableId,
      steps,
      assignments: await assignmentsOf(t, taskId),
      events: await taskEvents(t, taskId),
    };
  }

  /** Common to all: the reliable worker did the task, was paid, and the agent paid one budget only. */
  async function expectCompletedByReliable(r: Awaited<ReturnType<typeof run>>, personaStatus: string) {
    expect(r.assignments.map((a) => [a.worker_id, a.status])).toEqual([
      [r.personaId, personaStatus],
      [r.reliableId, 'approved'],
    ]);
    expect(await agentBalance(r.t, r.agent.id)).toBe(20_000 - 5_000);
    expect(await workerBalance(r.t, r.reliableId)).toBe(4_500);
    expect(await workerBalance(r.t, r.personaId)).toBe(0);
  }

  it('abandons: accepts, starts, gives up; the slot goes to the next worker at no cost; reputation drops', async () => {
    const r = await run('abandons');
    expect(r.steps.map((s) => `${s.step}:${s.outcome}`)).toEqual(['accept:ok', 'start:ok', 'abandon:ok']);
    await expectCompletedByReliable(r, 'abandoned');
    expect(r.events).toEqual([
      'task.assigned',
      'task.started',
      'task.assigned',
      'task.started',
      'task.submitted',
      'task.completed',
    ]);
    expect(await reputationOf(r.t, r.personaId)).toBeLessThan(4);
  });

  it('photo_too_far: the 100 m check refuses its photo (about 500 m), then it gives up', async () => {
    const r = await run('photo_too_far');
    expect(r.steps.map((s) => `${s.step}:${s.outcome}`)).toEqual([
      'accept:ok',
      'start:ok',
      'submit:photo_location_mismatch',
      'abandon:ok',
    ]);
    expect(r.steps[2].detail).toMatchObject({ distance_meters: 500, max_distance_meters: 100 });
    await expectCompletedByReliable(r, 'abandoned');
    expect(r.events.filter((e) => e === 'task.submitted')).toHaveLength(1);
  });

  it('no_exif: its photo has no EXIF GPS and is refused, then it gives up', async () => {
    const r = await run('no_exif');
    expect(r.steps.map((s) => `${s.step}:${s.outcome}`)).toEqual([
      'accept:ok',
      'start:ok',
      'submit:photo_gps_missing',
      'abandon:ok',
    ]);
    await expectCompletedByReliable(r, 'abandoned');
  });

  it('declines_offers: turns the offer down; the next worker gets it; its reputation is untouched', async () => {
    const r = await run('declines_offers');
    expect(r.steps.map((s) => `${s.step}:${s.outcome}`)).toEqual(['decline:ok']);
    await expectCompletedByReliable(r, 'declined');
    expect(r.events).toEqual(['task.assigned', 'task.started', 'task.submitted', 'task.completed']);
    expect(await reputationOf(r.t, r.personaId)).toBe(4);
  });

  it('wrong_answers: its answers to the answer_schema are refused (answer_invalid), it gives up; a reliable worker answers every field plausibly', async () => {
    const r = await run('wrong_answers', { answer_schema: EVERY_KIND });
    expect(r.steps.map((s) => `${s.step}:${s.outcome}`)).toEqual([
      'accept:ok',
      'start:ok',
      'submit:answer_invalid',
      'abandon:ok',
    ]);
    expect((r.steps[2].detail as { details: { field: string }[] }).details.map((d) => d.field)).toEqual([
      ...Object.keys(EVERY_KIND.properties).map((f) => `result_data.${f}`),
      'result_data.simulated_extra',
    ]);
    await expectCompletedByReliable(r, 'abandoned');
    const result = await r.t.http
      .get(`/v1/tasks/${r.taskId}/result`)
      .set('Authorization', r.agent.key)
      .expect(200);
    const data = result.body.result.data as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(Object.keys(EVERY_KIND.properties).sort());
    expect(data).toMatchObject({ open: true, kind: 'bakery', payment: ['cash'], queue: 250, price: 5 });
    const photos = result.body.result.photos as { field: string | null; url: string }[];
    expect(photos.find((p) => p.field === 'storefront')?.url).toBe(data.storefront);
  });

  it('behavior.data still wins on a schema task: it is sent as it is', async () => {
    const schema = {
      type: 'object',
      properties: { open: { type: 'boolean', title: 'Open?' } },
      required: ['open'],
    };
    const r = await run(
      'reliable',
      { answer_schema: schema, task_type: 'verification' },
      { data: { open: false } },
    );
    const result = await r.t.http
      .get(`/v1/tasks/${r.taskId}/result`)
      .set('Authorization', r.agent.key)
      .expect(200);
    expect(result.body.submissions[0]).toMatchObject({ worker_id: r.personaId, data: { open: false } });
  });
  /** A funded agent, the persona's worker alone near a new task, and the moment the worker has submitted. */
  async function alone(persona: string) {
    const t = rig.t;
    const agent: TestAgent = await createAgent(t);
    await t.http
      .post('/v1/sandbox/balance')
      .set('Authorization', agent.key)
      .send({ amount_cents: 20_000 })
      .expect(200);
    const at = spot();
    const personaId = await simulatedWorker(t, agent, { persona, location: offset(at, 20) });
    const taskId = await createTaskAt(t, agent, at);
    await waitFor(
      async () => ((await assignmentsOf(t, taskId)).some((a) => a.status === 'submitted') ? true : undefined),
      `${persona}: a submission`,
      30_000,
    );
    return { t, agent, personaId, taskId };
  }

  it('disputes_rejection: works like reliable, and disputes a rejection of its result a few seconds later', async () => {
    const { t, agent, personaId, taskId } = await alone('disputes_rejection');
    await t.http
      .post(`/v1/tasks/${taskId}/feedback`)
      .set('Authorization', agent.key)
      .send({ accept_result: false, reason_code: 'incomplete' })
      .expect(200);
    const disputes = await waitFor(
      async () => {
        const res = await t.http
          .get(`/v1/tasks/${taskId}/disputes`)
          .set('Authorization', agent.key)
          .expect(200);
        return res.body.disputes.length ? (res.body.disputes as { status: string }[]) : undefined;
      },
      'disputes_rejection: a dispute',
      30_000,
    );
    expect(disputes).toEqual([expect.objectContaining({ status: 'awaiting_response', agent: null })]);
    const view = await t.http.get(`/v1/sandbox/workers/${personaId}`).set('Authorization', agent.key);
    const steps = (view.body.activity as Activity[]).reverse();
    expect(steps.map((x) => `${x.step}:${x.outcome}`)).toEqual([
      'accept:ok',
      'start:ok',
      'submit:ok',
      'dispute:ok',
    ]);
    const opened = await t.db.query<{ worker_id: string }[]>(
      `SELECT worker_id FROM events WHERE task_id = $1 AND name = 'dispute.opened'`,
      [taskId],
    );
    expect(opened).toEqual([{ worker_id: personaId }]);
  });

  it('reports_unable: accepts, starts, reports the shop closed with a photo that passes the check; accepting pays 20 % less the fee', async () => {
    const { t, agent, personaId, taskId } = await alone('reports_unable');
    const view = await t.http.get(`/v1/sandbox/workers/${personaId}`).set('Authorization', agent.key);
    const steps = (view.body.activity as Activity[]).reverse();
    expect(steps.map((x) => `${x.step}:${x.outcome}`)).toEqual(['accept:ok', 'start:ok', 'unable:ok']);

    // The agent gets the report as a worker's would reach it: task.submitted, its reason, note and checked photo.
    const events = await t.http
      .get('/v1/agent/events?type=task.submitted')
      .set('Authorization', agent.key)
      .expect(200);
    const submitted = events.body.data.find((e: { task_id: string }) => e.task_id === taskId);
    expect(submitted.data.submissions).toEqual([
      expect.objectContaining({
        worker_id: personaId,
        unable_reason: 'closed',
        worker_notes: 'The shop was closed: shutters down and no opening hours posted (simulated worker).',
        photos: [expect.objectContaining({ distance_meters: 15 })],
      }),
    ]);
    // Listed at all, the photo passed the 100 m check (a refused one answers 400 and records nothing).
    expect(submitted.data.submissions[0].photos[0].verification).toMatchObject({
      location_source: 'exif',
      distance_meters: 15,
    });

    const fees = await platformFees(t);
    await t.http
      .post(`/v1/tasks/${taskId}/feedback`)
      .set('Authorization', agent.key)
      .send({ accept_result: true, rating: 4, quality_score: 4 })
      .expect(200);
    // 5,000 at 20 %: a share of 1,000, the worker 900 after the 10 % fee, the other 4,000 back to the agent.
    expect(await workerBalance(t, personaId)).toBe(900);
    expect(await platformFees(t)).toBe(fees + 100);
    expect(await agentBalance(t, agent.id)).toBe(20_000 - 1_000);
    expect(await escrowOf(t, taskId)).toBe(0);
    const task = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    expect(task.body.status).toBe('failed');
    const failed = await t.http
      .get('/v1/agent/events?type=task.failed')
      .set('Authorization', agent.key)
      .expect(200);
    expect(failed.body.data.find((e: { task_id: string }) => e.task_id === taskId).data.unable).toEqual({
      reason: 'closed',
      paid_cents: 900,
    });

    const admin = await createAdmin(t);
    const check = await t.http.get('/v1/admin/ledger/check').set('Authorization', admin.bearer).expect(200);
    expect(check.body).toMatchObject({ ok: true, violations: [] });
  });

  it('teleports: reports itself 1,000 km away as it starts, so its submission is impossible travel and held for a person', async () => {
    // Submitting 2 s after starting instead of 5 minutes keeps the test short; 1,000 km is as impossible in either.
    const r = await run('teleports', {}, { submit_after_s: 2 });
    expect(r.steps.map((s) => `${s.step}:${s.outcome}`)).toEqual(['accept:ok', 'start:ok', 'submit:ok']);
    const [submitted]: { data: { risk: string; review_required: boolean } }[] = await r.t.db.query(
      `SELECT data FROM events WHERE task_id = $1 AND name = 'task.submitted' ORDER BY seq LIMIT 1`,
      [r.taskId],
    );
    expect(submitted.data).toMatchObject({ risk: 'high', review_required: true });
    const result = await r.t.http
      .get(`/v1/tasks/${r.taskId}/result`)
      .set('Authorization', r.agent.key)
      .expect(200);
    const mine = result.body.submissions.find((x: { worker_id: string }) => x.worker_id === r.personaId);
    expect(mine).toMatchObject({ risk: 'high', review_required: true, status: 'approved' });
    expect(mine.photos[0].verification.signals.map((x: { code: string }) => x.code)).toContain(
      'impossible_travel',
    );
  });
  it('edited_exif: its photo says an editor saved it, so it is flagged exif_edited (medium, not held)', async () => {
    const r = await run('edited_exif');
    expect(r.steps.map((s) => `${s.step}:${s.outcome}`)).toEqual(['accept:ok', 'start:ok', 'submit:ok']);
    const result = await r.t.http
      .get(`/v1/tasks/${r.taskId}/result`)
      .set('Authorization', r.agent.key)
      .expect(200);
    const mine = result.body.submissions.find((x: { worker_id: string }) => x.worker_id === r.personaId);
    expect(mine).toMatchObject({ risk: 'medium', review_required: false });
    const edited = mine.photos[0].verification.signals.find(
      (x: { code: string }) => x.code === 'exif_edited',
    );
    expect(edited.detail).toMatch(/Photoshop/);
  });

  it('reuses_photo: every reuses_photo worker sends one stock picture, so a later copy is another worker’s photo: high, held', async () => {
    await run('reuses_photo');
    const r = await run('reuses_photo');
    const [submitted]: { data: { risk: string; review_required: boolean } }[] = await r.t.db.query(
      `SELECT data FROM events WHERE task_id = $1 AND name = 'task.submitted' ORDER BY seq LIMIT 1`,
      [r.taskId],
    );
    expect(submitted.data).toMatchObject({ risk: 'high', review_required: true });
    const result = await r.t.http
      .get(`/v1/tasks/${r.taskId}/result`)
      .set('Authorization', r.agent.key)
      .expect(200);
    const mine = result.body.submissions.find((x: { worker_id: string }) => x.worker_id === r.personaId);
    const reused = mine.photos[0].verification.signals.find(
      (x: { code: string }) => x.code === 'reused_photo',
    );
    expect(reused).toMatchObject({ scope: 'other' });
  });
});
