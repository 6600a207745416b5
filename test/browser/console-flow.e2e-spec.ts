import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrUpdateAdmin } from '../../src/admin/admin-accounts';
import { startPaymentRig, type PaymentRig } from '../support/payment-rig';
import { jpeg, offset, spot } from '../support/photos';
import {
  collectPageErrors,
  desktopContext,
  launchChromium,
  phoneContext,
  requireWebBuild,
  screenshot,
  takePhoto,
  withDiagnostics,
  type Browser,
  type Page,
} from '../support/browser';

/**
 * The whole flow in a real browser (product-decisions §14), every person in their own app: an agent
 * registers in the console (desktop), tops up through the sandbox's Alipay (the provider sandbox pays the order
 * itself); a worker signs up in the worker app on a 390×844 phone with emulated geolocation 30 m from the place,
 * with the sandbox SMS code, and goes online; the agent creates a task from a pasted map link after seeing its quote;
 * the offer reaches the phone live, the worker accepts, starts and submits a photo with EXIF GPS 30 m away; the agent
 * sees the submission live with its verification and approves; the worker sees the verdict and the earnings and asks
 * for a withdrawal (a first one waits for review); an operator approves it in the console, whose ledger check is
 * clean. No page logs an error beyond the one refusal the test provokes. The ledger invariants are checked again
 * after the file (test/support/after-file.ts).
 */
describe('agent console: register, top up, quote and create, review, operator approval', () => {
  let rig: PaymentRig;
  let browser: Browser;
  let uploadDir: string;
  const pages: { page: Page; errors: ReturnType<typeof collectPageErrors> }[] = [];

  beforeAll(async () => {
    requireWebBuild();
    uploadDir = mkdtempSync(join(tmpdir(), 'legwork-console-uploads-'));
    rig = await startPaymentRig(
      {
        UPLOAD_DIR: uploadDir,
        UPLOAD_TMP_DIR: join(uploadDir, '.staging'),
        // Events reach the page over socket.io only where the outbox publisher runs (the rig turns jobs off).
        JOBS_IN_PROCESS: 'true',
      },
      { autoCompleteMs: 1500 },
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await rig?.close();
    if (uploadDir) rmSync(uploadDir, { recursive: true, force: true });
  });

  async function desktop(): Promise<Page> {
    const page = await (await desktopContext(browser, rig.baseUrl)).newPage();
    pages.push({ page, errors: collectPageErrors(page) });
    return page;
  }

  it('runs the whole flow: agent and operator in the console, the worker in the worker app, no page error', () =>
    withDiagnostics(pages, async () => {
      const page = await desktop();
      const email = `ops-flow-${Date.now()}@example.com`;

      // Register: the first API key and secret are shown once, then the dashboard.
      await page.goto('/console/');
      await page.getByRole('tab', { name: 'Create an account' }).click();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByLabel('Organisation (optional)').fill('Acme Robotics');
      await page.getByRole('button', { name: 'Create the account' }).click();
      await page.getByRole('heading', { name: 'Your credentials' }).waitFor();
      expect(await page.getByLabel('API key').inputValue()).toMatch(/^lw_test_/);
      expect(await page.getByLabel('API secret').inputValue()).not.toBe('');
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await expectFigure(page, 'dash.balance', '¥0.00');
      // Only the refresh token is stored, never the access token or the key.
      const stored = await page.evaluate<string[]>('Object.keys(localStorage)');
      expect(stored.sort()).toEqual(['legwork.console.refresh']);

      // Top up ¥200 through Alipay: the cashier link is offered and the sandbox pays the order by itself.
      await page.getByRole('link', { name: 'Money' }).click();
      await page.getByLabel('Alipay').check();
      await page.getByLabel('Amount (¥)').fill('200.00');
      await page.getByRole('button', { name: 'Create the order' }).click();
      await page.getByRole('link', { name: 'Open the cashier to pay' }).waitFor();
      await page.getByText('Paid: the amount is in your balance.').waitFor({ timeout: 30_000 });
      await page.getByRole('cell', { name: /^\+(CN)?¥200\.00$/ }).waitFor();
      await screenshot(page, 'console-money');

      // A bad amount is refused in words with its code, and changes nothing.
      await page.getByLabel('Amount (¥)').fill('1.00');
      await page.getByRole('button', { name: 'Create the order' }).click();
      await page.getByText('Code: validation_error').waitFor();
      // The refusal the page shows in words is also logged by chromium as a failed load.
      pages[0].errors.expect(/status of 400/);

      // A worker signs up in the worker app on a phone 30 m from the place, with the sandbox SMS code, and goes
      // online (Chinese, the app's default).
      const place = spot();
      const phone = await (await phoneContext(browser, rig.baseUrl, offset(place, 30))).newPage();
      pages.push({ page: phone, errors: collectPageErrors(phone) });
      phone.setDefaultTimeout(20_000);
      await phone.goto('/app/');
      await phone.getByRole('tab', { name: '注册' }).click();
      await phone.getByLabel('手机号').fill(`13${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`);
      await phone.getByRole('button', { name: '获取验证码' }).click();
      const notice = await phone.getByText(/沙盒模式验证码：\d{6}/).textContent();
      await phone.getByLabel('短信验证码').fill(/(\d{6})/.exec(notice!)![1]);
      await phone.getByLabel('密码').fill('worker-pass-1');
      await phone.getByRole('button', { name: '注册并登录' }).click();
      await phone.getByRole('heading', { name: '附近任务' }).waitFor();
      await phone.getByRole('switch', { name: /接单/ }).click();
      // A new worker is asked first for consent to the use of their precise location (product-decisions §19).
      await phone.getByRole('button', { name: '同意并开始接单' }).click();
      await phone.getByText('在线：正在接收附近的任务推送').waitFor();
      // The refusal that opened the consent screen is logged by chromium as a failed load.
      pages[pages.length - 1].errors.expect(/status of 403/);

      // Create a task from a pasted map link, after its quote.
      await page.getByRole('link', { name: 'New task' }).first().click();
      await page.getByLabel('Title').fill('Photograph the shop front');
      await page
        .getByLabel('What the worker should do')
        .fill('Take one photo of the entrance, with the sign.');
      await page
        .getByLabel('Map link or coordinates')
        .fill(`https://www.google.com/maps/search/?api=1&query=${place.latitude},${place.longitude}`);
      expect(Number(await page.getByLabel('Latitude').inputValue())).toBeCloseTo(place.latitude, 5);
      expect(Number(await page.getByLabel('Longitude').inputValue())).toBeCloseTo(place.longitude, 5);
      await page.getByLabel('Budget per worker (¥)').fill('50.00');
      await page.getByLabel('Workers', { exact: true }).fill('1');
      expect(await page.getByRole('button', { name: /Create the task/ }).count()).toBe(0);
      await page.getByRole('button', { name: 'Get a quote' }).click();
      const quote = page.getByTestId('quote');
      await quote.getByText('covers it').waitFor();
      // The worker 30 m away, counted coarsely (product-decisions §16): a bucket's lower bound, within the form's
      // 5,000 m (the quote counts within 2,000 m at least).
      await quote.getByText('at least 1 eligible online, at least 1 free now, within about 5000 m').waitFor();
      await quote
        .getByText(/¥45\.00/)
        .first()
        .waitFor();
      await page.evaluate('window.scrollTo(0, 0)');
      await screenshot(page, 'console-new-task');
      await page.getByRole('button', { name: /^Create the task and hold (CN)?¥50\.00$/ }).click();
      await page.waitForURL(/\/console\/tasks\/[0-9a-f-]{36}$/);
      const taskId = page.url().split('/').pop()!;
      await page.getByRole('heading', { name: /Photograph the shop front/ }).waitFor();
      await page.getByText('No submissions yet.', { exact: false }).waitFor();

      // The offer reaches the phone live; the worker accepts, starts and submits a photo with EXIF GPS 30 m away.
      const offer = phone.getByRole('alertdialog', { name: '新任务推送' });
      await offer.getByText('Photograph the shop front').waitFor();
      await offer.getByRole('button', { name: '接受' }).click();
      await page.getByText('task.assigned').first().waitFor();
      await phone.getByRole('button', { name: '开始任务' }).click();
      await phone.getByRole('button', { name: '放弃任务' }).waitFor();
      await takePhoto(phone, {
        name: 'shop.jpg',
        mimeType: 'image/jpeg',
        buffer: await jpeg({ gps: offset(place, 30), gpsTime: new Date() }),
      });
      await phone.getByText(/拍照时定位：±\d+ 米/).waitFor();
      await phone.getByRole('button', { name: '提交', exact: true }).click();
      await phone.getByText(/已提交，等待发布方审核。照片距任务 (29|30|31) 米。/).waitFor();
      expect(taskId).toMatch(/^[0-9a-f-]{36}$/);

      // The agent's page shows the submission live (task.submitted over socket.io) with its verification.
      const submission = page.getByTestId('submission');
      await submission.waitFor({ timeout: 20_000 });
      await submission.getByText(/^3\d m from the task$/).waitFor();
      await submission.getByText('the photo’s EXIF GPS').waitFor();
      await submission.getByText('first use of this photo').waitFor();
      await submission.getByText('during the assignment').waitFor();
      await submission.getByRole('img').waitFor();
      expect(
        await submission
          .getByRole('img')
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      ).toBeGreaterThan(0);
      await page.getByText('task.submitted').first().waitFor();
      await submission.scrollIntoViewIfNeeded();
      await screenshot(page, 'console-task-review');

      // Approve with a rating: the task completes and the worker is paid.
      await submission.getByLabel('Approve and pay').check();
      await submission.getByLabel('Rating', { exact: true }).selectOption('5');
      await submission.getByLabel('Quality (0–5)').fill('4.5');
      await submission.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('heading', { name: /Completed/ }).waitFor({ timeout: 20_000 });

      // The dashboard counts it.
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await expectFigure(page, 'dash.balance', '¥150.00');
      await expectFigure(page, 'dash.lifetime_spend', '¥50.00');
      await expectFigure(page, 'dash.success_rate', '100 %');
      await screenshot(page, 'console-dashboard');
      await page.getByRole('link', { name: 'Tasks', exact: true }).click();
      await page.getByRole('link', { name: 'Photograph the shop front' }).waitFor();
      await screenshot(page, 'console-tasks');

      // The worker sees the verdict live and the earnings, and asks for a withdrawal of all of it: a first
      // withdrawal waits for an operator.
      await phone
        .getByRole('heading', { name: /审核结果/ })
        .getByText('已通过')
        .waitFor();
      await phone.getByRole('link', { name: '收入' }).click();
      await phone.getByTestId('balance').getByText('45.00').waitFor();
      await phone.getByLabel('金额（元）').fill('45');
      await phone.getByLabel('支付宝账号').fill('worker@example.com');
      await phone.getByLabel('真实姓名').fill('张三');
      await phone.getByRole('button', { name: '申请提现' }).click();
      await phone.getByText('审核中').waitFor();

      // An operator signs in to the console and approves it.
      await createOrUpdateAdmin(rig.t.db, { email: 'operator@example.com', password: 'operator password 1' });
      const ops = await desktop();
      await ops.goto('/console/ops/withdrawals');
      await ops.getByRole('tab', { name: 'Operator', selected: true }).waitFor();
      await ops.getByLabel('Email').fill('operator@example.com');
      await ops.getByLabel('Password').fill('operator password 1');
      await ops.getByRole('button', { name: 'Sign in as operator' }).click();
      const row = ops.getByTestId('withdrawal').filter({ hasText: /¥45\.00/ });
      await row.getByText('First withdrawal').waitFor();
      await screenshot(ops, 'console-ops-withdrawals');
      await row.getByRole('button', { name: 'Approve' }).click();
      await ops.getByText('No withdrawals here.').waitFor();
      await ops.getByLabel('Status').selectOption('');
      await ops
        .getByTestId('withdrawal')
        .filter({ hasText: /¥45\.00/ })
        .getByText(/Processing|Completed/)
        .waitFor();

      // The operator's ledger check is clean.
      await ops.getByRole('link', { name: 'Ledger check' }).click();
      await ops.getByTestId('ledger').getByText('Clean').waitFor();
      await screenshot(ops, 'console-ops-ledger');

      for (const { errors } of pages) expect(errors.unexpected()).toEqual([]);
    }));
});

/** A dashboard figure, money in either way the locale writes yuan (¥ or CN¥). */
async function expectFigure(page: Page, id: string, value: string): Promise<void> {
  const text = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('¥', '(CN)?¥');
  await page
    .getByTestId(id)
    .getByText(new RegExp(`^${text}$`))
    .waitFor();
}
