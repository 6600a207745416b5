import sharp from 'sharp';
import { withExif } from '../../scripts/exif-photo';
import { Tokens } from '../../src/auth/tokens';
import { TaskTimers } from '../../src/task/services/task-timers';
import { hammingDistance, perceptualHash, REUSE_MAX_DISTANCE } from '../../src/upload/perceptual-hash';
import { createAdmin, TestAdmin } from '../support/admins';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { agentBalance, escrowOf, workerBalance } from '../support/balances';
import { createUploadTestApp, offset, uploadProof, UploadTestApp } from '../support/photos';
import { accept, createTask, feedback, HOUR, relogin, submit, taskStatus } from '../support/tasks';
import { waitFor } from '../support/waiters';

const BEIJING = { latitude: 39.9042, longitude: 116.4074 };
const SHANGHAI = { latitude: 31.2304, longitude: 121.4737 };

/**
 * The operators' queue of flagged submissions and their decision (product-decisions §18; docs/proof-review.md),
 * through the HTTP API: the evidence, confirmed fraud (rejection, reputation, suspension, withdrawal pause), cleared
 * (the hold lifted, auto-approval 72 hours later), the agent's own verdict, one decision under concurrency.
 */
describe('operator proof reviews', () => {
  let t: UploadTestApp;
  let agent: TestAgent;
  let admin: TestAdmin;
  beforeAll(async () => {
    t = await createUploadTestApp();
    agent = await createAgent(t, { balanceCents: 10_000_000 });
    admin = await createAdmin(t);
  });
  afterAll(() => t.close());

  async function distinctPhoto(gps: { latitude: number; longitude: number }): Promise<Buffer> {
    const raw = Buffer.alloc(64 * 48 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(Math.random() * 256);
    const base = await sharp(raw, { raw: { width: 64, height: 48, channels: 3 } })
      .jpeg()
      .toBuffer();
    return withExif(base, { gps });
  }

  async function photoTask(at: { latitude: number; longitude: number }, worker?: TestWorker) {
    const w = worker ?? (await createWorker(t));
    const taskId = await createTask(t, agent, {
      location: { ...at, address: 'Somewhere' },
      task_type: 'photo',
    });
    return { worker: w, taskId, id: await accept(t, w, taskId) };
  }

  async function submitPhoto(worker: TestWorker, id: string, bytes: Buffer) {
    const url = (await uploadProof(t, worker, bytes).expect(201)).body.url;
    const res = await submit(t, worker, id, { result_data: { ok: true }, photo_urls: [url] });
    if (res.status !== 200) throw new Error(`submit failed: ${res.status} ${JSON.stringify(res.body)}`);
    return url as string;
  }

  /** A held submission: Beijing reported, a photo in Shanghai 10 minutes later (impossible_travel, high). */
  async function held() {
    const p = await photoTask(SHANGHAI);
    await t.http
      .put('/v1/worker/availability')
      .set('Authorization', p.worker.bearer)
      .send({ online: false, ...BEIJING, accuracy_m: 20 })
      .expect(200);
    t.clock.advanceMinutes(10);
    await submitPhoto(p.worker, p.id, await distinctPhoto(offset(SHANGHAI, 20)));
    return p;
  }

  /** A fresh operator token: the tests move the clock past an access token's lifetime. */
  async function refresh(): Promise<void> {
    admin.bearer = `Bearer ${(await t.app.get(Tokens).issuePair('admin', admin.id)).access_token}`;
  }
  beforeEach(refresh);

  const queue = (status?: string, who?: string) =>
    t.http
      .get(`/v1/admin/proof-reviews${status ? `?status=${status}&limit=100` : '?limit=100'}`)
      .set('Authorization', who ?? admin.bearer);
  const decide = (id: string, body: Record<string, unknown>) =>
    t.http.post(`/v1/admin/proof-reviews/${id}/decision`).set('Authorization', admin.bearer).send(body);

  it('lists a held submission with the evidence: signals, worker, task and location, the trail', async () => {
    const { worker, taskId, id } = await held();
    const res = await queue('open').expect(200);
    const item = res.body.items.find((i: { review_id: string }) => i.review_id === id);
    expect(item).toMatchObject({
      status: 'open',
      hold: 'held',
      decision: null,
      submission: { assignment_id: id, status: 'submitted', risk: 'high', review_required: true },
      worker: { worker_id: worker.id, suspended: false, withdrawals_paused: false, confirmed_frauds: 0 },
      task: { task_id: taskId, location: { latitude: SHANGHAI.latitude, longitude: SHANGHAI.longitude } },
    });
    const codes = item.submission.photos[0].verification.signals.map((s: { code: string }) => s.code);
    expect(codes).toContain('impossible_travel');
    // The trail shows the Beijing report, then the submission's own position in Shanghai.
    expect(item.travel_trail.map((p: { source: string }) => p.source)).toEqual([
      'availability',
      'submission_photo',
    ]);
    expect(item.travel_trail[0]).toMatchObject({ latitude: BEIJING.latitude, longitude: BEIJING.longitude });
    const one = await t.http
      .get(`/v1/admin/proof-reviews/${id}`)
      .set('Authorization', admin.bearer)
      .expect(200);
    expect(one.body).toEqual(item);
  });

  it('shows operators the matched earlier photo of another worker (another agent’s task) for reused_photo', async () => {
    // A picture whose resized copy the hash keeps within the threshold: about 1 in 100 random pictures' copies
    // lands beyond it (the red team measures that rate); this test is about what operators see of a match.
    let bytes: Buffer;
    let copy: Buffer;
    do {
      bytes = await distinctPhoto(offset(BEIJING, 20));
      copy = await sharp(bytes).resize(48, 36).jpeg({ quality: 60 }).toBuffer();
    } while (
      hammingDistance((await perceptualHash(bytes))!, (await perceptualHash(copy))!) > REUSE_MAX_DISTANCE
    );
    const otherAgent = await createAgent(t, { balanceCents: 100_000 });
    const first = await createWorker(t);
    const firstTask = await createTask(t, otherAgent, {
      location: { ...BEIJING, address: 'There' },
      task_type: 'photo',
    });
    const firstId = await accept(t, first, firstTask);
    const firstUrl = await submitPhoto(first, firstId, bytes);
    const { worker, id } = await photoTask(BEIJING);
    await submitPhoto(worker, id, withExif(copy, { gps: offset(BEIJING, 20) }));
    const item = (
      await t.http.get(`/v1/admin/proof-reviews/${id}`).set('Authorization', admin.bearer).expect(200)
    ).body;
    expect(item.submission.photos[0].verification.signals.map((s: { code: string }) => s.code)).toContain(
      'reused_photo',
    );
    expect(item.reused_matches).toEqual([
      expect.objectContaining({
        assignment_id: firstId,
        task_id: firstTask,
        agent_id: otherAgent.id,
        worker_id: first.id,
        same_worker: false,
        photo_urls: [firstUrl],
      }),
    ]);
  });

  it('needs an operator: agents and workers are refused, an unknown id is 404, a bad body 400', async () => {
    const { worker, id } = await held();
    expect((await queue('open', agent.key)).status).toBe(403);
    expect((await queue('open', worker.bearer)).status).toBe(403);
    expect((await queue('bogus')).body.error.code).toBe('validation_error');
    const missing = await t.http
      .get('/v1/admin/proof-reviews/00000000-0000-4000-8000-000000000000')
      .set('Authorization', admin.bearer);
    expect(missing.status).toBe(404);
    expect((await decide(id, { outcome: 'maybe', note: 'x' })).status).toBe(400);
    expect((await decide(id, { outcome: 'cleared', note: '  ' })).status).toBe(400);
    const refused = await decide(id, { outcome: 'cleared', suspend_worker: true, note: 'ok' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].field).toBe('suspend_worker');
  });

  it('confirmed fraud rejects the held result (refund), lowers reputation by 1, suspends and pauses; audited; worker told', async () => {
    const { worker, taskId, id } = await held();
    // A control: the same history, rejected by its agent (no fraud confirmed): the penalty is the difference.
    const control = await held();
    await feedback(t, agent, control.taskId, {
      accept_result: false,
      rating: undefined,
      quality_score: undefined,
    }).expect(200);
    const [{ reputation: controlRep }] = await t.db.query(`SELECT reputation FROM workers WHERE id = $1`, [
      control.worker.id,
    ]);
    const balanceBefore = await agentBalance(t, agent.id);
    await refresh();
    await relogin(t, worker);
    const res = await decide(id, {
      outcome: 'confirmed_fraud',
      suspend_worker: true,
      pause_withdrawals: true,
      note: 'Same photo as an earlier task, and Beijing ten minutes before.',
    }).expect(200);
    expect(res.body).toMatchObject({
      status: 'decided',
      hold: 'rejected',
      decision: { outcome: 'confirmed_fraud', decided_by: 'operator', operator_id: admin.id },
      worker: { suspended: true, withdrawals_paused: true, confirmed_frauds: 1 },
    });
    expect(res.body.worker.reputation).toBeCloseTo(Number(controlRep) - 1, 5);
    expect(await agentBalance(t, agent.id)).toBe(balanceBefore + 5000);
    expect(await escrowOf(t, taskId)).toBe(0);
    expect(await taskStatus(t, agent, taskId)).not.toBe('submitted');

    const second = await decide(id, { outcome: 'cleared', note: 'again' });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('invalid_state');

    const [audit] = await t.db.query(
      `SELECT admin_id, action, target_type, after FROM operator_audit_log WHERE target_id = $1`,
      [id],
    );
    expect(audit).toMatchObject({
      admin_id: admin.id,
      action: 'proof_review.decided',
      target_type: 'assignment',
    });
    expect(audit.after).toMatchObject({
      outcome: 'confirmed_fraud',
      suspend_worker: true,
      pause_withdrawals: true,
    });

    const events: { name: string; data: Record<string, unknown> }[] = await t.db.query(
      `SELECT name, data FROM events WHERE worker_id = $1 ORDER BY seq`,
      [worker.id],
    );
    const told = events.find((e) => e.name === 'worker.proof_review_decided');
    expect(told?.data).toMatchObject({
      review_id: id,
      outcome: 'confirmed_fraud',
      suspended: true,
      withdrawals_paused: true,
      suspension_id: res.body.decision.suspension_id,
    });
    expect(String(told?.data.reason)).toMatch(/not genuine/);
    expect(events.map((e) => e.name)).toContain('assignment.rejected');

    // The worker's verdict says a person (an operator), not the agent, rejected it; the agent's own rejection of the
    // control says nothing of the kind. The list and the detail agree.
    const verdict = await t.http
      .get(`/v1/worker/assignments/${id}`)
      .set('Authorization', worker.bearer)
      .expect(200);
    expect(verdict.body.review).toMatchObject({
      decision: 'rejected',
      proof_review: { outcome: 'confirmed_fraud', decided_at: expect.any(String), reversed_at: null },
    });
    const listed = await t.http
      .get('/v1/worker/tasks/my-tasks?status=failed')
      .set('Authorization', worker.bearer)
      .expect(200);
    expect(listed.body.tasks.find((x: { assignment_id: string }) => x.assignment_id === id).review).toEqual(
      verdict.body.review,
    );
    await relogin(t, control.worker);
    const agents = await t.http
      .get(`/v1/worker/assignments/${control.id}`)
      .set('Authorization', control.worker.bearer)
      .expect(200);
    expect(agents.body.review).toMatchObject({ decision: 'rejected', proof_review: null });

    // The money notification says the same: confirmed_fraud in place of the platform's English text; the agent's own
    // rejection of the control keeps its reason.
    const notice = async (who: TestWorker, assignmentId: string) =>
      waitFor(async () => {
        const res = await t.http.get('/v1/worker/notifications').set('Authorization', who.bearer).expect(200);
        const found = (res.body.notifications as { assignment_id: string; kind: string }[]).find(
          (n) => n.assignment_id === assignmentId && n.kind === 'rejected',
        );
        return found ?? false;
      }, 'the rejection notified');
    expect(await notice(worker, id)).toMatchObject({ reason_code: 'confirmed_fraud', reason_text: null });
    expect(await notice(control.worker, control.id)).not.toMatchObject({ reason_code: 'confirmed_fraud' });

    // Suspended: signing in works (reading state), going on call and taking a task do not.
    await t.http.get('/v1/worker/profile').set('Authorization', worker.bearer).expect(200);
    const onCall = await t.http
      .put('/v1/worker/availability')
      .set('Authorization', worker.bearer)
      .send({ online: true, ...SHANGHAI });
    expect(onCall.status).toBe(403);
    expect(onCall.body.error).toMatchObject({
      code: 'worker_suspended',
      suspension_id: res.body.decision.suspension_id,
    });
    const taskId2 = await createTask(t, agent, { location: { ...SHANGHAI, address: 'x' } });
    const take = await t.http.post(`/v1/worker/tasks/${taskId2}/accept`).set('Authorization', worker.bearer);
    expect(take.status).toBe(403);
    expect(take.body.error.code).toBe('worker_suspended');

    // Decided reviews list it, newest first.
    const decided = await queue('decided').expect(200);
    expect(decided.body.items[0].review_id).toBe(id);
    expect((await queue('open')).body.items.map((i: { review_id: string }) => i.review_id)).not.toContain(id);
  });

  it('a paused worker’s withdrawal is refused with withdrawals_paused', async () => {
    const { worker, id } = await held();
    await decide(id, { outcome: 'confirmed_fraud', pause_withdrawals: true, note: 'pause only' }).expect(200);
    const res = await t.http
      .post('/v1/payment/withdraw')
      .set('Authorization', worker.bearer)
      .send({ amount_cents: 1000, alipay_account: '2088000000000001' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('withdrawals_paused');
    // Only withdrawals: going on call still works.
    await t.http
      .put('/v1/worker/availability')
      .set('Authorization', worker.bearer)
      .send({ online: false, ...SHANGHAI })
      .expect(200);
  });

  it('cleared lifts the hold: the agent may still decide, auto-approval 72 hours after the clearing', async () => {
    const { worker, taskId, id } = await held();
    // The worker reads that a person must look, until the hold is lifted (below).
    const mine = async () => {
      const bearer = `Bearer ${(await t.app.get(Tokens).issuePair('worker', worker.id)).access_token}`;
      const res = await t.http.get(`/v1/worker/assignments/${id}`).set('Authorization', bearer).expect(200);
      return res.body.submission.review_required as boolean;
    };
    expect(await mine()).toBe(true);
    const timers = t.app.get(TaskTimers);
    t.clock.advance(100 * HOUR);
    await timers.autoApprove();
    expect(await taskStatus(t, agent, taskId)).toBe('submitted');
    await refresh();
    const res = await decide(id, {
      outcome: 'cleared',
      note: 'The worker flew; the trail had a stale report.',
    }).expect(200);
    expect(res.body).toMatchObject({
      status: 'decided',
      decision: { outcome: 'cleared' },
      worker: { confirmed_frauds: 0 },
    });
    expect(res.body.submission.review_required).toBe(false);
    expect(await mine()).toBe(false);
    t.clock.advance(71 * HOUR);
    await timers.autoApprove();
    expect(await taskStatus(t, agent, taskId)).toBe('submitted');
    t.clock.advance(2 * HOUR);
    await timers.autoApprove();
    expect(await taskStatus(t, agent, taskId)).toBe('completed');
    expect(await workerBalance(t, worker.id)).toBe(4500);
    const [told] = await t.db.query(
      `SELECT data FROM events WHERE worker_id = $1 AND name = 'worker.proof_review_decided'`,
      [worker.id],
    );
    expect(told.data).toMatchObject({ outcome: 'cleared', suspended: false });
  });

  it('the agent’s own verdict ends the review: decided by the agent, and an operator then gets 409', async () => {
    const { taskId, id } = await held();
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    const one = await t.http
      .get(`/v1/admin/proof-reviews/${id}`)
      .set('Authorization', admin.bearer)
      .expect(200);
    expect(one.body).toMatchObject({
      status: 'decided',
      decision: { outcome: 'agent_approved', decided_by: 'agent' },
    });
    expect((await decide(id, { outcome: 'confirmed_fraud', note: 'late' })).status).toBe(409);
  });

  it('one approved after 14 days stays open with its note; confirming fraud then keeps the money final', async () => {
    const { worker, id } = await held();
    t.clock.advance(14 * 24 * HOUR + 60_000);
    await t.app.get(TaskTimers).autoApprove();
    await refresh();
    const open = await t.http
      .get(`/v1/admin/proof-reviews/${id}`)
      .set('Authorization', admin.bearer)
      .expect(200);
    expect(open.body).toMatchObject({ status: 'open', hold: 'approved_after_hold' });
    expect(open.body.note).toMatch(/nobody decided within 14 days/);
    const paid = await workerBalance(t, worker.id);
    const res = await decide(id, { outcome: 'confirmed_fraud', note: 'late find' }).expect(200);
    expect(res.body).toMatchObject({
      hold: 'approved_after_hold',
      worker: { confirmed_frauds: 1, suspended: false },
    });
    expect(await workerBalance(t, worker.id)).toBe(paid);
  });

  it('20 concurrent decisions on one review settle exactly once', async () => {
    const { worker, taskId, id } = await held();
    const before = await agentBalance(t, agent.id);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        decide(id, {
          outcome: i % 2 ? 'cleared' : 'confirmed_fraud',
          suspend_worker: i % 2 ? undefined : true,
          note: `n${i}`,
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const [{ n }] = await t.db.query(
      `SELECT count(*)::int AS n FROM proof_reviews WHERE assignment_id = $1`,
      [id],
    );
    expect(n).toBe(1);
    const [{ audits }] = await t.db.query(
      `SELECT count(*)::int AS audits FROM operator_audit_log WHERE target_id = $1`,
      [id],
    );
    expect(audits).toBe(1);
    const winner = results.find((r) => r.status === 200)!.body;
    const refunds = winner.decision.outcome === 'confirmed_fraud' ? 5000 : 0;
    expect(await agentBalance(t, agent.id)).toBe(before + refunds);
    expect(await escrowOf(t, taskId)).toBe(refunds ? 0 : 5000);
    const [{ s }] = await t.db.query(
      `SELECT count(*)::int AS s FROM worker_suspensions WHERE worker_id = $1`,
      [worker.id],
    );
    expect(s).toBe(winner.decision.outcome === 'confirmed_fraud' ? 1 : 0);
  });
});
