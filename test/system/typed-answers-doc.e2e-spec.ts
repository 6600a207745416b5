import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docScript, requireTools, runBash } from '../support/doc-script';
import { type PaymentRig, startPaymentRig } from '../support/payment-rig';

/**
 * docs/typed-answers.md is executable: its bash steps run in one shell against the real server (listening, provider
 * sandbox and jobs in process, so the simulated workers act), then the test checks what they did: the refused
 * schema, the refused wrong answers, the typed answers of the task and the export's header.
 */
describe('docs/typed-answers.md', () => {
  let rig: PaymentRig;
  const uploadDir = mkdtempSync(join(tmpdir(), 'legwork-answers-doc-'));

  beforeAll(async () => {
    requireTools('docs/typed-answers.md', ['curl', 'jq', 'od']);
    rig = await startPaymentRig({ JOBS_IN_PROCESS: 'true', UPLOAD_DIR: uploadDir });
  });
  afterAll(async () => {
    await rig.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('runs its steps: a refused schema, refused wrong answers, typed answers and their export', async () => {
    const email = `answers-doc-${Date.now()}@example.com`;
    const { code, out } = await runBash(
      docScript('docs/typed-answers.md', 6),
      { B: rig.baseUrl, EMAIL: email },
      180_000,
    );
    if (code !== 0) throw new Error(`the steps failed (exit ${code}):\n${out}`);
    const lines = out.split('\n');
    expect(lines).toContain(
      JSON.stringify({
        code: 'validation_error',
        details: [
          {
            field: 'answer_schema.properties.open.title',
            message: 'is required: the question the worker sees, 1 to 100 characters',
          },
        ],
      }),
    );
    expect(lines).toContain('submitted');
    expect(lines).toContain(' ef bb bf');
    expect(lines).toContain(
      'task_id,task_title,assignment_id,worker_id,status,submitted_at,reviewed_at,open,queue,kind,payment,storefront,photos,verification',
    );

    const [task]: { id: string }[] = await rig.t.db.query(
      `SELECT t.id FROM tasks t JOIN agents a ON a.id = t.agent_id WHERE a.email = $1 AND t.answer_schema IS NOT NULL`,
      [email],
    );
    const actions: { persona: string; step: string; outcome: string }[] = await rig.t.db.query(
      `SELECT sw.persona, sa.step, sa.outcome FROM sandbox_actions sa JOIN sandbox_workers sw ON sw.worker_id = sa.worker_id
        WHERE sa.task_id = $1 AND sa.step = 'submit'`,
      [task.id],
    );
    expect(actions.map((a) => `${a.persona}:${a.outcome}`).sort()).toEqual([
      'reliable:ok',
      'wrong_answers:answer_invalid',
    ]);
    const [submitted]: { result_data: Record<string, unknown>; photos: { field: string | null }[] }[] =
      await rig.t.db.query(
        `SELECT result_data, photos FROM assignments WHERE task_id = $1 AND status = 'submitted'`,
        [task.id],
      );
    expect(submitted.result_data).toMatchObject({
      open: true,
      kind: 'bakery',
      queue: 100,
      payment: ['cash'],
    });
    expect(submitted.photos.map((p) => p.field)).toContain('storefront');
  }, 240_000);
});
