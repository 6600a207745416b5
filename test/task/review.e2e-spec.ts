import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createUploadTestApp, jpeg, offset, spot, uploadProof } from '../support/photos';
import type { TestApp } from '../support/app';
import { agentBalance, escrowOf, workerBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { accept, act, createTask, feedback, submit, SURFACES } from '../support/tasks';

/**
 * Reviewing before deciding (product-decisions §10): the agent reads a submission (data, notes, photos) before it accepts
 * or rejects; a rejection names a reason the worker sees (`other` when it names none); the scores are required to
 * accept only.
 */
describe('review before deciding', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createUploadTestApp();
  });
  afterAll(() => t.close());

  /** A task with one worker who submitted data, notes and a GPS photo taken 30 m from the task. */
  async function submitted(agent: TestAgent, over: Record<string, unknown> = {}) {
    const here = spot();
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent, { location: here, ...over });
    const assignmentId = await accept(t, worker, taskId);
    const photo = await jpeg({ gps: offset(here, 30), takenAt: '2030:05:06 07:08:09' });
    const url = (await uploadProof(t, worker, photo).expect(201)).body.url as string;
    await submit(t, worker, assignmentId, {
      result_data: { open: true, hours: '09:00-21:00' },
      worker_notes: 'Sign photographed from the street',
      photo_urls: [url],
    }).expect(200);
    return { worker, taskId, assignmentId, url };
  }

  const get = (agent: TestAgent, path: string) => t.http.get(path).set('Authorization', agent.key);

  describe.each(Object.values(SURFACES))('on $name', (surface) => {
    it('the agent reads the submission (data, notes, photos) in the result, the task and task.submitted before accepting', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const { worker, taskId, assignmentId, url } = await submitted(agent);
      const work = {
        data: { open: true, hours: '09:00-21:00' },
        worker_notes: 'Sign photographed from the street',
        photos: [
          {
            url,
            taken_at: '2030-05-06T07:08:09.000Z',
            distance_meters: 30,
            field: null,
            verification: expect.objectContaining({ location_source: 'exif', distance_meters: 30 }),
          },
        ],
        device_location: null,
        // Taken in 2030 (outside the assignment) by no named camera: medium, not held (product-decisions §18).
        risk: 'medium',
        review_required: false,
        review_deadline_at: null,
      };

      const result = await get(agent, `${surface.base}/${taskId}/result`).expect(200);
      expect(result.body).toEqual({
        task_id: taskId,
        status: 'submitted',
        result: work,
        completed_at: null,
        quality_score: null,
        results: [],
        submissions: [
          {
            assignment_id: assignmentId,
            worker_id: worker.id,
            status: 'submitted',
            submitted_at: expect.any(String),
            reviewed_at: null,
            reason_code: null,
            ...work,
          },
        ],
        answer_schema: null,
      });

      const detail = await get(agent, `${surface.base}/${taskId}`).expect(200);
      expect(detail.body.assignments).toEqual([
        expect.objectContaining({
          assignment_id: assignmentId,
          status: 'submitted',
          reviewed_at: null,
          reason_code: null,
          submission: work,
        }),
      ]);

      const events = await get(agent, `/v1/agent/events?type=task.submitted`).expect(200);
      const event = events.body.data.find((e: { task_id: string }) => e.task_id === taskId);
      expect(event.data).toEqual({
        task_id: taskId,
        status: 'submitted',
        previous_status: 'assigned',
        risk: 'medium',
        review_required: false,
        submissions: [
          {
            assignment_id: assignmentId,
            worker_id: worker.id,
            status: 'submitted',
            submitted_at: result.body.submissions[0].submitted_at,
            ...work,
          },
        ],
        answer_schema: null,
      });

      // Having read it, the agent accepts: the same submission is now the approved result.
      await t.http
        .post(`${surface.base}/${taskId}/feedback`)
        .set('Authorization', agent.key)
        .send({ accept_result: true, rating: 5, quality_score: 4.5 })
        .expect(200);
      const after = await get(agent, `${surface.base}/${taskId}/result`).expect(200);
      expect(after.body).toMatchObject({
        status: 'completed',
        result: work,
        completed_at: expect.any(String),
        quality_score: 4.5,
        results: [{ assignment_id: assignmentId, quality_score: 4.5 }],
        submissions: [{ assignment_id: assignmentId, status: 'approved', reviewed_at: expect.any(String) }],
      });
      expect(await workerBalance(t, worker.id)).toBe(4500);
    });

    it('a rejection takes a reason_code and no scores; the worker sees the reason with the assignment', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const { worker, taskId, assignmentId } = await submitted(agent);
      await t.http
        .post(`${surface.base}/${taskId}/feedback`)
        .set('Authorization', agent.key)
        .send({
          accept_result: false,
          reason_code: 'wrong_location',
          feedback_text: 'That is the shop next door.',
        })
        .expect(200);
      expect(await agentBalance(t, agent.id)).toBe(5000);
      expect(await escrowOf(t, taskId)).toBe(0);

      const mine = await t.http
        .get('/v1/worker/tasks/my-tasks?status=failed')
        .set('Authorization', worker.bearer)
        .expect(200);
      expect(mine.body.tasks).toEqual([
        expect.objectContaining({
          assignment_id: assignmentId,
          status: 'rejected',
          reviewed_at: expect.any(String),
          review: {
            decision: 'rejected',
            reason_code: 'wrong_location',
            feedback_text: 'That is the shop next door.',
            rating: null,
            quality_score: null,
            proof_review: null,
          },
        }),
      ]);
      const [pushed] = await t.db.query(
        `SELECT data FROM events WHERE worker_id = $1 AND name = 'assignment.rejected'`,
        [worker.id],
      );
      expect(pushed.data).toEqual({
        assignment_id: assignmentId,
        task_id: taskId,
        status: 'rejected',
        reason_code: 'wrong_location',
        feedback_text: 'That is the shop next door.',
      });

      // The agent still reads what was rejected, and why; nothing was approved.
      const result = await get(agent, `${surface.base}/${taskId}/result`).expect(200);
      expect(result.body).toMatchObject({
        status: 'failed',
        result: null,
        completed_at: null,
        results: [],
        submissions: [{ assignment_id: assignmentId, status: 'rejected', reason_code: 'wrong_location' }],
      });
      const detail = await get(agent, `${surface.base}/${taskId}`).expect(200);
      expect(detail.body.assignments[0]).toMatchObject({ status: 'rejected', reason_code: 'wrong_location' });
    });
  });

  it.each(Object.values(SURFACES))(
    'on $name, a rejection in the interface spec’s shape (no reason_code) answers 200 and refunds the slot in full; the worker sees `other` and the text',
    async (surface) => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const { worker, taskId, assignmentId } = await submitted(agent);
      expect(await agentBalance(t, agent.id)).toBe(0);
      const text = 'Too blurry to read the sign.';
      await t.http
        .post(`${surface.base}/${taskId}/feedback`)
        .set('Authorization', agent.key)
        .send({ accept_result: false, rating: 1, quality_score: 0.5, feedback_text: text })
        .expect(200);
      expect(await agentBalance(t, agent.id)).toBe(5000);
      expect(await escrowOf(t, taskId)).toBe(0);
      expect(await workerBalance(t, worker.id)).toBe(0);
      const [fb] = await t.db.query(`SELECT reason_code, rating FROM task_feedback WHERE task_id = $1`, [
        taskId,
      ]);
      expect(fb).toEqual({ reason_code: 'other', rating: 1 });

      const mine = await t.http
        .get('/v1/worker/tasks/my-tasks')
        .set('Authorization', worker.bearer)
        .expect(200);
      expect(mine.body.tasks[0]).toMatchObject({
        assignment_id: assignmentId,
        status: 'rejected',
        review: {
          decision: 'rejected',
          reason_code: 'other',
          feedback_text: text,
          rating: 1,
          quality_score: 0.5,
        },
      });
      const [pushed] = await t.db.query(
        `SELECT data FROM events WHERE worker_id = $1 AND name = 'assignment.rejected'`,
        [worker.id],
      );
      expect(pushed.data).toMatchObject({ reason_code: 'other', feedback_text: text });
    },
  );

  it('a rejection may carry scores; they count toward the worker like any rating', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const { worker, taskId } = await submitted(agent);
    await feedback(t, agent, taskId, {
      accept_result: false,
      reason_code: 'poor_quality',
      rating: 2,
      quality_score: 1.5,
    }).expect(200);
    const [fb] = await t.db.query(
      `SELECT accept_result, rating, quality_score, reason_code FROM task_feedback WHERE task_id = $1`,
      [taskId],
    );
    expect(fb).toEqual({
      accept_result: false,
      rating: 2,
      quality_score: '1.5',
      reason_code: 'poor_quality',
    });
    const mine = await t.http
      .get('/v1/worker/tasks/my-tasks')
      .set('Authorization', worker.bearer)
      .expect(200);
    expect(mine.body.tasks[0].review).toEqual({
      decision: 'rejected',
      reason_code: 'poor_quality',
      feedback_text: null,
      rating: 2,
      quality_score: 1.5,
      proof_review: null,
    });
  });

  it('an approval shows the worker the scores and no reason', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const { worker, taskId } = await submitted(agent);
    await feedback(t, agent, taskId, { accept_result: true, rating: 4, quality_score: 4 }).expect(200);
    const mine = await t.http
      .get('/v1/worker/tasks/my-tasks?status=completed')
      .set('Authorization', worker.bearer)
      .expect(200);
    expect(mine.body.tasks[0].review).toEqual({
      decision: 'approved',
      reason_code: null,
      feedback_text: null,
      rating: 4,
      quality_score: 4,
      proof_review: null,
    });
  });

  it('refused verdicts change nothing: scores missing on acceptance, reason unknown or on acceptance', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const { worker, taskId, assignmentId } = await submitted(agent);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ accept_result: true, quality_score: 4 }, 'rating', 'is required to accept a result'],
      [{ accept_result: true, rating: 4 }, 'quality_score', 'is required to accept a result'],
      [{ accept_result: false, reason_code: 'too_slow' }, 'reason_code', expect.stringContaining('one of')],
      [
        { accept_result: true, rating: 5, quality_score: 5, reason_code: 'other' },
        'reason_code',
        'is only given with a rejection',
      ],
      [{ accept_result: false, reason_code: 'other', rating: 6 }, 'rating', expect.any(String)],
    ];
    for (const [body, field, message] of cases) {
      for (const surface of Object.values(SURFACES)) {
        const res = await t.http
          .post(`${surface.base}/${taskId}/feedback`)
          .set('Authorization', agent.key)
          .send(body);
        expectError(res, 400, 'validation_error');
        expect(res.body.error.details).toContainEqual({ field, message });
      }
    }
    const [a] = await t.db.query(`SELECT status, rejection_reason_code FROM assignments WHERE id = $1`, [
      assignmentId,
    ]);
    expect(a).toEqual({ status: 'submitted', rejection_reason_code: null });
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM task_feedback WHERE task_id = $1`, [
      taskId,
    ]);
    expect(n).toBe(0);
    expect(await escrowOf(t, taskId)).toBe(5000);
    expect(await workerBalance(t, worker.id)).toBe(0);
  });

  it('before any submission the result is 404 result_not_available with the current status', async () => {
    const agent = await createAgent(t, { balanceCents: 5000 });
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent);
    for (const surface of Object.values(SURFACES)) {
      const pending = await get(agent, `${surface.base}/${taskId}/result`);
      expectError(pending, 404, 'result_not_available');
      expect(pending.body.error.current_status).toBe('pending');
    }
    const assignmentId = await accept(t, worker, taskId);
    await act(t, worker, assignmentId, 'start').expect(200);
    const working = await get(agent, `/v1/tasks/${taskId}/result`);
    expectError(working, 404, 'result_not_available');
    expect(working.body.error.current_status).toBe('in_progress');
    const detail = await get(agent, `/v1/tasks/${taskId}`).expect(200);
    expect(detail.body.assignments[0].submission).toBeNull();
  });

  it('with several workers, every submission reaches the agent in task.submitted, even while others still work', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const here = spot();
    const taskId = await createTask(t, agent, { location: here, max_workers: 2 });
    const workers: TestWorker[] = [await createWorker(t), await createWorker(t)];
    const [first, second] = [await accept(t, workers[0], taskId), await accept(t, workers[1], taskId)];
    await act(t, workers[1], second, 'start').expect(200);
    await submit(t, workers[0], first, { result_data: { n: 1 } }).expect(200);
    await submit(t, workers[1], second, { result_data: { n: 2 } }).expect(200);

    const events = await get(agent, `/v1/agent/events?type=task.submitted`).expect(200);
    const mine = events.body.data
      .filter((e: { task_id: string }) => e.task_id === taskId)
      .reverse()
      .map((e: { data: { status: string; previous_status: string; submissions: { data: unknown }[] } }) => ({
        status: e.data.status,
        previous_status: e.data.previous_status,
        results: e.data.submissions.map((s) => s.data),
      }));
    expect(mine).toEqual([
      { status: 'in_progress', previous_status: 'in_progress', results: [{ n: 1 }] },
      { status: 'submitted', previous_status: 'in_progress', results: [{ n: 1 }, { n: 2 }] },
    ]);

    // One reviewed, the other still awaiting: the next event lists only what awaits review.
    await feedback(t, agent, taskId, {
      accept_result: false,
      reason_code: 'incomplete',
      assignment_id: first,
    }).expect(200);
    const result = await get(agent, `/v1/tasks/${taskId}/result`).expect(200);
    expect(result.body.result.data).toEqual({ n: 2 });
    expect(result.body.submissions.map((s: { status: string }) => s.status)).toEqual([
      'rejected',
      'submitted',
    ]);
  });
});
