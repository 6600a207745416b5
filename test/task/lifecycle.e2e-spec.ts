import { createAgent, createWorker } from '../support/actors';
import type { TestApp } from '../support/app';
import { createUploadTestApp, jpeg, uploadProof } from '../support/photos';
import { agentBalance, escrowOf, platformFees, workerBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { accept, act, createTask, eventsOf, feedback, submit, SURFACES, taskStatus } from '../support/tasks';

/** The task lifecycle end to end, money included, on both agent surfaces. */
describe('task lifecycle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createUploadTestApp();
  });
  afterAll(() => t.close());

  describe.each(Object.values(SURFACES))('on $name', (surface) => {
    it('create -> accept -> start -> submit -> accept_result: completed, worker paid, fee to platform, escrow 0', async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const worker = await createWorker(t, { skills: ['photography'] });
      const feesBefore = await platformFees(t);

      const created = await surface
        .create(t)
        .set('Authorization', agent.key)
        .send({
          title: 'Photograph the storefront',
          description: 'Two photos.',
          location: { latitude: 31.2304, longitude: 121.4737 },
          budget_cents: 5000,
          deadline_at: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
          task_type: 'photo',
          requirements: { skills: ['photography'], min_reputation: 3.5 },
        })
        .expect(201);
      expect(created.body).toEqual({
        task_id: expect.any(String),
        status: 'pending',
        estimated_completion_at: expect.any(String),
        cost_breakdown: { worker_payout_cents: 4500, platform_fee_cents: 500, total_cents: 5000 },
        created_at: expect.any(String),
      });
      const taskId = created.body.task_id as string;
      expect(await agentBalance(t, agent.id)).toBe(15_000);
      expect(await escrowOf(t, taskId)).toBe(5000);

      const assignmentId = await accept(t, worker, taskId);
      expect(await taskStatus(t, agent, taskId)).toBe('assigned');
      await act(t, worker, assignmentId, 'start').expect(200);
      expect(await taskStatus(t, agent, taskId)).toBe('in_progress');
      // A photo task needs a located photo: this one was taken at the task's own position.
      const upload = await uploadProof(
        t,
        worker,
        await jpeg({ gps: { latitude: 31.2304, longitude: 121.4737 } }),
      ).expect(201);
      const photoUrl = upload.body.url as string;
      const submitted = await submit(t, worker, assignmentId, {
        result_data: { open: true },
        worker_notes: 'Shop was open',
        photo_urls: [photoUrl],
      }).expect(200);
      expect(submitted.body).toEqual({
        assignment_id: assignmentId,
        task_id: taskId,
        status: 'submitted',
        submitted_at: expect.any(String),
      });
      expect(await taskStatus(t, agent, taskId)).toBe('submitted');
      // Readable before the verdict, so the agent reviews it first (product-decisions §10; review.e2e-spec.ts).
      const review = await t.http
        .get(`${surface.base}/${taskId}/result`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(review.body).toMatchObject({
        status: 'submitted',
        result: { data: { open: true } },
        results: [],
      });

      const fb = await t.http
        .post(`${surface.base}/${taskId}/feedback`)
        .set('Authorization', agent.key)
        .send({ accept_result: true, rating: 5, quality_score: 4.5, feedback_text: 'great' })
        .expect(200);
      expect(fb.body).toEqual({
        feedback_id: expect.any(String),
        recorded_at: expect.any(String),
        status: 'completed',
        assignment_ids: [assignmentId],
      });

      const detail = await t.http
        .get(`${surface.base}/${taskId}`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(detail.body).toMatchObject({
        task_id: taskId,
        status: 'completed',
        progress: { assigned_workers: 1, completed_workers: 1, open_slots: 0, max_workers: 1 },
        assignments: [
          // One approval rated 5, submitted within 30 minutes: 4.0 -> 4.25 (product-decisions §5).
          { assignment_id: assignmentId, worker_id: worker.id, worker_reputation: 4.25, status: 'approved' },
        ],
      });
      expect(await workerBalance(t, worker.id)).toBe(4500);
      expect((await platformFees(t)) - feesBefore).toBe(500);
      expect(await escrowOf(t, taskId)).toBe(0);
      expect(await agentBalance(t, agent.id)).toBe(15_000);

      const result = await t.http
        .get(`${surface.base}/${taskId}/result`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(result.body).toMatchObject({
        task_id: taskId,
        status: 'completed',
        result: {
          data: { open: true },
          worker_notes: 'Shop was open',
          photos: [
            {
              url: photoUrl,
              taken_at: null,
              distance_meters: 0,
              verification: expect.objectContaining({ location_source: 'exif', distance_meters: 0 }),
            },
          ],
        },
        quality_score: 4.5,
        results: [{ assignment_id: assignmentId, worker_id: worker.id }],
      });

      expect(await eventsOf(t, taskId)).toEqual(
        expect.arrayContaining([
          'assignment.accepted',
          'task.assigned',
          'assignment.started',
          'task.started',
          'assignment.submitted',
          'task.submitted',
          'assignment.approved',
          'task.completed',
        ]),
      );
    });
  });

  it('reject -> failed with a 100 % refund; the worker gets nothing', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent);
    const a = await accept(t, worker, taskId);
    await submit(t, worker, a).expect(200);
    const res = await feedback(t, agent, taskId, {
      accept_result: false,
      reason_code: 'poor_quality',
      rating: 1,
      quality_score: 0.5,
    }).expect(200);
    expect(res.body.status).toBe('failed');
    expect(await agentBalance(t, agent.id)).toBe(5000);
    expect(await workerBalance(t, worker.id)).toBe(0);
    expect(await escrowOf(t, taskId)).toBe(0);
    expect(await eventsOf(t, taskId)).toEqual(expect.arrayContaining(['assignment.rejected', 'task.failed']));
    // The rejected submission stays readable; there is no accepted result.
    const result = await t.http.get(`/v1/tasks/${taskId}/result`).set('Authorization', agent.key).expect(200);
    expect(result.body).toMatchObject({
      status: 'failed',
      result: null,
      results: [],
      submissions: [{ assignment_id: a, status: 'rejected', reason_code: 'poor_quality' }],
    });
  });

  it('a worker who abandons gives the slot back; another worker completes the task', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const [w1, w2] = [await createWorker(t), await createWorker(t)];
    const taskId = await createTask(t, agent);
    const a1 = await accept(t, w1, taskId);
    await act(t, w1, a1, 'start').expect(200);
    const abandoned = await act(t, w1, a1, 'abandon').expect(200);
    expect(abandoned.body.status).toBe('abandoned');
    expect(await taskStatus(t, agent, taskId)).toBe('pending');
    expectError(await act(t, w1, a1, 'start'), 409, 'invalid_state');
    // The same worker cannot take it again; someone else can.
    expectError(
      await t.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', w1.bearer),
      409,
      'already_assigned',
    );
    const a2 = await accept(t, w2, taskId);
    await submit(t, w2, a2).expect(200);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    expect(await workerBalance(t, w2.id)).toBe(4500);
    expect(await workerBalance(t, w1.id)).toBe(0);
    expect(await escrowOf(t, taskId)).toBe(0);
  });

  it('max_workers 3 with mixed outcomes: approved, rejected, abandoned and replaced', async () => {
    const agent = await createAgent(t, { balanceCents: 15_000 });
    const [a, b, c, d] = [
      await createWorker(t),
      await createWorker(t),
      await createWorker(t),
      await createWorker(t),
    ];
    const feesBefore = await platformFees(t);
    const taskId = await createTask(t, agent, { max_workers: 3 });
    const [aId, bId, cId] = [
      await accept(t, a, taskId),
      await accept(t, b, taskId),
      await accept(t, c, taskId),
    ];
    expectError(
      await t.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', d.bearer),
      409,
      'task_full',
    );
    await submit(t, a, aId).expect(200);
    await act(t, b, bId, 'start').expect(200);
    await submit(t, b, bId).expect(200);
    await act(t, c, cId, 'abandon').expect(200);
    expect(await taskStatus(t, agent, taskId)).toBe('submitted');
    const dId = await accept(t, d, taskId);
    expect(await taskStatus(t, agent, taskId)).toBe('assigned');

    const rejected = await feedback(t, agent, taskId, {
      accept_result: false,
      reason_code: 'incomplete',
      assignment_id: bId,
      rating: 2,
    });
    expect(rejected.status).toBe(200);
    expect(await agentBalance(t, agent.id)).toBe(5000);
    await feedback(t, agent, taskId, { accept_result: true, assignment_id: aId }).expect(200);
    expect(await taskStatus(t, agent, taskId)).toBe('assigned');
    await submit(t, d, dId).expect(200);
    const last = await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    expect(last.body).toMatchObject({ status: 'completed', assignment_ids: [dId] });

    expect(await workerBalance(t, a.id)).toBe(4500);
    expect(await workerBalance(t, b.id)).toBe(0);
    expect(await workerBalance(t, c.id)).toBe(0);
    expect(await workerBalance(t, d.id)).toBe(4500);
    expect((await platformFees(t)) - feesBefore).toBe(1000);
    expect(await agentBalance(t, agent.id)).toBe(5000);
    expect(await escrowOf(t, taskId)).toBe(0);

    const detail = await t.http.get(`/api/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    expect(detail.body.progress).toMatchObject({ assigned_workers: 2, completed_workers: 2, open_slots: 0 });
    expect(detail.body.assignments.map((x: { status: string }) => x.status)).toEqual([
      'approved',
      'rejected',
      'abandoned',
      'approved',
    ]);
    const result = await t.http
      .get(`/api/v1/tasks/${taskId}/result`)
      .set('Authorization', agent.key)
      .expect(200);
    expect(result.body.results.map((x: { assignment_id: string }) => x.assignment_id)).toEqual([aId, dId]);
    const workerEvents: { name: string }[] = await t.db.query(
      `SELECT name FROM events WHERE worker_id = $1 ORDER BY created_at`,
      [b.id],
    );
    expect(workerEvents.map((e) => e.name)).toEqual([
      'assignment.accepted',
      'assignment.started',
      'assignment.submitted',
      'assignment.rejected',
    ]);
  });

  it('feedback with nothing submitted is 409 invalid_state with current_status', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const taskId = await createTask(t, agent);
    const res = await feedback(t, agent, taskId, { accept_result: true });
    expectError(res, 409, 'invalid_state');
    expect(res.body.error.current_status).toBe('pending');
  });
});
