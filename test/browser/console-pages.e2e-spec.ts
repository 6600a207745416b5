import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOrUpdateAdmin } from '../../src/admin/admin-accounts';
import { createWorker, type TestAgent } from '../support/actors';
import { totpCode } from '../support/admins';
import { startPaymentRig, type PaymentRig } from '../support/payment-rig';
import { jpeg, offset, spot, submitWithPhoto } from '../support/photos';
import { accept, act, createTask } from '../support/tasks';
import { waitFor } from '../support/waiters';
import {
  collectPageErrors,
  desktopContext,
  launchChromium,
  requireWebBuild,
  screenshot,
  withDiagnostics,
  type Browser,
  type Page,
} from '../support/browser';

/**
 * The console's other pages in a real browser, each checked against what the API then holds: a refused sign-in in
 * words with its code; sandbox funds, simulated workers and a test clock; cancelling a task with the refund shown
 * before and paid as shown; rotating the API key (shown once, the old one refused), narrowing its permissions,
 * disabling it; a webhook endpoint (secret shown once), its test event and deliveries; the event list and a
 * redelivery; the transactions export; Chinese; the operator's agents (tier, credit) and provider health; sign-out
 * leaving nothing stored; the operator's two-factor sign-in (turned on from its QR code's key, then signing in with
 * a code and with a recovery code), the audit log of what they did (in Chinese too), sign-out revoking the session,
 * the 12-hour end of a session said on the sign-in screen, and an operator who must set up two-factor at first
 * sign-in.
 */
// The page-by-page walk visits every page of the console in one session: about a minute alone, more beside other
// suites, over the e2e project's 60 s default (it failed at its last steps under load).
jest.setTimeout(240_000);

describe('agent console pages', () => {
  let rig: PaymentRig;
  let browser: Browser;
  let receiver: Server;
  const received: string[] = [];
  const pages: { page: Page; errors: ReturnType<typeof collectPageErrors> }[] = [];

  beforeAll(async () => {
    requireWebBuild();
    rig = await startPaymentRig({ JOBS_IN_PROCESS: 'true' });
    browser = await launchChromium();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    await rig?.close();
  });

  async function desktop(): Promise<Page> {
    const page = await (await desktopContext(browser, rig.baseUrl, { acceptDownloads: true })).newPage();
    pages.push({ page, errors: collectPageErrors(page) });
    return page;
  }

  it('works page by page against the API', () =>
    withDiagnostics(pages, async () => {
      const email = `pages-${Date.now()}@example.com`;
      const registered = await rig.t.http
        .post('/v1/agent/register')
        .send({ email, password: 'a good long password', organization_name: 'Pages Ltd' });
      expect(registered.status).toBe(201);
      const firstKey = registered.body.api_key as string;
      // The walk opens every page in about half a minute, faster than a person, which can spend a standard agent's 100
      // requests a minute (that budget has its own tests in test/agent/rate-limit): this agent's cannot be reached.
      await rig.t.db.query(`UPDATE agents SET rate_limit_per_minute = 100000 WHERE email = $1`, [email]);
      const page = await desktop();

      // A wrong password is refused in words, with its code.
      await page.goto('/console/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Wrong phone number, email or password.').waitFor();
      await page.getByText('Code: invalid_credentials').waitFor();
      pages[0].errors.expect(/status of 401/);
      await page.getByLabel('Password').fill('a good long password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      // A reload keeps the session: the stored refresh token becomes a new pair (/v1/agent/refresh).
      await page.reload();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

      // Sandbox: test funds, a simulated worker near a task, a test clock moved on by an hour.
      await page.getByRole('link', { name: 'Sandbox' }).click();
      await page.getByLabel('Amount (¥)').fill('500.00');
      await page.getByRole('button', { name: 'Add test funds' }).click();
      await page.getByText(/^Added\. Balance: (CN)?¥500\.00\.$/).waitFor();
      const place = spot();
      const taskId = await createTask(rig.t, { key: `Bearer ${firstKey}` } as TestAgent, {
        location: { latitude: place.latitude, longitude: place.longitude },
        max_workers: 2,
      });
      // The simulated worker stands near a task of its own: it accepts offers within a second, and the task above
      // is cancelled below with no worker on it (the screenshots' extra time once let it accept that one).
      const simPlace = spot();
      const simTaskId = await createTask(rig.t, { key: `Bearer ${firstKey}` } as TestAgent, {
        location: { latitude: simPlace.latitude, longitude: simPlace.longitude },
      });
      await page.getByLabel('Name').first().fill('Ada (simulated)');
      await page.getByLabel('Task id').fill(simTaskId);
      await page.getByLabel('Distance from the task (m)').fill('40');
      await page.getByRole('button', { name: 'Add a simulated worker' }).click();
      await page.getByRole('cell', { name: 'Ada (simulated)' }).waitFor();
      const sims = await rig.t.http.get('/v1/sandbox/workers').set('Authorization', `Bearer ${firstKey}`);
      expect(sims.body.data.map((w: { name: string }) => w.name)).toEqual(['Ada (simulated)']);
      await page.getByLabel('Name').last().fill('Demo clock');
      await page.getByRole('button', { name: 'Add a clock' }).click();
      const clockRow = page.getByRole('row').filter({ hasText: 'Demo clock' });
      await clockRow.waitFor();
      const before = await clockRow.getByRole('cell').nth(1).innerText();
      await clockRow.getByRole('button', { name: '+1 hour' }).click();
      await waitFor(
        async () => (await clockRow.getByRole('cell').nth(1).innerText()) !== before,
        'the clock to move',
      );
      await screenshot(page, 'console-sandbox');
      await clockRow.getByRole('button', { name: 'Remove' }).click();
      await page.getByText('No test clocks.').waitFor();
      await page
        .getByRole('row')
        .filter({ hasText: 'Ada (simulated)' })
        .getByRole('button', { name: 'Remove' })
        .click();
      await page.getByText('No simulated workers.').waitFor();

      // Cancel a task: the refund is shown first, and the answer pays exactly that.
      await page.goto(`/console/tasks/${taskId}`);
      await page.getByRole('button', { name: 'Cancel the task…' }).click();
      const preview = page.getByRole('alertdialog');
      await preview.getByText(/returns (CN)?¥100\.00 to your balance and pays (CN)?¥0\.00/).waitFor();
      await preview.getByRole('button', { name: 'Cancel the task' }).click();
      await page.getByText(/^Cancelled: (CN)?¥100\.00 returned to your balance/).waitFor();
      await page.getByRole('heading', { name: /Cancelled/ }).waitFor();
      await page.getByText('task.cancelled').first().waitFor();

      // A submission rejected with a reason: a worker's photo 30 m away, reviewed in the console.
      const agentKey = { key: `Bearer ${firstKey}` } as TestAgent;
      const there = spot();
      const reviewed = await createTask(rig.t, agentKey, { location: there, task_type: 'photo' });
      const worker = await createWorker(rig.t);
      const assignmentId = await accept(rig.t, worker, reviewed);
      expect((await act(rig.t, worker, assignmentId, 'start')).status).toBe(200);
      const photo = await jpeg({ gps: offset(there, 30) });
      expect((await submitWithPhoto(rig.t, worker, assignmentId, photo)).status).toBe(200);
      await page.goto(`/console/tasks/${reviewed}`);
      const submission = page.getByTestId('submission');
      // A photo with no capture time says so (not "outside the assignment"), and the worker's answer is shown
      // without a click (visible, not folded away).
      await submission.getByText('no capture time', { exact: true }).waitFor();
      expect(await submission.getByText('outside the assignment').count()).toBe(0);
      await submission.getByRole('heading', { name: 'Worker’s answer' }).waitFor();
      await submission.getByText('"storefront": "open"').waitFor();
      await submission.scrollIntoViewIfNeeded();
      await screenshot(page, 'console-task-review-no-time');
      await page.getByLabel('Language').selectOption('zh-CN');
      await submission.getByText('没有拍摄时间', { exact: true }).waitFor();
      await submission.getByRole('heading', { name: '执行者的回答' }).waitFor();
      await page.getByLabel('语言').selectOption('en');
      await submission.getByLabel('Reject').check();
      await submission.getByLabel('Reason').selectOption('wrong_location');
      await submission.getByLabel('Note to the worker (optional)').fill('This is the back door.');
      await submission.getByRole('button', { name: 'Reject' }).click();
      await submission.getByText('Rejected: Wrong location').waitFor();
      const result = await rig.t.http.get(`/v1/tasks/${reviewed}/result`).set('Authorization', agentKey.key);
      expect(result.body.submissions[0]).toMatchObject({ status: 'rejected', reason_code: 'wrong_location' });

      // The task list pages by the API's cursor and filters by status.
      for (let i = 0; i < 20; i++)
        await createTask(rig.t, agentKey, { budget_cents: 1000, title: `Paged task ${i}` });
      await page.getByRole('link', { name: 'Tasks', exact: true }).click();
      const rows = page.getByRole('table').getByRole('row');
      await page.getByRole('link', { name: 'Paged task 19' }).waitFor();
      expect(await rows.count()).toBe(21); // the header and 20 tasks
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('link', { name: 'Photograph the storefront' }).first().waitFor();
      expect(await page.getByRole('link', { name: 'Paged task 19' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Previous' }).click();
      await page.getByRole('link', { name: 'Paged task 19' }).waitFor();
      await page.getByLabel('Status').selectOption('cancelled');
      await page.getByRole('link', { name: 'Paged task 19' }).waitFor({ state: 'detached' });
      expect(await rows.count()).toBe(2);
      await rows.nth(1).getByText('Cancelled').waitFor();

      // API key: rotate (the new key shown once; the old one is refused), narrow permissions, disable, enable.
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('button', { name: 'Rotate…' }).click();
      await page.getByRole('button', { name: 'Rotate now' }).click();
      const newKey = await page.getByLabel('API key').inputValue();
      expect(newKey).toMatch(/^lw_test_/);
      expect(newKey).not.toBe(firstKey);
      await screenshot(page, 'console-api-keys');
      await page.getByRole('button', { name: 'I have saved them' }).click();
      expect((await rig.t.http.get('/v1/agent/me').set('Authorization', `Bearer ${firstKey}`)).status).toBe(
        401,
      );
      expect((await rig.t.http.get('/v1/agent/me').set('Authorization', `Bearer ${newKey}`)).status).toBe(
        200,
      );
      await page.getByLabel('payment:write').uncheck();
      await page.getByRole('button', { name: 'Save permissions' }).click();
      const login = await rig.t.http
        .post('/v1/agent/login')
        .send({ email, password: 'a good long password' });
      const jwt = `Bearer ${login.body.access_token as string}`;
      await waitFor(async () => {
        const keys = await rig.t.http.get('/v1/agent/api-keys').set('Authorization', jwt);
        return keys.status === 200 && !(keys.body[0].permissions as string[]).includes('payment:write');
      }, 'the narrowed permissions');
      // Spend caps in yuan, the same fields an OAuth consent asks: a daily cap and the approval ceiling.
      await page.getByLabel('Daily cap (CNY)').fill('50');
      await page.getByLabel('Approval ceiling (CNY)').fill('200');
      await page.getByRole('button', { name: 'Save spend caps' }).click();
      await page.getByText(/^Today: .+ of (CN)?¥50\.00, resets /).waitFor();
      const saved = await rig.t.http.get('/v1/agent/api-keys').set('Authorization', jwt);
      expect(saved.body[0]).toMatchObject({
        spend_caps: { daily_cents: 5000 },
        approval_ceiling_cents: 20000,
      });
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByText('Disabled', { exact: true }).waitFor();
      expect((await rig.t.http.get('/v1/agent/me').set('Authorization', `Bearer ${newKey}`)).status).toBe(
        401,
      );
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.getByText('Active', { exact: true }).waitFor();

      // Webhooks: an endpoint (secret shown once), a test event delivered, the delivery log.
      const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByText('No endpoints yet.').waitFor();
      await page.getByLabel('URL').fill(hookUrl);
      await page.getByRole('button', { name: 'Add the endpoint' }).click();
      expect(await page.getByLabel('Signing secret').inputValue()).not.toBe('');
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await page.getByRole('button', { name: 'Send a test event' }).click();
      await page.getByText(/^Test delivered: HTTP 200/).waitFor();
      expect(received.some((body) => body.includes('webhook.test'))).toBe(true);
      await page.getByRole('row').filter({ hasText: 'webhook.test' }).getByText('Delivered').waitFor();
      await screenshot(page, 'console-webhooks');

      // Events: the cancellation is listed and can be queued again for the endpoint.
      await page.getByRole('link', { name: 'Events' }).click();
      const cancelled = page.getByRole('row').filter({ hasText: 'task.cancelled' });
      await cancelled.getByRole('button', { name: 'Redeliver' }).click();
      await page.getByText('Queued for 1 endpoints.').waitFor();
      await waitFor(() => received.some((body) => body.includes('task.cancelled')), 'the redelivered event');

      // Transactions export as CSV: a real file with the deposit and the refund.
      await page.getByRole('link', { name: 'Money' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      const csv = readFileSync(await download.path(), 'utf8');
      expect(csv.split('\n')[0]).toMatch(/date|created/i);
      expect(csv.split('\n').length).toBeGreaterThan(2);

      // A WeChat Pay top-up shows its QR code (this rig's sandbox leaves orders unpaid until told).
      await page.getByLabel('WeChat Pay').check();
      await page.getByLabel('Amount (¥)').fill('20.00');
      await page.getByRole('button', { name: 'Create the order' }).click();
      await page.getByRole('img', { name: 'QR code to scan in WeChat' }).waitFor();
      // Production's code is a weixin:// URL; the sandbox's opens its cashier page, so a browser can pay it.
      expect(await page.getByLabel('Payment code').inputValue()).toMatch(/^(weixin:|https?:)\/\//);
      await page.getByTestId('order').getByText('Waiting for payment', { exact: true }).waitFor();
      await screenshot(page, 'console-top-up-wechat');

      // Chinese.
      await page.getByLabel('Language').selectOption('zh-CN');
      await page.getByRole('link', { name: '概览' }).click();
      await page.getByRole('heading', { name: '概览' }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('zh-CN');
      await screenshot(page, 'console-dashboard-zh');
      await page.getByLabel('语言').selectOption('en');

      // Sign out: nothing of the session is left in the browser, and the server refuses its refresh token.
      const refreshToken = await page.evaluate<string>('localStorage.getItem("legwork.console.refresh")');
      expect(refreshToken).toEqual(expect.any(String));
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('tab', { name: 'Sign in' }).waitFor();
      expect(await page.evaluate('Object.keys(localStorage).filter((k) => k.includes("refresh"))')).toEqual(
        [],
      );
      await waitFor(
        async () =>
          (await rig.t.http.post('/v1/agent/refresh').send({ refresh_token: refreshToken })).status === 401,
        'the signed-out refresh token refused',
      );

      // Operator: the agent's tier and a manual credit; provider health.
      await createOrUpdateAdmin(rig.t.db, { email: 'ops@example.com', password: 'operator password 2' });
      await page.getByRole('tab', { name: 'Operator' }).click();
      await page.getByLabel('Email').fill('ops@example.com');
      await page.getByLabel('Password').fill('operator password 2');
      await page.getByRole('button', { name: 'Sign in as operator' }).click();
      await page.getByRole('link', { name: 'Agents' }).click();
      const card = page.getByRole('region', { name: /Pages Ltd/ });
      await card.getByLabel('Tier').selectOption('verified');
      await card.getByRole('button', { name: 'Save' }).click();
      await card.getByText('Saved.').waitFor();
      const creditedFrom = (await rig.t.http.get('/v1/agent/me').set('Authorization', `Bearer ${newKey}`))
        .body.balance_cents as number;
      await card.getByLabel('Amount (¥)').fill('10.00');
      await card.getByLabel('Reason (e.g. bank transfer ref.)').fill('bank transfer 42');
      await card.getByRole('button', { name: 'Credit the balance' }).click();
      await card.getByText(/^Credited\. Balance: (CN)?¥[\d,]+\.\d\d\.$/).waitFor();
      const me = await rig.t.http.get('/v1/agent/me').set('Authorization', `Bearer ${newKey}`);
      expect(me.body).toMatchObject({ tier: 'verified', balance_cents: creditedFrom + 1000 });
      await screenshot(page, 'console-ops-agents');
      await page.getByRole('link', { name: 'Payment providers' }).click();
      await page.getByRole('row').filter({ hasText: 'alipay' }).getByText('Available').waitFor();

      await operatorSecurity(page);

      for (const { errors } of pages) expect(errors.unexpected()).toEqual([]);
    }));

  /**
   * The operator (signed in with the password alone) turns two-factor on, reads the audit log, signs out and in
   * again with a code and with a recovery code; then the 12-hour end, and a second operator who must enrol first.
   */
  async function operatorSecurity(page: Page): Promise<void> {
    const code = (secret: string) => totpCode(secret, rig.t.clock.now());
    await page.getByRole('link', { name: 'Security' }).click();
    const mine = page.getByRole('region', { name: 'Your two-factor sign-in' });
    await mine.getByText('Off', { exact: true }).waitFor();
    await mine.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await mine.getByRole('img', { name: 'QR code to add this account to an authenticator app' }).waitFor();
    const secret = (await mine.getByLabel('Key, to type in instead of scanning').inputValue()).replace(
      /\s/g,
      '',
    );
    await mine.getByLabel('First code from the app').fill(code(secret));
    await mine.getByRole('button', { name: 'Turn on', exact: true }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const recovery = await list.getByRole('listitem').allTextContents();
    expect(recovery).toHaveLength(10);
    await screenshot(page, 'console-ops-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await mine.getByText('On', { exact: true }).waitFor();
    await mine.getByText('Recovery codes left: 10').waitFor();
    const team = page.getByRole('region', { name: 'Operators' });
    const opsRow = team.getByRole('row').filter({ hasText: 'ops@example.com' });
    await opsRow.getByText('On', { exact: true }).waitFor();

    // The audit log: what this operator did, newest first, with before and after; filtered; in Chinese.
    await page.getByRole('link', { name: 'Audit log' }).click();
    const entries = page.getByTestId('audit-entry');
    await entries.filter({ hasText: 'Two-factor turned on' }).waitFor();
    await entries.filter({ hasText: 'Agent changed' }).filter({ hasText: 'standard → verified' }).waitFor();
    const credit = entries.filter({ hasText: 'Balance credited' });
    await credit.filter({ hasText: 'reason: bank transfer 42' }).waitFor();
    await entries
      .filter({ hasText: 'Signed in' })
      .first()
      .getByText(/^from /)
      .waitFor();
    await screenshot(page, 'console-ops-audit');
    await page.getByLabel('Action').selectOption({ label: 'Balance credited' });
    await page.getByRole('button', { name: 'Show' }).click();
    await entries.filter({ hasText: 'Two-factor turned on' }).waitFor({ state: 'detached' });
    expect(await entries.count()).toBe(1);
    await page.getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('heading', { name: '操作日志' }).waitFor();
    await entries.getByText('余额入账').waitFor();
    await page.getByLabel('语言').selectOption('en');

    // Sign out revokes the session; signing in again asks for a code, or takes a recovery code once.
    const refreshKey = 'legwork.console.admin.refresh';
    const opRefresh = await page.evaluate<string>(`localStorage.getItem("${refreshKey}")`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in as operator' }).waitFor();
    await waitFor(
      async () =>
        (await rig.t.http.post('/v1/admin/refresh').send({ refresh_token: opRefresh })).status === 401,
      'the signed-out operator refresh token refused',
    );
    const signIn = async () => {
      await page.getByLabel('Email').fill('ops@example.com');
      await page.getByLabel('Password').fill('operator password 2');
      await page.getByRole('button', { name: 'Sign in as operator' }).click();
      return page.getByRole('form', { name: 'Two-factor sign-in' });
    };
    rig.t.clock.advance(30_000); // the enrolment's code is used: the next one
    const step = await signIn();
    await step.getByLabel('Code from your authenticator app').fill(code(secret));
    await screenshot(page, 'console-ops-totp');
    await step.getByRole('button', { name: 'Verify and sign in' }).click();
    // Signed in: back on the page they were on.
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    const again = await signIn();
    await again.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await again.getByLabel('Recovery code').fill(recovery[0]);
    await again.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.getByRole('link', { name: 'Security' }).click();
    await mine.getByText('Recovery codes left: 9').waitFor();

    // Twelve hours later the session is over, whatever the activity, and the sign-in screen says why.
    rig.t.clock.advanceHours(12);
    await page.reload();
    await page
      .getByText('Your operator session ended 12 hours after sign-in. Please sign in again.')
      .waitFor();

    // An operator who must use two-factor sets it up at first sign-in, from the QR code's key.
    await createOrUpdateAdmin(rig.t.db, {
      email: 'new-ops@example.com',
      password: 'operator password 3',
      requireTotp: true,
    });
    await page.getByLabel('Email').fill('new-ops@example.com');
    await page.getByLabel('Password').fill('operator password 3');
    await page.getByRole('button', { name: 'Sign in as operator' }).click();
    const setup = page.getByRole('form', { name: 'Set up two-factor sign-in' });
    await setup.getByRole('img', { name: 'QR code to add this account to an authenticator app' }).waitFor();
    const key = (await setup.getByLabel('Key, to type in instead of scanning').inputValue()).replace(
      /\s/g,
      '',
    );
    await setup.getByLabel('First code from the app').fill(code(key));
    await setup.getByRole('button', { name: 'Verify and sign in' }).click();
    await list.waitFor();
    expect(await list.getByRole('listitem').count()).toBe(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('link', { name: 'Security' }).click();
    await mine.getByText('Required for this account').waitFor();
    await mine.getByText('On', { exact: true }).waitFor();
    const [row] = await rig.t.db.query(
      `SELECT totp_enabled_at IS NOT NULL AS enabled FROM admins WHERE email = 'new-ops@example.com'`,
    );
    expect(row.enabled).toBe(true);

    // With two-factor on, they reset the first operator's (a lost phone): it is off and their sessions are over.
    await opsRow.getByRole('button', { name: 'Reset two-factor' }).click();
    await opsRow.getByRole('button', { name: 'Reset', exact: true }).click();
    await opsRow.getByText('Two-factor reset for ops@example.com; their sessions ended.').waitFor();
    await opsRow.getByText('Off', { exact: true }).waitFor();
    const login = await rig.t.http
      .post('/v1/admin/login')
      .send({ email: 'ops@example.com', password: 'operator password 2' });
    expect(login.body).toMatchObject({ status: 'signed_in', totp_enabled: false });
  }
});
