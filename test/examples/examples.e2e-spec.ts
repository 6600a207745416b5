import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { registerAgent, type RegisteredAgent } from '../support/agents';
import { agentBalance, escrowOf, workerBalance } from '../support/balances';
import { exitOf, startNode, type Started, stop } from '../support/process';
import { REPO_ROOT } from '../support/doc-script';
import { startPaymentRig, type PaymentRig } from '../support/payment-rig';
import { waitFor } from '../support/waiters';

/**
 * examples/ and the SDK's README quickstart, compiled and run the way an SDK user would: tsc against the built
 * package through its exports map (not the repository's path alias), the examples as CommonJS, the quickstart as an
 * ES module, each then run by node as a child process against the real server listening on a port (provider
 * sandbox and jobs in process). Needs `npm run build` (the SDK's dist/).
 */
// The two compilations take about 7 s of CPU; on the 2-core machine at load 12 the hook took over two minutes.
jest.setTimeout(300_000);

const run = promisify(execFile);
const TSC = require.resolve('typescript/bin/tsc');

/** tsc in the checkout's root; a failure carries the compiler's own report. */
async function tsc(args: string[]): Promise<void> {
  try {
    await run(process.execPath, [TSC, ...args], { cwd: REPO_ROOT });
  } catch (err) {
    throw new Error(`tsc ${args.join(' ')}:\n${(err as { stdout?: string }).stdout ?? String(err)}`);
  }
}
const EXAMPLES = join(REPO_ROOT, 'dist/examples');
const QUICKSTART = join(REPO_ROOT, 'dist/sdk-readme');

/** The ```ts block under "## Quickstart" in packages/sdk/README.md. */
function quickstartSource(): string {
  const readme = readFileSync(join(REPO_ROOT, 'packages/sdk/README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Quickstart'),
    readme.indexOf('\n## ', readme.indexOf('## Quickstart')),
  );
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(section);
  if (!block) throw new Error('packages/sdk/README.md: no ts block under "## Quickstart"');
  return block[1];
}

function lines(s: Started): Record<string, unknown>[] {
  return s
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('examples/ and the SDK quickstart against the real service', () => {
  let rig: PaymentRig;
  const uploadDir = mkdtempSync(join(tmpdir(), 'legwork-examples-uploads-'));

  beforeAll(async () => {
    if (!existsSync(join(REPO_ROOT, 'packages/sdk/dist/index.js')))
      throw new Error('the SDK is not built: run npm run build first');
    // The examples as a CommonJS project compiles them (examples/tsconfig.build.json)...
    await run(process.execPath, [TSC, '-p', join(REPO_ROOT, 'examples/tsconfig.build.json')], {
      cwd: REPO_ROOT,
    });
    // ...and the quickstart as an ES module (.mts), with the same resolution of @legwork/sdk (the package's
    // declaration files were checked just above: skipLibCheck saves two thirds of this compilation).
    rmSync(QUICKSTART, { recursive: true, force: true });
    mkdirSync(join(QUICKSTART, 'src'), { recursive: true });
    writeFileSync(join(QUICKSTART, 'src/quickstart.mts'), quickstartSource());
    const moduleFlags = ['--module', 'node20', '--moduleResolution', 'node16', '--target', 'ES2022'];
    const checks = ['--strict', '--skipLibCheck', '--types', 'node'];
    const source = join(QUICKSTART, 'src/quickstart.mts');
    await tsc(['--ignoreConfig', ...moduleFlags, ...checks, '--outDir', join(QUICKSTART, 'out'), source]);
    rig = await startPaymentRig({ JOBS_IN_PROCESS: 'true', UPLOAD_DIR: uploadDir });
  });
  afterAll(async () => {
    await rig?.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  const sdkEnv = (agent: RegisteredAgent) => ({
    LEGWORK_API_KEY: agent.apiKey,
    LEGWORK_BASE_URL: rig.baseUrl,
  });

  it('the webhook receiver registers itself and verifies every delivery of the agent example’s task', async () => {
    const agent = await registerAgent(rig.t);
    const receiver = startNode(
      join(EXAMPLES, 'webhook-receiver.js'),
      [],
      { ...sdkEnv(agent), PORT: '0' },
      {
        defaults: false,
      },
    );
    try {
      const listening = await waitFor(
        () => lines(receiver).find((l) => typeof l.listening === 'string')?.listening as string | undefined,
        'the receiver to listen',
        30_000,
      );

      const example = startNode(join(EXAMPLES, 'agent.js'), [], sdkEnv(agent), { defaults: false });
      const code = await exitOf(example);
      if (code !== 0) throw new Error(`examples/agent.ts exited ${code}:\n${example.output()}`);
      const steps = lines(example);
      expect(steps.map((s) => s.step)).toEqual([
        'quote',
        'funded',
        'created',
        'simulated worker',
        'submission',
        'reviewed',
        'cancel refused',
        'done',
      ]);
      const taskId = steps.find((s) => s.step === 'created')!.task_id as string;
      expect(steps.at(-1)).toEqual({ step: 'done', task_id: taskId, status: 'completed', balance_cents: 0 });
      expect(steps.find((s) => s.step === 'cancel refused')).toMatchObject({
        code: 'invalid_state',
        current_status: 'completed',
      });

      // The money: the shortfall funded (5000), all of it spent, 4500 to the worker, nothing left in escrow.
      const [assignment]: { worker_id: string; status: string }[] = await rig.t.db.query(
        `SELECT worker_id, status FROM assignments WHERE task_id = $1`,
        [taskId],
      );
      expect(assignment.status).toBe('approved');
      expect(await agentBalance(rig.t, agent.id)).toBe(0);
      expect(await workerBalance(rig.t, assignment.worker_id)).toBe(4_500);
      expect(await escrowOf(rig.t, taskId)).toBe(0);

      // Every delivery about the task verified by the SDK (delivery is promised, not order: compared as a set).
      const verified = () =>
        lines(receiver)
          .filter((l) => l.verified === true && l.task_id === taskId)
          .map((l) => l.event as string)
          .sort();
      await waitFor(
        () => verified().includes('task.completed') || undefined,
        'task.completed delivered',
        30_000,
      );
      expect(verified()).toEqual(['task.assigned', 'task.completed', 'task.started', 'task.submitted']);
      expect(lines(receiver).filter((l) => l.verified === false)).toEqual([]);

      // A forged delivery (signed with another secret) is refused with 400 and trusted nowhere.
      const body = JSON.stringify({ event: 'task.completed', event_id: 'forged', task_id: taskId });
      const forged = await fetch(listening, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'legwork-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
        },
        body,
      });
      expect(forged.status).toBe(400);
      // Its line reaches our pipe after the answer reached us.
      await waitFor(
        () => lines(receiver).some((l) => l.verified === false) || undefined,
        'the refusal logged',
      );
      expect(lines(receiver).filter((l) => l.verified === false)).toEqual([
        { verified: false, reason: 'Legwork-Signature does not match the body and secret' },
      ]);
    } finally {
      await stop(receiver);
    }
  });

  it('the SDK README quickstart runs as an ES module', async () => {
    const agent = await registerAgent(rig.t);
    const quickstart = startNode(join(QUICKSTART, 'out/quickstart.mjs'), [], sdkEnv(agent), {
      defaults: false,
    });
    const code = await exitOf(quickstart);
    if (code !== 0) throw new Error(`the quickstart exited ${code}:\n${quickstart.output()}`);
    const out = quickstart.output().split('\n');
    expect(out).toContain('completed');
    expect(out).toContain('invalid_state completed');
    const [task]: { status: string }[] = await rig.t.db.query(
      `SELECT status FROM tasks WHERE agent_id = $1`,
      [agent.id],
    );
    expect(task.status).toBe('completed');
    expect(await agentBalance(rig.t, agent.id)).toBe(95_000);
  });

  it('the package exports what its exports map names, and npm packs those files', async () => {
    const { stdout } = await run(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts', '-w', '@legwork/sdk'],
      {
        cwd: REPO_ROOT,
      },
    );
    const [packed] = JSON.parse(stdout) as { files: { path: string }[] }[];
    const files = new Set(packed.files.map((f) => f.path));
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/sdk/package.json'), 'utf8')) as {
      exports: Record<string, string | Record<string, string>>;
    };
    const targets = Object.values(pkg.exports).flatMap((t) =>
      typeof t === 'string' ? [t] : Object.values(t),
    );
    expect(targets.map((t) => t.replace(/^\.\//, '')).filter((t) => !files.has(t))).toEqual([]);
    // Both module systems load the built package by its name and see the same classes.
    const probe = `const c = require('@legwork/sdk'); import('@legwork/sdk').then((m) => console.log(
      [typeof m.Legwork, m.Legwork === c.Legwork, typeof m.verifyWebhook, m.LegworkConflictError === c.LegworkConflictError].join(' ')));`;
    const { stdout: loaded } = await run(process.execPath, ['-e', probe], { cwd: REPO_ROOT });
    expect(loaded.trim()).toBe('function true function true');
  });
});
