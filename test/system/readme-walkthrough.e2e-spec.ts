import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentBalance, escrowOf, platformFees, workerBalance } from '../support/balances';
import { CLIS } from '../support/process';
import { databaseUrl } from '../support/databases';
import { docScript, requireTools, runBash } from '../support/doc-script';
import { startPaymentRig, type PaymentRig } from '../support/payment-rig';

/**
 * The README's "First steps" run as pasted: every ```bash block of that section in one shell, against the real
 * server listening on a port with the provider sandbox and jobs in process, the shipped examples/storefront.jpg
 * uploaded from the checkout. `npm run ledger:check` in the last step checks this server's database
 * (DATABASE_URL), so the run needs `npm run build`. Then the test checks what the steps did: the task ended, the
 * money moved, the ledger is clean.
 */
describe('README.md walkthrough', () => {
  let rig: PaymentRig;
  const uploadDir = mkdtempSync(join(tmpdir(), 'legwork-readme-uploads-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'legwork-readme-data-'));

  beforeAll(async () => {
    requireTools('README.md', ['curl', 'jq']);
    if (!existsSync(CLIS['ledger:check']))
      throw new Error('README.md runs npm run ledger:check: run npm run build first');
    rig = await startPaymentRig({ JOBS_IN_PROCESS: 'true', UPLOAD_DIR: uploadDir });
  });
  afterAll(async () => {
    await rig.close();
    rmSync(uploadDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('registers, funds, quotes and posts a task, a worker does it with the sample photo, the agent accepts', async () => {
    const email = `readme-${Date.now()}@example.com`;
    const script = docScript('README.md', 5, '## First steps');
    const started = Date.now();
    const { code, out } = await runBash(script, {
      B: rig.baseUrl,
      EMAIL: email,
      DATABASE_URL: databaseUrl(rig.t.databaseName),
      // Where the CLI keeps what it generates (sandbox secrets): not the checkout's .data.
      DATA_DIR: dataDir,
    });
    if (code !== 0) throw new Error(`the steps failed (exit ${code}):\n${out}`);
    console.log(`README walkthrough ran in ${Date.now() - started} ms`);

    const [agent]: { id: string }[] = await rig.t.db.query(`SELECT id FROM agents WHERE email = $1`, [email]);
    const [task]: { id: string; status: string }[] = await rig.t.db.query(
      `SELECT id, status FROM tasks WHERE agent_id = $1`,
      [agent.id],
    );
    expect(task.status).toBe('completed');
    const [assignment]: { worker_id: string; status: string }[] = await rig.t.db.query(
      `SELECT worker_id, status FROM assignments WHERE task_id = $1`,
      [task.id],
    );
    expect(assignment.status).toBe('approved');
    // 500.00 funded, 50.00 spent: 45.00 to the worker, 5.00 platform fee, nothing left in escrow.
    expect(await agentBalance(rig.t, agent.id)).toBe(45_000);
    expect(await workerBalance(rig.t, assignment.worker_id)).toBe(4_500);
    expect(await platformFees(rig.t)).toBe(500);
    expect(await escrowOf(rig.t, task.id)).toBe(0);

    // What the page's comments say the steps print.
    const lines = out.split('\n');
    expect(lines).toContain('{"status":"submitted","distance_meters":15}');
    expect(lines.filter((l) => /^(completed|45000|4500)$/.test(l))).toEqual(['completed', '45000', '4500']);
    expect(lines).toContain('{"ok":true,"violations":[]}');
    for (const event of ['task.assigned', 'task.started', 'task.submitted', 'task.completed'])
      expect(lines.some((l) => l.trim() === `1 ${event}`)).toBe(true);
  });
});
