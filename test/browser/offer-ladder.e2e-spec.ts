import { randomInt } from 'node:crypto';
import { Tokens } from '../../src/auth/tokens';
import { startTestPushService, type TestPushService } from '../../src/sandbox/push/test-push-service';
import { createAgent, type TestAgent } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
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
import { freePort } from '../support/process';
import { offset } from '../support/photos';
import { createTask } from '../support/tasks';
import { waitFor } from '../support/waiters';
import { subscribeAtTestPushService, type TestPushSubscription } from '../support/web-push-client';
import { leaveQuietHours, offerSmsOf, PLACE, runSmsJobNow } from '../notifications/ladder-helpers';

/**
 * The offer ladder in the worker app (product-decisions §16), on a 390×844 phone with no app open when the offer is
 * made: the offer reaches the phone as a Web Push, its service worker shows it and a tap opens the offer's page, where
 * it is accepted; a second offer left unanswered 30 s (the tests' clock moved) comes by SMS, whose link, opened on a
 * signed-out phone, signs in first and lands on the offer.
 *
 * Two stand-ins, where this machine cannot do what a phone does. Chrome subscribes through Google's push service
 * (FCM), which is out of reach here, and a Playwright context is a private window, where Chrome offers no Push API:
 * so the page's PushManager returns the subscription this test made at the sandbox's test push service, as FCM would
 * hand Chrome one. Everything after is real: the app registers it with the API, the API encrypts the offer to its
 * keys and pushes it to the test push service with its VAPID signature, the test decrypts it with the
 * subscription's keys, and hands the plain message to Chromium's service worker through the DevTools protocol
 * (ServiceWorker.deliverPushMessage), as the browser does with what FCM delivers. A tap on a notification cannot be
 * made in headless Chromium either: the service worker's own click handler runs with the notification it shows.
 */
/** A notification the service worker shows, as getNotifications() lists it. */
interface Notified {
  title: string;
  body: string;
  tag: string;
  data: { url: string };
}

describe('worker app: offers reach a closed app by Web Push, then SMS', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let push: TestPushService;
  let device: TestPushSubscription;
  let agent: TestAgent;
  let context: BrowserContext;
  let page: Page;
  let workerId: string;
  const phone = `13${String(randomInt(1e9)).padStart(9, '0')}`;
  const password = 'worker-pass-1';
  const errors: ReturnType<typeof collectPageErrors>[] = [];

  beforeAll(async () => {
    requireWebBuild();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_BASE_URL: base, AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
    await t.app.listen(port, '127.0.0.1');
    // Offer SMS are not sent at night in China: a run then moves the app's clock to the morning (the countdowns on
    // screen, counted by the phone's clock, then show that difference too).
    leaveQuietHours(t);
    push = await startTestPushService();
    device = await subscribeAtTestPushService(push.baseUrl, t.config.webPush.publicKey);
    browser = await launchChromium();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
    const code = await t.http.post('/v1/worker/send-sms').query({ phone_number: phone }).expect(200);
    const registered = await t.http
      .post('/v1/worker/register')
      .send({ phone_number: phone, password, sms_code: code.body.sandbox_code })
      .expect(201);
    workerId = registered.body.worker_id;
    // Consent to precise location, given once as the app's consent screen does (worker-app.e2e-spec shows that
    // screen): going on call needs it (product-decisions §19).
    await t.http
      .post('/v1/worker/consents')
      .set('Authorization', `Bearer ${registered.body.access_token}`)
      .send({ kind: 'precise_location' })
      .expect(200);
    context = await phoneContext(browser, base, offset(PLACE, 40));
    // FCM's part (see above): the subscription a push service would give this browser.
    await context.addInitScript({
      content: `(() => {
        const subscription = ${JSON.stringify(device.toJSON())};
        const made = {
          endpoint: subscription.endpoint,
          expirationTime: null,
          options: { userVisibleOnly: true },
          toJSON: () => subscription,
          unsubscribe: () => Promise.resolve(true),
        };
        let subscribed = false;
        PushManager.prototype.subscribe = () => { subscribed = true; return Promise.resolve(made); };
        PushManager.prototype.getSubscription = () => Promise.resolve(subscribed ? made : null);
      })();`,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await push?.stop();
    await t?.close();
  });

  /**
   * The notification permission of the app's origin in the phone's context, as the worker's choice in the browser's
   * dialog leaves it (a context made with some permissions granted refuses all others, so the test sets it).
   */
  async function notificationPermission(setting: 'prompt' | 'granted'): Promise<void> {
    const probe = await context.newPage();
    const { targetInfo } = await (await context.newCDPSession(probe)).send('Target.getTargetInfo');
    await probe.close();
    await (
      await browser.newBrowserCDPSession()
    ).send('Browser.setPermission', {
      permission: { name: 'notifications' },
      setting,
      origin: base,
      browserContextId: targetInfo.browserContextId,
    });
  }

  async function open(path: string, ctx = context): Promise<Page> {
    const p = await ctx.newPage();
    p.setDefaultTimeout(15_000);
    errors.push(collectPageErrors(p));
    await p.goto(path);
    return p;
  }
  async function signIn(p: Page): Promise<void> {
    await p.waitForURL(/\/app\/login$/);
    await p.getByLabel('手机号').fill(phone);
    await p.getByLabel('密码', { exact: true }).fill(password);
    await p.getByRole('button', { name: '登录', exact: true }).click();
  }
  const diagnosed = (body: () => Promise<void>) => withDiagnostics([{ page, errors: errors.at(-1)! }], body);
  const pendingOffer = async (taskId: string) => {
    const rows: { id: string }[] = await t.db.query(
      `SELECT id FROM assignments WHERE task_id = $1 AND worker_id = $2 AND status = 'pending'`,
      [taskId, workerId],
    );
    return rows[0];
  };
  const offerSmsOn = async () => {
    const rows: { offer_sms_enabled: boolean }[] = await t.db.query(
      `SELECT offer_sms_enabled FROM workers WHERE id = $1`,
      [workerId],
    );
    return rows[0].offer_sms_enabled;
  };

  it('asks for notifications when going on call, with what they are for, and registers the phone', async () => {
    await notificationPermission('prompt');
    page = await open('/app/');
    await diagnosed(async () => {
      await signIn(page);
      await page.getByRole('heading', { name: '附近任务' }).waitFor();
      await page.getByRole('switch', { name: /接单/ }).click();
      await page.getByText('在线：正在接收附近的任务推送').waitFor();
      const ask = page.getByRole('region', { name: '关闭应用也能收到任务邀请' });
      await ask.getByText(/30 秒未答复时，会再发一条短信提醒/).waitFor();
      await screenshot(page, 'worker-push-ask');
      // The worker allows notifications in the browser's dialog.
      await notificationPermission('granted');
      await ask.getByRole('button', { name: '开启通知' }).click();
      await ask.waitFor({ state: 'detached' });
      const rows: { endpoint: string; locale: string }[] = await t.db.query(
        `SELECT endpoint, locale FROM push_subscriptions WHERE worker_id = $1`,
        [workerId],
      );
      expect(rows).toEqual([{ endpoint: device.endpoint, locale: 'zh-CN' }]);
    });
  });

  it('with the app closed, the offer comes as a Web Push the service worker shows, and a tap opens it to accept', async () => {
    // The phone is put away: no app open, so no socket; the worker stays on call.
    await page.close();
    const taskId = await createTask(t, agent, {
      title: '拍摄面包店门头',
      location: { ...PLACE, address: '南京东路 300 号' },
    });
    const offer = await waitFor(() => pendingOffer(taskId), 'the offer');
    const [message] = await waitFor(async () => {
      const list = await device.messages();
      return list.length > 0 && list;
    }, 'the push at the test push service');
    const plain = device.decrypt(message);
    expect(JSON.parse(plain)).toMatchObject({
      assignment_id: offer.id,
      title: '拍摄面包店门头',
      payment_cents: 4500,
      url: `/app/offers/${offer.id}`,
    });

    // What the browser does with what its push service delivers: the service worker's push event.
    const blank = await context.newPage();
    const cdp = await context.newCDPSession(blank);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    const registration = await waitFor(
      () => registrations.find((r) => r.scopeURL === `${base}/app/` && !r.isDeleted),
      'the app service worker',
    );
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: base,
      registrationId: registration.registrationId,
      data: plain,
    });
    const worker = await waitFor(() => context.serviceWorkers()[0], 'the running service worker');
    const shown = await waitFor(async () => {
      const list = await worker.evaluate<Notified[]>(
        `self.registration.getNotifications()
           .then((ns) => ns.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })))`,
      );
      return list.length > 0 && list;
    }, 'the notification');
    expect(shown).toEqual([
      {
        title: '新任务邀请 · ¥45.00',
        body: expect.stringContaining('拍摄面包店门头'),
        tag: `offer-${offer.id}`,
        data: expect.objectContaining({ url: `/app/offers/${offer.id}` }),
      },
    ]);

    // The tap: the service worker's click handler, with that notification, takes the app's window to the offer.
    page = await open('/app/profile');
    await diagnosed(async () => {
      await page.getByRole('heading', { name: '我的' }).waitFor();
      await worker.evaluate(`self.registration.getNotifications().then(([n]) => openOffer(n.data.url))`);
      await page.waitForURL(new RegExp(`/app/offers/${offer.id}$`));
      await page.getByRole('heading', { name: '拍摄面包店门头', level: 1 }).waitFor();
      const dialog = page.getByRole('alertdialog', { name: '新任务推送' });
      await expect(dialog.getByRole('timer').textContent()).resolves.toMatch(/剩余 \d+ 秒/);
      // The agent's record in words (product-decisions §19): nothing decided yet, so no rate.
      await page.getByText('该发布方 90 天内审核的结果不足 5 份，暂无驳回率；没有输掉申诉').waitFor();
      await screenshot(page, 'worker-offer-page');
      await dialog.getByRole('button', { name: '接受' }).click();
      await page.waitForURL(new RegExp(`/app/mine/${offer.id}$`));
      await page.getByRole('button', { name: '开始任务' }).waitFor();
    });
    const [row]: { status: string }[] = await t.db.query(`SELECT status FROM assignments WHERE id = $1`, [
      offer.id,
    ]);
    expect(row.status).toBe('accepted');
  });

  it('an offer left unanswered 30 s comes by SMS, whose link signs a signed-out phone in and opens the offer', async () => {
    await page.close();
    const taskId = await createTask(t, agent, {
      title: '核对营业时间',
      location: { ...PLACE, address: '福州路 88 号' },
    });
    const offer = await waitFor(() => pendingOffer(taskId), 'the second offer');
    t.clock.advance(30_000);
    await runSmsJobNow(t, offer.id);
    const tokens = await t.app.get(Tokens).issuePair('worker', workerId);
    const worker = { id: workerId, phone, jwt: tokens.access_token, bearer: `Bearer ${tokens.access_token}` };
    const [sms] = await offerSmsOf(t, worker);
    expect(sms.params.link).toBe(`${base}/app/offers/${offer.id}`);
    expect(sms.text).toContain(sms.params.link);

    // Another phone, signed out: the link asks to sign in first, then lands on the offer.
    const other = await phoneContext(browser, base, offset(PLACE, 40));
    page = await open(sms.params.link, other);
    await diagnosed(async () => {
      await signIn(page);
      await page.waitForURL(new RegExp(`/app/offers/${offer.id}$`));
      await page.getByRole('heading', { name: '核对营业时间', level: 1 }).waitFor();
      const dialog = page.getByRole('alertdialog', { name: '新任务推送' });
      await dialog.getByRole('button', { name: '拒绝' }).click();
      await page.getByRole('heading', { name: '附近任务' }).waitFor();
    });
    const [row]: { status: string }[] = await t.db.query(`SELECT status FROM assignments WHERE id = $1`, [
      offer.id,
    ]);
    expect(row.status).toBe('declined');
    await other.close();
  });

  it('offer SMS can be turned off in the profile', async () => {
    page = await open('/app/profile');
    await diagnosed(async () => {
      await page.getByRole('heading', { name: '任务邀请提醒' }).waitFor();
      await page.getByText('这部手机已开启通知：关闭应用也能收到任务邀请。').waitFor();
      const sms = page.getByRole('switch', { name: /短信提醒/ });
      expect(await sms.isChecked()).toBe(true);
      await sms.click();
      await waitFor(async () => !(await offerSmsOn()), 'offer SMS to be off');
      expect(await sms.isChecked()).toBe(false);
      await screenshot(page, 'worker-notification-settings');
    });
    for (const e of errors) expect(e.unexpected()).toEqual([]);
  });
});
