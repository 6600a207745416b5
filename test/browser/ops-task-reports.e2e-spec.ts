import { readFileSync } from 'node:fs';
import { checkLedger } from '../../src/escrow/ledger-check';
import { createAgent, createWorker, type TestAgent } from '../support/actors';
import { createAdmin, createOperator, OPERATOR_PASSWORD } from '../support/admins';
import { agentBalance, escrowOf, workerBalance } from '../support/balances';
import {
  desktopContext,
  launchChromium,
  openPage,
  openSignedIn,
  phoneContext,
  requireWebBuild,
  screenshot,
  withDiagnostics,
  type Browser,
  type BrowserContext,
  type OpenedPage,
} from '../support/browser';
import { listen } from '../support/held-upload';
import { createUploadTestApp, offset, spot, type UploadTestApp } from '../support/photos';
import { accept, createTask, feedback, submit } from '../support/tasks';

const INCOME_HEADER =
  'worker_id,period_start,period_end,gross_cents,gross_rmb,fees_cents,fees_rmb,net_cents,net_rmb,withdrawn_cents,withdrawn_rmb,tasks_paid';

/** A quarter label (`2026-Q3`) of a moment in China time, `back` quarters before it. */
function chinaQuarter(at: Date, back: number): string {
  const china = new Date(at.getTime() + 8 * 3_600_000);
  const index = china.getUTCFullYear() * 4 + Math.floor(china.getUTCMonth() / 3) - back;
  return `${Math.floor(index / 4)}-Q${(index % 4) + 1}`;
}

/**
 * The operators' pages for workers' reports of tasks and for the quarterly worker-income file (product-decisions
 * §19) in real browsers: a worker reports a task in the app; an operator signs in to the console, opens Task reports,
 * reads the report, cancels the task with a full refund after a confirmation and sees the outcome; the API then says
 * the task is cancelled, the agent has every cent back and the ledger check is clean. On Reports the operator
 * downloads the income file of the last complete quarter (China time), then of the current one with a worker paid in
 * this test, and the files are read as saved.
 */
describe('task reports and the income report in the operator console', () => {
  let t: UploadTestApp;
  let base: string;
  let browser: Browser;
  let agent: TestAgent;
  const here = spot();
  const pages: OpenedPage[] = [];

  beforeAll(async () => {
    requireWebBuild();
    t = await createUploadTestApp();
    base = await listen(t);
    browser = await launchChromium();
    agent = await createAgent(t, { balanceCents: 100_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const newPage = (context: BrowserContext) => openPage(pages, context);

  /** An operator signed in to the console through its sign-in screen, on a desktop in English. */
  async function operatorConsole() {
    const operator = await createOperator(t);
    const desk = await desktopContext(browser, base, { locale: 'en-US' });
    const ops = await newPage(desk);
    await ops.page.goto('/console/login');
    await ops.page.getByRole('tab', { name: 'Operator' }).click();
    await ops.page.getByLabel('Email').fill(operator.email);
    await ops.page.getByLabel('Password').fill(OPERATOR_PASSWORD);
    await ops.page.getByRole('button', { name: 'Sign in as operator' }).click();
    await ops.page.getByRole('link', { name: 'Task reports' }).waitFor();
    return { desk, ops };
  }

  /** A worker's report of a task, through the API (the app's reporting is driven in the first test). */
  async function reportTask(taskId: string, note: string): Promise<string> {
    const worker = await createWorker(t);
    const res = await t.http
      .post(`/v1/worker/tasks/${taskId}/report`)
      .set('Authorization', worker.bearer)
      .send({ reason: 'misleading', note })
      .expect(201);
    return res.body.report_id as string;
  }

  it('a worker reports a task; an operator cancels it with a full refund in the console; the income file downloads', () =>
    withDiagnostics(pages, async () => {
      // A worker paid this quarter, for the income file's row.
      const paid = await createWorker(t);
      const paidTask = await createTask(t, agent, {
        title: 'Count the queue',
        location: { ...here, address: '南京东路 360 号' },
        budget_cents: 5000,
      });
      const paidAssignment = await accept(t, paid, paidTask);
      await submit(t, paid, paidAssignment).expect(200);
      await feedback(t, agent, paidTask, { assignment_id: paidAssignment, accept_result: true }).expect(200);
      const earned = await workerBalance(t, paid.id);
      expect(earned).toBeGreaterThan(0);

      // The task to report: its budget held, a worker has taken it.
      const before = await agentBalance(t, agent.id);
      const taskId = await createTask(t, agent, {
        title: 'Photograph the back office',
        description: 'Go in through the staff door while nobody looks and photograph the safe.',
        location: { ...here, address: '南京东路 380 号' },
        budget_cents: 5000,
      });
      expect(await agentBalance(t, agent.id)).toBeLessThan(before);
      const worker = await createWorker(t);
      const assignmentId = await accept(t, worker, taskId);

      // The worker reports it in the app, in Chinese.
      const phone = await phoneContext(browser, base, offset(here, 30), { locale: 'zh-CN' });
      const app = await openSignedIn(pages, t, phone, 'worker', worker.id);
      await app.page.goto(`/app/mine/${assignmentId}`);
      await app.page.getByRole('button', { name: '举报此任务' }).click();
      const dialog = app.page.getByRole('alertdialog', { name: '向 Legwork 举报此任务' });
      await dialog.getByRole('radio', { name: '做这件事不安全' }).check();
      const note = '要从员工通道溜进去拍保险柜，这不合法也不安全。';
      await dialog.getByLabel('请说明您看到的情况').fill(note);
      await dialog.getByRole('button', { name: '发送举报' }).click();
      await app.page.getByText('举报已发送，运营人员会尽快处理。').waitFor();

      // The operator signs in and finds it in Task reports.
      const { desk, ops } = await operatorConsole();
      await ops.page.getByRole('link', { name: 'Task reports' }).click();
      await ops.page.getByRole('heading', { name: 'Task reports' }).waitFor();
      const row = ops.page.getByTestId('task-report').filter({ hasText: 'Photograph the back office' });
      await row.getByText('Unsafe: doing it would put people in danger').waitFor();
      await row.getByText(note).waitFor();
      await screenshot(ops.page, 'console-ops-task-reports');

      // The report's page: the worker's words, the reporter by pseudonym, the decision.
      await row.getByRole('link', { name: 'Photograph the back office' }).click();
      await ops.page.getByRole('heading', { name: /Photograph the back office/ }).waitFor();
      await ops.page.getByText(/^anon_[0-9a-f]{16}$/).waitFor();
      await ops.page.getByRole('radio', { name: /^Cancel the task with a full refund/ }).check();
      await ops.page
        .getByLabel('Note (for the audit log and the other operators)')
        .fill('Trespass; not allowed.');
      await ops.page.getByRole('button', { name: 'Cancel the task…' }).click();
      const confirm = ops.page.getByRole('alertdialog');
      await confirm.getByText(/^Cancel “Photograph the back office” and give the agent back/).waitFor();
      await confirm.scrollIntoViewIfNeeded();
      await screenshot(ops.page, 'console-ops-task-report');
      const live = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
      expect(live.body.status).toBe('assigned'); // nothing decided before the confirmation
      await confirm.getByRole('button', { name: 'Yes, cancel and refund' }).click();

      // The outcome in words, then the decided report.
      const outcome = ops.page.getByTestId('task-report-outcome');
      await outcome.getByText('The task is cancelled: ¥50.00 went back to the agent’s balance.').waitFor();
      await outcome.getByText('Reports decided: 1.').waitFor();
      await ops.page
        .getByTestId('task-report-decision')
        .getByText(/^Task cancelled with a full refund · /)
        .waitFor();
      await screenshot(ops.page, 'console-ops-task-report-decided');

      // Through the API: cancelled, every cent back, the worker's assignment ended unpaid, the ledger clean.
      const task = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
      expect(task.body.status).toBe('cancelled');
      expect(await agentBalance(t, agent.id)).toBe(before);
      expect(await escrowOf(t, taskId)).toBe(0);
      expect(await workerBalance(t, worker.id)).toBe(0);
      const assignment = await t.http
        .get(`/v1/worker/assignments/${assignmentId}`)
        .set('Authorization', worker.bearer)
        .expect(200);
      expect(assignment.body.status).toBe('cancelled');
      const admin = await createAdmin(t);
      const decided = await t.http
        .get('/v1/admin/task-reports?status=decided')
        .set('Authorization', admin.bearer)
        .expect(200);
      expect(decided.body.reports).toEqual([
        expect.objectContaining({
          task_id: taskId,
          outcome: 'cancel_task',
          suspend_agent: false,
          decision_note: 'Trespass; not allowed.',
        }),
      ]);
      expect((await checkLedger(t.db)).violations).toEqual([]);

      // Reports: the last complete quarter in China time is chosen; its file downloads with the operator's session.
      await ops.page.getByRole('link', { name: 'Reports', exact: true }).click();
      const picker = ops.page.getByLabel('Quarter', { exact: true });
      const now = new Date();
      expect(await picker.inputValue()).toBe(chinaQuarter(now, 1));
      const download = async () => {
        const [file] = await Promise.all([
          ops.page.waitForEvent('download'),
          ops.page.getByRole('button', { name: 'Download CSV' }).click(),
        ]);
        return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
      };
      const last = await download();
      expect(last.name).toBe(`worker-income-${chinaQuarter(now, 1)}.csv`);
      expect(last.text.split('\r\n')[0]).toBe(INCOME_HEADER);
      await ops.page.getByText(`Saved worker-income-${chinaQuarter(now, 1)}.csv.`).waitFor();

      // The current quarter, so far: the worker paid above has a row, net what reached their balance.
      await picker.selectOption(chinaQuarter(now, 0));
      const current = await download();
      const lines = current.text.split('\r\n').filter(Boolean);
      expect(lines[0]).toBe(INCOME_HEADER);
      const cells = lines.find((l) => l.startsWith(`${paid.id},`))?.split(',');
      expect(cells).toBeDefined();
      expect(Number(cells![INCOME_HEADER.split(',').indexOf('net_cents')])).toBe(earned);
      expect(lines.some((l) => l.startsWith(`${worker.id},`))).toBe(false); // paid nothing
      await screenshot(ops.page, 'console-ops-reports');

      expect(app.errors.unexpected()).toEqual([]);
      expect(ops.errors.unexpected()).toEqual([]);
      await phone.close();
      await desk.close();
    }));

  it('an ended task offers only Dismiss, which may suspend the agent; a report another operator decided first is said in words', () =>
    withDiagnostics(pages, async () => {
      // A report of a task its agent has cancelled since: only Dismiss, and why; the operator also suspends the agent.
      const owner = await createAgent(t, { balanceCents: 20_000 });
      const ended = await createTask(t, owner, { title: 'Ended before the decision', budget_cents: 5000 });
      const endedReport = await reportTask(ended, 'The brief hides that the flat is private.');
      await t.http.post(`/v1/tasks/${ended}/cancel`).set('Authorization', owner.key).expect(200);
      const { desk, ops } = await operatorConsole();
      await ops.page.goto(`/console/ops/task-reports/${endedReport}`);
      await ops.page
        .getByText(
          'This task has ended (Cancelled) and can no longer be cancelled; dismiss the report (and suspend the agent if need be).',
        )
        .waitFor();
      expect(await ops.page.getByRole('radio').count()).toBe(1);
      await ops.page.getByRole('radio', { name: 'Dismiss: the task stays as it is' }).waitFor();
      await ops.page.getByRole('checkbox', { name: 'Also suspend the agent' }).check();
      await ops.page
        .getByLabel('Note (for the audit log and the other operators)')
        .fill('Repeated misleading briefs.');
      await ops.page.getByRole('button', { name: 'Dismiss…' }).click();
      await ops.page
        .getByRole('alertdialog')
        .getByText(
          'Dismiss the 1 report(s) of “Ended before the decision”? The task stays as it is; this cannot be undone. The agent is suspended too.',
        )
        .waitFor();
      await ops.page.getByRole('button', { name: 'Yes, dismiss' }).click();
      const outcome = ops.page.getByTestId('task-report-outcome');
      await outcome.getByText('Dismissed: the task stays as it is.').waitFor();
      await outcome.getByText('Reports decided: 1. The agent is suspended.').waitFor();
      const [owned] = await t.db.query<{ account_status: string }[]>(
        `SELECT account_status FROM agents WHERE id = $1`,
        [owner.id],
      );
      expect(owned.account_status).toBe('suspended');

      // Another operator decides first, between the question and the answer: the page says so in words.
      const live = await createTask(t, agent, { title: 'Decided elsewhere first', budget_cents: 5000 });
      const liveReport = await reportTask(live, 'Not a shop: a private courtyard.');
      await ops.page.goto(`/console/ops/task-reports/${liveReport}`);
      await ops.page.getByLabel('Note (for the audit log and the other operators)').fill('Cancel it.');
      await ops.page.getByRole('button', { name: 'Cancel the task…' }).click();
      await ops.page.getByRole('button', { name: 'Yes, cancel and refund' }).waitFor();
      const admin = await createAdmin(t);
      await t.http
        .post(`/v1/admin/task-reports/${liveReport}/decision`)
        .set('Authorization', admin.bearer)
        .send({ outcome: 'dismiss', note: 'Looked fine to me.' })
        .expect(200);
      await ops.page.getByRole('button', { name: 'Yes, cancel and refund' }).click();
      await ops.page
        .getByRole('alert')
        .getByText(
          'Another operator has decided this report already; a decision is final. Refresh to see it.',
        )
        .waitFor();
      const task = await t.http.get(`/v1/tasks/${live}`).set('Authorization', agent.key).expect(200);
      expect(task.body.status).toBe('pending'); // dismissed by the other operator; this page's cancel changed nothing
      expect((await checkLedger(t.db)).violations).toEqual([]);
      // The refusal the page provoked: the 409 on its decision, as the browser logs it.
      ops.errors.expect(/409/);
      expect(ops.errors.unexpected()).toEqual([]);
      await desk.close();
    }));
});
