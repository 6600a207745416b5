import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NotificationReceiver, startNotificationReceiver } from '../contract/notification-receiver';
import { agentBalance } from '../support/balances';
import { docScript, requireTools, runBash as run } from '../support/doc-script';
import { type PaymentRig, startPaymentRig } from '../support/payment-rig';

interface Delivery {
  event: string;
  task_id: string;
  timestamp: string;
}

/**
 * docs/sandbox.md is executable: its bash steps run here, in one shell, against the real server (listening, with
 * the provider sandbox and jobs in process) and a local webhook receiver. Then the test checks what the steps did:
 * the webhooks received, the tasks' ends and the money.
 */
describe('docs/sandbox.md', () => {
  let rig: PaymentRig;
  let receiver: NotificationReceiver<Delivery>;
  const uploadDir = mkdtempSync(join(tmpdir(), 'legwork-doc-uploads-'));

  beforeAll(async () => {
    requireTools('docs/sandbox.md', ['curl', 'jq']);
    rig = await startPaymentRig({ JOBS_IN_PROCESS: 'true', UPLOAD_DIR: uploadDir });
    receiver = await startNotificationReceiver<Delivery>((req) => ({
      status: 200,
      body: 'ok',
      outcome: JSON.parse(req.rawBody.toString('utf8')) as Delivery,
    }));
  });
  afterAll(async () => {
    await receiver.close();
    await rig.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('runs its steps from registration to a reviewed task, a missed deadline and an auto-approval', async () => {
    const email = `doc-${Date.now()}@example.com`;
    const started = Date.now();
    const { code, out } = await run(docScript('docs/sandbox.md', 8), {
      BASE: rig.baseUrl,
      HOOK_URL: `${receiver.url}/legwork`,
      EMAIL: email,
    });
    if (code !== 0) throw new Error(`the steps failed (exit ${code}):\n${out}`);
    console.log(`docs/sandbox.md ran in ${Date.now() - started} ms`);

    const [agent]: { id: string }[] = await rig.t.db.query(`SELECT id FROM agents WHERE email = $1`, [email]);
    const tasks: { id: string; status: string; test_clock_id: string | null }[] = await rig.t.db.query(
      `SELECT id, status, test_clock_id FROM tasks WHERE agent_id = $1 ORDER BY created_at`,
      [agent.id],
    );
    expect(tasks.map((t) => [t.status, t.test_clock_id !== null])).toEqual([
      ['completed', false],
      ['failed', true],
      ['completed', true],
    ]);
    expect(await agentBalance(rig.t, agent.id)).toBe(90_000);
    // The comments in the page say what each status line prints.
    expect(out.split('\n').filter((l) => /^(failed|submitted|completed|90000)$/.test(l))).toEqual([
      'failed',
      'submitted',
      'completed',
      '90000',
    ]);

    const [reviewed, late, auto] = tasks.map((t) => t.id);
    await receiver.waitFor(
      (r) => r.some((x) => x.outcome?.task_id === auto && x.outcome.event === 'task.completed'),
      15_000,
    );
    const got = (taskId: string) =>
      receiver.received
        .filter((r) => r.outcome?.task_id === taskId)
        .map((r) => r.outcome!.event)
        .sort();
    // Webhooks promise delivery, not order: compared as sets.
    const lifecycle = ['task.assigned', 'task.completed', 'task.started', 'task.submitted'];
    expect(got(reviewed)).toEqual(lifecycle);
    expect(got(late)).toEqual(['task.assigned', 'task.failed']);
    expect(got(auto)).toEqual(lifecycle);
  });
});
