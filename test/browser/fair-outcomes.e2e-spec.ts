import { createOrUpdateAdmin } from '../../src/admin/admin-accounts';
import { createAgent, createWorker, type TestAgent, type TestWorker } from '../support/actors';
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
import { createUploadTestApp, jpeg, offset, spot, type UploadTestApp } from '../support/photos';
import { accept, createTask, feedback, submit } from '../support/tasks';
import { waitFor } from '../support/waiters';

/**
 * Fair outcomes in real browsers (product-decisions §19): a worker on a phone in Chinese reports that the shop was
 * closed, with a photo, and sees what the report pays; the agent reads it in the console and accepts it; the worker
 * sees it accepted. A worker asks the agent a question in the app and the agent answers from the task page, each side
 * seeing the other's words live, as plain text, with unread counts. Another worker disputes a rejection, the agent
 * answers under the console's banner, an operator splits it in the console's queue, and both sides see the decision.
 * States are asserted through the API as well.
 * Workers and agents are fixtures signed in by a refresh token in storage (the sign-in screens have their own tests).
 */
describe('fair outcomes in the worker app and the console', () => {
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
    agent = await createAgent(t, { balanceCents: 1_000_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signedIn = (context: BrowserContext, who: 'worker' | 'agent', id: string) =>
    openSignedIn(pages, t, context, who, id);

  const workerView = async (worker: TestWorker, assignmentId: string) =>
    (
      await t.http
        .get(`/v1/worker/assignments/${assignmentId}`)
        .set('Authorization', worker.bearer)
        .expect(200)
    ).body as { status: string; submission: { unable_reason?: string; photos: unknown[] } | null };

  it('a worker reports the shop closed with a photo; the agent accepts the report in the console; both see the outcome', () =>
    withDiagnostics(pages, async () => {
      const worker = await createWorker(t);
      const taskId = await createTask(t, agent, {
        title: '面包店是否营业',
        description: '看看店是否开门，拍一张门头。',
        location: { ...here, address: '南京东路 300 号' },
        budget_cents: 5000,
      });
      const assignmentId = await accept(t, worker, taskId);
      const phone = await phoneContext(browser, base, offset(here, 30), { locale: 'zh-CN' });
      const app = await signedIn(phone, 'worker', worker.id);
      await app.page.goto(`/app/mine/${assignmentId}`);

      // A secondary action beside submitting, in a dialog: the reason in words, a note, a photo, then asked again.
      await app.page.getByRole('button', { name: '无法完成' }).click();
      const dialog = app.page.getByRole('dialog', { name: '上报无法完成' });
      await dialog.getByRole('button', { name: '继续' }).click();
      await dialog.getByText('请选择原因并填写说明。').waitFor(); // nothing chosen yet: said, nothing sent
      await dialog.getByRole('radio', { name: '店铺或地点已关门' }).check();
      await dialog.getByLabel('情况说明', { exact: true }).fill('卷帘门拉下，门上贴着“装修暂停营业”。');
      const [chooser] = await Promise.all([
        app.page.waitForEvent('filechooser'),
        dialog.getByRole('button', { name: '拍一张现场照片（可选）' }).click(),
      ]);
      await chooser.setFiles({
        name: 'closed.jpg',
        mimeType: 'image/jpeg',
        buffer: await jpeg({ gps: offset(here, 30) }),
      });
      await dialog.getByRole('img', { name: '刚拍的照片' }).waitFor();
      await screenshot(app.page, 'worker-unable-report');
      await dialog.getByRole('button', { name: '继续' }).click();
      await dialog.getByText('确认上报“店铺或地点已关门”？').waitFor();
      expect((await workerView(worker, assignmentId)).status).toBe('accepted'); // nothing sent before the confirmation
      await dialog.getByRole('button', { name: '确认上报' }).click();

      // The outcome: what it pays if accepted (20 % of 5,000 less the 10 % fee on it), and the report as sent.
      await app.page.getByText(/已上报无法完成。发布方接受后，你将得到 ¥9\.00。/).waitFor();
      await app.page.getByText('你上报了无法完成：店铺或地点已关门').waitFor();
      await screenshot(app.page, 'worker-unable-sent');
      const sent = await workerView(worker, assignmentId);
      expect(sent.status).toBe('submitted');
      expect(sent.submission).toMatchObject({ unable_reason: 'closed', photos: [expect.anything()] });
      const result = await t.http
        .get(`/v1/tasks/${taskId}/result`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(result.body.submissions).toEqual([
        expect.objectContaining({
          assignment_id: assignmentId,
          unable_reason: 'closed',
          worker_notes: '卷帘门拉下，门上贴着“装修暂停营业”。',
          photos: [expect.objectContaining({ distance_meters: 30 })],
        }),
      ]);

      // The agent reads the report with its reason in words and accepts it.
      const desk = await desktopContext(browser, base, { locale: 'en-US' });
      const console_ = await signedIn(desk, 'agent', agent.id);
      // The rig's upload URLs name PUBLIC_BASE_URL (localhost:8000), not this server's ephemeral port, so the
      // console's CSP (img-src 'self') blocks the thumbnail here; served from its own origin it loads.
      console_.errors.expect(/uploads\/task-proofs/);
      await console_.page.goto(`/console/tasks/${taskId}`);
      await console_.page.getByText('Could not do it: the place was closed').waitFor();
      await console_.page.getByText('卷帘门拉下', { exact: false }).first().waitFor();
      await screenshot(console_.page, 'console-unable-report');
      await console_.page.getByRole('button', { name: 'Approve', exact: true }).click();
      await waitFor(
        async () => (await workerView(worker, assignmentId)).status === 'approved',
        'the report accepted',
      );
      const task = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
      expect(task.body.status).toBe('failed'); // a report is not an approval of the task
      const balance = await t.http.get('/v1/worker/balance').set('Authorization', worker.bearer).expect(200);
      expect(balance.body.balance_cents).toBe(900);

      // The worker's page hears the verdict live.
      await app.page.getByText('发布方接受了你的无法完成上报，相应报酬已计入余额。').waitFor();
      expect(app.errors.unexpected()).toEqual([]);
      expect(console_.errors.unexpected()).toEqual([]);
      await phone.close();
      await desk.close();
    }));

  it('a worker asks in the app, the agent answers from the task page: live both ways, unread counted, text as written', () =>
    withDiagnostics(pages, async () => {
      const worker = await createWorker(t);
      const taskId = await createTask(t, agent, {
        title: '咖啡馆排队人数',
        location: { ...here, address: '南京东路 320 号' },
      });
      const assignmentId = await accept(t, worker, taskId);
      const phone = await phoneContext(browser, base, offset(here, 30), { locale: 'zh-CN' });
      const app = await signedIn(phone, 'worker', worker.id);
      const desk = await desktopContext(browser, base, { locale: 'en-US' });
      const console_ = await signedIn(desk, 'agent', agent.id);
      await console_.page.goto(`/console/tasks/${taskId}`);
      await console_.page.getByRole('button', { name: 'Open thread (0)' }).waitFor(); // the thread, empty

      // The worker asks; markup in it stays text.
      await app.page.goto(`/app/mine/${assignmentId}`);
      await app.page.getByText('还没有消息。对任务有疑问可以在这里问发布方。').waitFor();
      const question = '门口有两个入口，<b>数哪一个</b>？';
      await app.page.getByLabel('写消息').fill(question);
      await app.page.getByRole('button', { name: '发送' }).click();
      // In the thread, not the text box: a controlled textarea holds its text as content too, until it is cleared.
      await app.page.locator('.messages').getByText(question).waitFor();

      // The agent's page counts it unread, live; opening the thread reads it.
      await console_.page.getByText('1 unread').waitFor();
      await console_.page.getByRole('button', { name: 'Open thread (1)' }).click();
      await console_.page.getByText(question).waitFor();
      expect(await console_.page.locator('.messages b').count()).toBe(0);
      await console_.page.getByLabel('Write to this worker').fill('The north entrance, please.');
      await screenshot(console_.page, 'console-messages');
      await console_.page.getByRole('button', { name: 'Send' }).click();
      await console_.page.locator('.messages').getByText('The north entrance, please.').waitFor();

      // Through the API: the thread holds both, in order, and the agent has read the worker's.
      const thread = await t.http
        .get(`/v1/tasks/${taskId}/messages`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(thread.body.threads).toEqual([
        expect.objectContaining({ assignment_id: assignmentId, message_count: 2, unread_count: 0 }),
      ]);

      // The worker, on the same page, gets the answer live; elsewhere the tab bar counts what is unread.
      await app.page.getByText('The north entrance, please.').waitFor();
      await screenshot(app.page, 'worker-messages');
      await app.page.goto('/app/tasks');
      await app.page.getByRole('heading', { name: '附近任务' }).waitFor();
      await t.http
        .post(`/v1/tasks/${taskId}/messages`)
        .set('Authorization', agent.key)
        .send({ assignment_id: assignmentId, body: 'Thanks!' })
        .expect(201);
      await app.page.getByRole('link', { name: '我的任务 1 条未读消息' }).waitFor();
      await screenshot(app.page, 'worker-unread-badge');
      await app.page.getByRole('link', { name: /我的任务/ }).click();
      await app.page.getByText('1 条未读消息').last().waitFor();
      const threads = await t.http.get('/v1/worker/messages').set('Authorization', worker.bearer).expect(200);
      expect(threads.body.unread_total).toBe(1);
      expect(app.errors.unexpected()).toEqual([]);
      expect(console_.errors.unexpected()).toEqual([]);
      await phone.close();
      await desk.close();
    }));
  it('a worker disputes a rejection, the agent answers, an operator splits it in the console; both sides see it', () =>
    withDiagnostics(pages, async () => {
      const worker = await createWorker(t);
      const taskId = await createTask(t, agent, {
        title: '便利店价格核对',
        location: { ...here, address: '南京东路 340 号' },
        budget_cents: 5000,
      });
      const assignmentId = await accept(t, worker, taskId);
      await submit(t, worker, assignmentId, { result_data: { price: '3.50' } }).expect(200);
      await feedback(t, agent, taskId, {
        assignment_id: assignmentId,
        accept_result: false,
        reason_code: 'incomplete',
        feedback_text: 'No photo of the shelf.',
      }).expect(200);
      const disputes = async () =>
        (await t.http.get(`/v1/tasks/${taskId}/disputes`).set('Authorization', agent.key).expect(200)).body
          .disputes as { dispute_id: string; status: string }[];

      // The worker reads the rejection's reason and disputes it within the window.
      const phone = await phoneContext(browser, base, offset(here, 30), { locale: 'zh-CN' });
      const app = await signedIn(phone, 'worker', worker.id);
      await app.page.goto(`/app/mine/${assignmentId}`);
      await app.page.getByText('未通过原因：内容不完整').waitFor();
      await app.page.getByRole('button', { name: '申诉', exact: true }).click();
      await app.page.getByLabel('申诉理由').fill('简报没有要求拍货架照片，价格已按要求填写。');
      await screenshot(app.page, 'worker-dispute-form');
      await app.page.getByRole('button', { name: '提交申诉' }).click();
      await app.page.getByText(/已申诉，等待发布方在 .* 前回应。/).waitFor();
      expect((await disputes()).map((d) => d.status)).toEqual(['awaiting_response']);

      // The agent sees the banner with its deadline and answers.
      const desk = await desktopContext(browser, base, { locale: 'en-US' });
      const console_ = await signedIn(desk, 'agent', agent.id);
      await console_.page.goto(`/console/tasks/${taskId}`);
      await console_.page
        .getByRole('alert')
        .getByText(/A worker disputes your rejection\. Answer by/)
        .waitFor();
      await console_.page.getByText('简报没有要求拍货架照片，价格已按要求填写。').waitFor();
      await screenshot(console_.page, 'console-dispute-banner');
      await console_.page
        .getByRole('textbox', { name: 'Your answer to the operator' })
        .fill('The brief asked for the shelf label.');
      await console_.page.getByRole('button', { name: 'Send the answer' }).click();
      await console_.page.getByText('An operator will decide.').waitFor();
      expect((await disputes()).map((d) => d.status)).toEqual(['awaiting_decision']);

      // An operator decides in the queue: split, 40 % to the worker.
      await createOrUpdateAdmin(t.db, { email: 'disputes-op@example.com', password: 'operator password 1' });
      const opsDesk = await desktopContext(browser, base, { locale: 'en-US' });
      const ops = await openPage(pages, opsDesk);
      await ops.page.goto('/console/ops/disputes');
      await ops.page.getByRole('tab', { name: 'Operator', selected: true }).waitFor();
      await ops.page.getByLabel('Email').fill('disputes-op@example.com');
      await ops.page.getByLabel('Password').fill('operator password 1');
      await ops.page.getByRole('button', { name: 'Sign in as operator' }).click();
      const card = ops.page.getByTestId('dispute').filter({ hasText: '便利店价格核对' });
      await card.getByText('The brief asked for the shelf label.').waitFor();
      await card.getByRole('radio', { name: /^Split/ }).check();
      await card.getByLabel('Worker’s percentage (1–99)').fill('40');
      await card.getByLabel('Note to both sides (optional)').fill('The brief was unclear about the shelf.');
      await screenshot(ops.page, 'console-ops-disputes');
      await card.getByRole('button', { name: 'Decide' }).click();
      await ops.page.getByText('No disputes here.').waitFor(); // gone from the queue

      // Through the API: decided once, 40 % of 5,000 is 2,000 less its 200 fee to the worker.
      const [decided] = await disputes();
      expect(decided).toMatchObject({
        status: 'decided',
        decision: { outcome: 'split', worker_percent: 40, worker_cents: 1800, fee_cents: 200 },
      });
      const balance = await t.http.get('/v1/worker/balance').set('Authorization', worker.bearer).expect(200);
      expect(balance.body.balance_cents).toBe(1800);

      // Both sides see the outcome.
      await app.page.reload();
      await app.page.getByText('部分支持：按比例结算').waitFor();
      await app.page.getByText('已付给你 ¥18.00，计入余额。').waitFor();
      await screenshot(app.page, 'worker-dispute-decided');
      await console_.page.reload();
      await console_.page.getByText('Split: 40 % to the worker').waitFor();
      for (const p of [app, console_, ops]) expect(p.errors.unexpected()).toEqual([]);
      await phone.close();
      await desk.close();
      await opsDesk.close();
    }));
});
