import { randomInt } from 'node:crypto';
import { createAgent, TestAgent } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import {
  collectPageErrors,
  launchChromium,
  phoneContext,
  requireWebBuild,
  screenshot,
  withDiagnostics,
  type Browser,
  type BrowserContext,
  type Page,
} from '../support/browser';
import { listen } from '../support/held-upload';
import { offset, spot } from '../support/photos';
import { createTask } from '../support/tasks';
import { waitFor } from '../support/waiters';

/**
 * On call and offers in the worker app (product-decisions §16), on a 390×844 phone: the app shows the server's
 * on-call state and the offers waiting, with their real time left, when the worker signs in again on another phone;
 * a declined offer's task is taken from the nearby list; a worker going on call after a task was posted is offered
 * it; signing out takes the worker off call. Located by role and label, as a person finds them.
 */
describe('worker app: on call and waiting offers', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let agent: TestAgent;
  const here = spot();
  const phone = `13${String(randomInt(1e9)).padStart(9, '0')}`;
  const password = 'worker-pass-1';
  let workerId: string;
  let context: BrowserContext;
  let page: Page;
  const errors: ReturnType<typeof collectPageErrors>[] = [];

  beforeAll(async () => {
    requireWebBuild();
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
    base = await listen(t);
    browser = await launchChromium();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
    const code = await t.http
      .post('/v1/worker/send-sms')
      .query({ phone_number: phone, purpose: 'register' })
      .expect(200);
    const registered = await t.http
      .post('/v1/worker/register')
      .send({ phone_number: phone, password, sms_code: code.body.sandbox_code, display_name: '小王' })
      .expect(201);
    workerId = registered.body.worker_id;
    // Consent to precise location, given once as the app's consent screen does (worker-app.e2e-spec shows that
    // screen): going on call needs it (product-decisions §19).
    await t.http
      .post('/v1/worker/consents')
      .set('Authorization', `Bearer ${registered.body.access_token}`)
      .send({ kind: 'precise_location' })
      .expect(200);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A phone 30 m north of `here`, signed in through the login screen. */
  async function signIn(): Promise<Page> {
    context = await phoneContext(browser, base, offset(here, 30), { locale: 'en-US' });
    const p = await context.newPage();
    p.setDefaultTimeout(15_000);
    errors.push(collectPageErrors(p));
    await p.goto('/app/');
    await p.waitForURL(/\/app\/login$/);
    await p.getByLabel('手机号').fill(phone);
    await p.getByLabel('密码', { exact: true }).fill(password);
    await p.getByRole('button', { name: '登录', exact: true }).click();
    await p.getByRole('heading', { name: '附近任务' }).waitFor();
    return p;
  }

  const pendingOffer = async (taskId: string) =>
    (
      await t.db.query(
        `SELECT id FROM assignments WHERE task_id = $1 AND worker_id = $2 AND status = 'pending'`,
        [taskId, workerId],
      )
    )[0] as { id: string } | undefined;
  const diagnosed = (body: () => Promise<void>) => withDiagnostics([{ page, errors: errors.at(-1)! }], body);

  it('signed in again on another phone while on call, shows being on call and the offer waiting, with its real time left', async () => {
    page = await signIn();
    await diagnosed(async () => {
      const onCall = page.getByRole('switch', { name: /接单/ });
      await page.getByText('离线：不会收到任务推送').waitFor();
      await onCall.click();
      await page.getByText('在线：正在接收附近的任务推送').waitFor();
      await page.getByText(/接单至 /).waitFor();
      // The phone is put away: the app closes without signing out, and the worker stays on call.
      await context.close();

      const taskId = await createTask(t, agent, {
        title: '核对门店营业时间',
        location: { ...here, address: '福州路 88 号' },
      });
      const offer = await waitFor(() => pendingOffer(taskId), 'the offer to the worker on call');
      // Nobody's app was open to receive it.
      await waitFor(
        async () =>
          (await t.db.query(`SELECT status FROM offer_deliveries WHERE assignment_id = $1`, [offer.id]))[0]
            ?.status === 'no_connection',
        'the socket delivery to be recorded',
      );
      // The offer was made a minute ago: the app must count down what is left of it, not a fresh 120 s.
      await t.db.query(
        `UPDATE assignments SET offered_at = offered_at - interval '60 seconds',
                offer_expires_at = offer_expires_at - interval '60 seconds' WHERE id = $1`,
        [offer.id],
      );

      page = await signIn();
      await page.getByText('在线：正在接收附近的任务推送').waitFor();
      expect(await page.getByRole('switch', { name: /接单/ }).isChecked()).toBe(true);
      const banner = page.getByRole('alertdialog', { name: '新任务推送' });
      await banner.getByText('核对门店营业时间').waitFor();
      const left = Number(/剩余 (\d+) 秒/.exec((await banner.getByRole('timer').textContent())!)![1]);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(60);
      await screenshot(page, 'worker-offer-waiting');

      // The offer's own page (where its push and SMS link lead) says why it came to this worker (§19).
      await page.goto(`/app/offers/${offer.id}`);
      const why = page.getByRole('region', { name: '为什么推送给您' });
      await why.getByText(/^您正在接单，距离任务 \d+ 米；这个任务推送给 1 公里 以内的人。$/).waitFor();
      await why.getByText('它不要求特别的技能。').waitFor();
      await why.getByText(/^您的信誉是 \d\.\d；它不设最低信誉。$/).waitFor();
      await why.getByText('在符合条件的人中，离得近、信誉高、回应快的人先收到推送。').waitFor();
      await page.goto('/app/');
      await page.getByRole('alertdialog', { name: '新任务推送' }).getByText('核对门店营业时间').waitFor();
    });
  });

  it('declines the offer, and takes the same task from the nearby list afterwards', async () => {
    await diagnosed(async () => {
      const banner = page.getByRole('alertdialog', { name: '新任务推送' });
      await banner.getByRole('button', { name: '拒绝' }).click();
      await banner.waitFor({ state: 'detached' });
      // Nobody else is near: the slot is open again, and the worker who declined sees the task in the list.
      const card = page
        .getByRole('list', { name: '附近任务' })
        .getByRole('link', { name: /核对门店营业时间/ });
      await card.waitFor();
      await card.click();
      await page.getByRole('button', { name: '接受任务' }).click();
      await page.getByRole('button', { name: '开始任务' }).waitFor();
      const [row]: { status: string; offered_at: Date | null }[] = await t.db.query(
        `SELECT status, offered_at FROM assignments WHERE worker_id = $1`,
        [workerId],
      );
      // The declined offer's own assignment, now accepted.
      expect(row.status).toBe('accepted');
      expect(row.offered_at).not.toBeNull();
    });
  });

  it('going on call after a task was posted, the worker is offered it at once', async () => {
    await diagnosed(async () => {
      await page.getByRole('link', { name: '附近任务' }).click();
      await page.getByRole('switch', { name: /接单/ }).click();
      await page.getByText('离线：不会收到任务推送').waitFor();
      const taskId = await createTask(t, agent, {
        title: '拍摄公交站牌',
        location: { ...offset(here, 200), address: '人民广场站' },
      });
      expect(await pendingOffer(taskId)).toBeUndefined();
      await page.getByRole('switch', { name: /接单/ }).click();
      await page.getByText('在线：正在接收附近的任务推送').waitFor();
      const banner = page.getByRole('alertdialog', { name: '新任务推送' });
      await banner.getByText('拍摄公交站牌').waitFor();
      await expect(banner.getByRole('timer').textContent()).resolves.toMatch(/剩余 \d+ 秒/);
      await banner.getByRole('button', { name: '接受' }).click();
      await page.getByRole('button', { name: '开始任务' }).waitFor();
    });
  });

  it('shows being on call in English too, and signing out takes the worker off call on the server', async () => {
    await diagnosed(async () => {
      await page.getByRole('link', { name: '我的', exact: true }).click();
      await page.getByLabel('语言').selectOption('en');
      await page.getByRole('link', { name: 'Nearby' }).click();
      await page.getByText('Online: receiving offers nearby').waitFor();
      await page.getByText(/Available until /).waitFor();
      await page.getByRole('link', { name: 'Me', exact: true }).click();
      await page.getByLabel('Language').selectOption('zh-CN');
      await page.getByRole('button', { name: '退出登录' }).click();
      await page.waitForURL(/\/app\/login$/);
      await waitFor(
        async () =>
          (await t.db.query(`SELECT online FROM worker_availability WHERE worker_id = $1`, [workerId]))[0]
            ?.online === false,
        'the worker to be off call',
      );
    });
  });

  it('had no page errors, console errors or CSP violations', () => {
    expect(errors.flatMap((e) => e.unexpected())).toEqual([]);
  });
});
