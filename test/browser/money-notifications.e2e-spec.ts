import { createAgent, createWorker, type TestAgent } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import {
  launchChromium,
  openSignedIn,
  phoneContext,
  requireWebBuild,
  screenshot,
  withDiagnostics,
  type Browser,
  type OpenedPage,
} from '../support/browser';
import { listen } from '../support/held-upload';
import { accept, createTask, feedback, submit } from '../support/tasks';
import { waitFor } from '../support/waiters';

/**
 * News of a worker's money in the worker app (product-decisions §19): with the app open in Chinese, the agent
 * approves the worker's result; the 通知 (pay news) tab's badge counts it at once (the live event), the list shows the
 * amount net of the fee and the task, opening it marks it read (the badge goes), and the money SMS switch under 我的
 * turns them on. States are asserted through the API as well.
 */
describe('pay news in the worker app', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let agent: TestAgent;
  const pages: OpenedPage[] = [];
  const here = { latitude: 31.2304, longitude: 121.4737 };

  beforeAll(async () => {
    requireWebBuild();
    t = await createTestApp();
    base = await listen(t);
    browser = await launchChromium();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('the badge counts the approval live; the list shows ¥45.00 and marks it read; money SMS turn on', () =>
    withDiagnostics(pages, async () => {
      const worker = await createWorker(t);
      const taskId = await createTask(t, agent, {
        title: '拍摄面包店门头',
        location: { ...here, address: '南京东路 300 号' },
        budget_cents: 5000,
      });
      const assignmentId = await accept(t, worker, taskId);
      await submit(t, worker, assignmentId).expect(200);

      const phone = await phoneContext(browser, base, here, { locale: 'zh-CN' });
      const { page, errors } = await openSignedIn(pages, t, phone, 'worker', worker.id);
      await page.goto('/app/mine');
      const tab = page.getByRole('link', { name: /^通知/ });
      await tab.waitFor();
      expect(await page.getByTestId('notices-badge').count()).toBe(0);

      await feedback(t, agent, taskId, { accept_result: true }).expect(200);
      await page.getByRole('link', { name: '通知 1 条未读' }).waitFor();

      await tab.click();
      const item = page.getByTestId('notice');
      await item.getByText('已付款 · ¥45.00').waitFor();
      await item.getByText('拍摄面包店门头').waitFor();
      await item.getByText('新').waitFor();
      await screenshot(page, 'worker-pay-news');
      // Shown, so read: the badge goes, on the server too.
      await page.getByTestId('notices-badge').waitFor({ state: 'detached' });
      const listed = await t.http
        .get('/v1/worker/notifications')
        .set('Authorization', worker.bearer)
        .expect(200);
      expect(listed.body).toMatchObject({
        unread_count: 0,
        notifications: [{ kind: 'paid', amount_cents: 4500, read_at: expect.any(String) }],
      });
      // Each opens its task.
      await item.getByRole('link').click();
      await page.waitForURL(`**/app/mine/${assignmentId}`);

      await page.goto('/app/profile');
      const sms = page.getByRole('switch', { name: /款项短信/ });
      expect(await sms.isChecked()).toBe(false);
      await sms.check();
      await waitFor(async () => {
        const s = await t.http
          .get('/v1/worker/notification-settings')
          .set('Authorization', worker.bearer)
          .expect(200);
        return s.body.money_sms === true;
      }, 'money SMS turned on');
      expect(errors.unexpected()).toEqual([]);
    }));
});
