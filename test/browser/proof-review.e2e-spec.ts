import { createAgent, createWorker, type TestAgent, type TestWorker } from '../support/actors';
import { createAdmin, createOperator, OPERATOR_PASSWORD, type TestAdmin } from '../support/admins';
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
import { createUploadTestApp, offset, scene, spot, uploadProof, type UploadTestApp } from '../support/photos';
import { freePort } from '../support/process';
import { accept, createTask, submit } from '../support/tasks';

/**
 * The human review of issue 29 (product-decisions §18) in real browsers: a worker sends another worker's photo, so the
 * submission is high risk and held; the agent's console says why in words and until when it waits; an operator
 * signs in, opens the queue, confirms fraud on one held submission (suspending the worker) and clears another; the
 * results are read back through the API; the suspended worker reads why in the app and asks a person to look again.
 */
describe('proof review in the console and the worker app', () => {
  let t: UploadTestApp;
  let base: string;
  let browser: Browser;
  let agent: TestAgent;
  let admin: TestAdmin;
  const here = spot();
  const pages: OpenedPage[] = [];

  beforeAll(async () => {
    requireWebBuild();
    // Photo links are made from PUBLIC_BASE_URL: the browser loads them from the app it talks to (the CSP's 'self').
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createUploadTestApp({ PUBLIC_BASE_URL: base });
    await t.app.listen(port, '127.0.0.1');
    browser = await launchChromium();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
    admin = await createAdmin(t);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const newPage = (context: BrowserContext) => openPage(pages, context);

  const signedIn = (context: BrowserContext, who: 'worker' | 'agent', id: string) =>
    openSignedIn(pages, t, context, who, id);

  /** A photo task at `here` taken by `worker`, who sends `photo` (its EXIF GPS 20 m away). */
  async function sendPhoto(worker: TestWorker, title: string, photo: Buffer) {
    const taskId = await createTask(t, agent, {
      title,
      location: { ...here, address: 'Main St 1' },
      task_type: 'photo',
    });
    const id = await accept(t, worker, taskId);
    const url = (await uploadProof(t, worker, photo).expect(201)).body.url as string;
    await submit(t, worker, id, { result_data: { ok: true }, photo_urls: [url] }).expect(200);
    return { taskId, id };
  }

  const review = async (id: string) =>
    (await t.http.get(`/v1/admin/proof-reviews/${id}`).set('Authorization', admin.bearer).expect(200)).body;

  it('the agent sees why and until when; an operator confirms fraud on one and clears another; the worker asks again', () =>
    withDiagnostics(pages, async () => {
      const [original, cheat, other] = [await createWorker(t), await createWorker(t), await createWorker(t)];
      const photo = await scene(29, { gps: offset(here, 20) });
      await sendPhoto(original, 'Bakery front (original)', photo);
      const fraud = await sendPhoto(cheat, 'Bakery front A', photo);
      const cleared = await sendPhoto(other, 'Bakery front B', photo);
      for (const s of [fraud, cleared]) {
        const result = (
          await t.http.get(`/v1/tasks/${s.taskId}/result`).set('Authorization', agent.key).expect(200)
        ).body;
        expect(result.submissions[0]).toMatchObject({ risk: 'high', review_required: true });
      }

      // The agent: the risk, the signal in words (never the code alone), the banner with the deadline.
      const agentContext = await desktopContext(browser, base, { locale: 'en-US' });
      const { page: console, errors: consoleErrors } = await signedIn(agentContext, 'agent', agent.id);
      await console.goto(`/console/tasks/${fraud.taskId}`);
      const banner = console.getByTestId('hold-banner');
      await banner
        .getByText(
          /^Waiting for your decision until .+; after that it is approved and an operator reviews it/,
        )
        .waitFor();
      await console
        .getByText('This photo closely matches an earlier photo another worker sent on the platform')
        .waitFor();
      expect(await console.getByTestId('risk').first().textContent()).toBe('High risk');
      await console.getByRole('radio', { name: 'Reject' }).waitFor();
      await screenshot(console, 'console-task-held');
      expect(consoleErrors.unexpected()).toEqual([]);
      await agentContext.close();

      // The operator signs in, opens the queue and decides both.
      const operator = await createOperator(t);
      const opsContext = await desktopContext(browser, base, { locale: 'en-US' });
      const { page: ops, errors: opsErrors } = await newPage(opsContext);
      await ops.goto('/console/login');
      await ops.getByRole('tab', { name: 'Operator' }).click();
      await ops.getByLabel('Email').fill(operator.email);
      await ops.getByLabel('Password').fill(OPERATOR_PASSWORD);
      await ops.getByRole('button', { name: 'Sign in as operator' }).click();
      await ops.getByRole('link', { name: 'Proof reviews' }).click();
      await ops.getByRole('heading', { name: 'Proof reviews' }).waitFor();
      await ops.getByRole('link', { name: 'Bakery front B' }).waitFor();
      expect(await ops.getByTestId('proof-review').count()).toBe(2);
      await screenshot(ops, 'console-ops-proof-reviews');

      await ops.getByRole('link', { name: 'Bakery front A' }).click();
      await ops.getByRole('heading', { name: 'The earlier photo it matches' }).waitFor();
      await ops
        .getByTestId('matched-photo')
        .getByText(/^Sent earlier by another worker/)
        .waitFor();
      await ops.getByRole('img', { name: /^Earlier photo, recorded/ }).waitFor();
      await screenshot(ops, 'console-ops-proof-review');
      await ops.getByRole('radio', { name: /^Confirmed fraud/ }).check();
      await ops.getByLabel('Suspend the worker until reviewed').check();
      await ops.getByLabel(/^Note/).fill('Same picture as the original worker sent an hour earlier.');
      await ops.getByRole('button', { name: 'Confirm fraud…' }).click();
      // Nothing is decided before the confirmation.
      expect((await review(fraud.id)).decision).toBeNull();
      const confirm = ops.getByRole('alertdialog');
      await confirm.getByText(/^Confirm fraud\? .*Also: Suspend the worker until reviewed\.$/).waitFor();
      await confirm.getByRole('button', { name: 'Yes, confirm fraud' }).click();
      await ops
        .getByTestId('proof-decision')
        .getByText(/^Confirmed fraud/)
        .waitFor();

      await ops.getByRole('link', { name: 'Proof reviews' }).first().click();
      await ops.getByRole('link', { name: 'Bakery front B' }).click();
      await ops.getByRole('radio', { name: /^Cleared/ }).check();
      await ops.getByLabel(/^Note/).fill('A shop front everyone photographs from the same corner.');
      await ops.getByRole('button', { name: 'Clear', exact: true }).click();
      await ops
        .getByTestId('proof-decision')
        .getByText(/^Cleared/)
        .waitFor();
      expect(opsErrors.unexpected()).toEqual([]);

      // Through the API: the fraud rejected with the worker suspended; the cleared one waits for the agent, unheld.
      const decided = await review(fraud.id);
      expect(decided.decision).toMatchObject({ outcome: 'confirmed_fraud', decided_by: 'operator' });
      expect(decided.worker).toMatchObject({ suspended: true, confirmed_frauds: 1 });
      expect(decided.submission.status).toBe('rejected');
      expect((await review(cleared.id)).decision).toMatchObject({ outcome: 'cleared' });
      const task = (
        await t.http.get(`/v1/tasks/${cleared.taskId}`).set('Authorization', agent.key).expect(200)
      ).body;
      expect(task.assignments[0].status).toBe('submitted');
      const standing = (await t.http.get('/v1/worker/reviews').set('Authorization', cheat.bearer).expect(200))
        .body;
      expect(standing.suspended).toBe(true);
      expect(standing.fraud_holds.map((h: { review_id: string }) => h.review_id)).toEqual([fraud.id]);

      // The worker reads why in the app, asks a person to look again, and sees the request open.
      const phone = await phoneContext(browser, base, here, { locale: 'zh-CN' });
      const { page: app, errors: appErrors } = await signedIn(phone, 'worker', cheat.id);
      // The verdict card says a person (an operator), not the agent, found the photos not genuine; the platform's
      // explanation stored with the rejection is not shown as the agent's message; the card offers the request.
      await app.goto(`/app/mine/${fraud.id}`);
      const verdict = app.getByTestId('verdict');
      await verdict
        .getByText(
          '平台的运营人员（一位工作人员，而不是发布方）人工查看了您为这次任务提交的照片，认定照片不真实（确认作弊）。',
        )
        .waitFor();
      await verdict.getByText('因此这次结果未被接受，您的信誉分也已降低。').waitFor();
      expect(await app.getByText(/发布方留言|A person reviewed the proof/).count()).toBe(0);
      await verdict.getByRole('button', { name: '请人重新查看' }).click();
      await app.getByLabel('您想让查看的人知道什么？').fill('这张照片是我当天在店门口拍的。');
      await app.getByRole('button', { name: '发送申请' }).click();
      await verdict.getByTestId('review-open').waitFor();
      await screenshot(app, 'worker-fraud-review-open');
      await app.goto('/app/profile');
      await app.getByRole('heading', { name: '您的账户已被停用' }).waitFor();
      // The same card in English (the language chosen on the profile): the operator's finding, the request open.
      await app.getByLabel('语言').selectOption('en');
      await app.goto(`/app/mine/${fraud.id}`);
      await verdict
        .getByText(
          'An operator, a person at Legwork and not the agent, reviewed the photos you sent for this task and decided they were not genuine (confirmed fraud).',
        )
        .waitFor();
      await verdict
        .getByText('That is why your result was not accepted, and your reputation went down.')
        .waitFor();
      await verdict.getByTestId('review-open').waitFor();
      expect(await app.getByText(/Agent’s note|A person reviewed the proof/).count()).toBe(0);
      expect(appErrors.unexpected()).toEqual([]);
      const after = (await t.http.get('/v1/worker/reviews').set('Authorization', cheat.bearer).expect(200))
        .body;
      expect(after.requests).toEqual([
        expect.objectContaining({ subject: 'fraud_hold', subject_id: fraud.id, status: 'open' }),
      ]);
      await phone.close();

      // The operator finds the request in the review requests.
      await ops.getByRole('link', { name: 'Review requests' }).click();
      await ops.getByTestId('worker-review').getByText('这张照片是我当天在店门口拍的。').waitFor();
      await opsContext.close();
    }));
});
