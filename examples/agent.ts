/**
 * An agent with @legwork/sdk, start to finish in the sandbox: quote a photo task, top the balance up with test money
 * when the quote says it falls short, post the task, add a simulated worker beside it, wait for the submission,
 * read it and decide. Each step prints one JSON line.
 *
 *   LEGWORK_API_KEY=lw_test_... LEGWORK_BASE_URL=http://localhost:8000 node dist/examples/agent.js
 *
 * (`npm run build` compiles the SDK; `npx tsc -p examples/tsconfig.build.json` compiles this file to dist/examples.
 * In a project of your own, `npx tsx agent.ts` runs it as it is.)
 */
import { Legwork, LegworkConflictError, type Schemas } from '@legwork/sdk';

const legwork = new Legwork(); // LEGWORK_API_KEY and LEGWORK_BASE_URL from the environment

const print = (step: string, fields: object) => console.log(JSON.stringify({ step, ...fields }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the task until a worker has submitted (or it ended without a result). Webhooks tell you sooner. */
async function waitForSubmission(taskId: string, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status } = await legwork.tasks.get(taskId);
    if (!['pending', 'assigned', 'in_progress'].includes(status)) return status;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${status} after ${timeoutMs} ms`);
    await sleep(1000);
  }
}

/** Accept a submission whose photo was checked within the task's place and whose data answers the question. */
function verdict(submission: Schemas['SubmissionView']): Schemas['TaskFeedbackRequest'] {
  const placed = submission.photos.length > 0 && submission.photos.every((p) => p.distance_meters !== null);
  if (!placed)
    return { accept_result: false, reason_code: 'wrong_location', feedback_text: 'No located photo.' };
  return { accept_result: true, rating: 5, quality_score: 4.5, assignment_id: submission.assignment_id };
}

async function main(): Promise<void> {
  const task: Schemas['CreateTaskRequest'] = {
    title: 'Photograph the storefront',
    description: 'One photo of the shop front with its opening hours.',
    location: { latitude: 31.2304, longitude: 121.4737, address: 'Century Avenue 88' },
    budget_cents: 5000,
    deadline_at: new Date(Date.now() + 2 * 3600_000).toISOString(),
    task_type: 'photo',
  };

  const quote = await legwork.tasks.quote(task);
  print('quote', { total_cents: quote.total_to_hold_cents, covers: quote.balance.covers });
  if (!quote.balance.covers) {
    // Sandbox only: test money at once (at least 1.00). In live mode: legwork.payments.create(...).
    const funded = await legwork.sandbox.balance.fund({
      amount_cents: Math.max(quote.balance.shortfall_cents, 100),
    });
    print('funded', { balance_cents: funded.balance_cents });
  }

  // A fixed key per task you mean to create: run this twice in a second and the second answer is the first task.
  const created = await legwork.tasks.create(task, {
    idempotencyKey: `storefront-${Math.floor(Date.now() / 1000)}`,
  });
  print('created', { task_id: created.task_id, status: created.status });

  const worker = await legwork.sandbox.workers.create({
    name: 'Reliable Li',
    persona: 'reliable',
    near_task: { task_id: created.task_id, distance_m: 40 },
  });
  print('simulated worker', { worker_id: worker.worker_id });

  const status = await waitForSubmission(created.task_id);
  if (status !== 'submitted') throw new Error(`the task ended ${status} without a result`);

  const { submissions } = await legwork.tasks.result(created.task_id);
  for (const submission of submissions.filter((s) => s.status === 'submitted')) {
    print('submission', {
      assignment_id: submission.assignment_id,
      data: submission.data,
      photos: submission.photos.map((p) => ({ url: p.url, distance_meters: p.distance_meters })),
    });
    const review = await legwork.tasks.review(created.task_id, verdict(submission));
    print('reviewed', { status: review.status });
  }

  // Typed errors carry the envelope's fields: a completed task cannot be cancelled.
  try {
    await legwork.tasks.cancel(created.task_id);
  } catch (err) {
    if (!(err instanceof LegworkConflictError)) throw err;
    print('cancel refused', { code: err.code, current_status: err.current_status });
  }

  const { balance_cents } = await legwork.balance.retrieve();
  print('done', {
    task_id: created.task_id,
    status: (await legwork.tasks.get(created.task_id)).status,
    balance_cents,
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
