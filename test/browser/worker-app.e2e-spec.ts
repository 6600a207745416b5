import { createAgent, TestAgent } from '../support/actors';
import { createAdmin } from '../support/admins';
import { workerBalance, balanceOf } from '../support/balances';
import {
  collectPageErrors,
  launchChromium,
  phoneContext,
  requireWebBuild,
  screenshot,
  takePhoto,
  type Browser,
  type BrowserContext,
  type Page,
} from '../support/browser';
import { listen } from '../support/held-upload';
import { createUploadTestApp, jpeg, offset, spot, type UploadTestApp } from '../support/photos';
import { createTask, feedback } from '../support/tasks';

/**
 * The worker's side of a whole task, in Chromium on a 390×844 phone with emulated geolocation, against the real
 * API serving the built worker app (product-decisions §14): sign up by SMS code, go online, receive the offer live,
 * accept, start, a photo 300 m away refused with nothing changed, a photo 30 m away accepted, the agent approves
 * (through the HTTP API here), the earnings show, the agent is rated, a withdrawal is requested and waits for review
 * in the withdrawal history until an operator approves it (over HTTP); an assignment's page opens from a deep link,
 * and logging out revokes the refresh token.
 * Chinese is the default; no page error, console error or CSP violation is tolerated beyond the one HTTP refusal
 * the test provokes. Screens are located by role and label, as a person finds them.
 */
describe('worker app in a real browser', () => {
  let t: UploadTestApp;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let agent: TestAgent;
  let pageErrors: ReturnType<typeof collectPageErrors>;
  const here = spot();
  const phone = `13${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

  beforeAll(async () => {
    requireWebBuild();
    t = await createUploadTestApp();
    base = await listen(t);
    browser = await launchChromium();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
    // The worker stands 30 m north of where the task will be.
    // A browser set to English: the app still opens in Chinese, its default.
    context = await phoneContext(browser, base, offset(here, 30), { locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    pageErrors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The first row of a query (the app's own state, read back to check what the screens said). */
  const one = async <T>(sql: string, params: unknown[]): Promise<T> => {
    const rows: T[] = await t.db.query(sql, params);
    return rows[0];
  };
  const workerId = async () =>
    (await one<{ id: string }>(`SELECT id FROM workers WHERE phone_number = $1`, [phone])).id;
  const assignment = (taskId: string) =>
    one<{ id: string; status: string }>(`SELECT id, status FROM assignments WHERE task_id = $1`, [taskId]);

  let taskId: string;

  it('opens in Chinese by default and signs a new worker up with the sandbox SMS code', async () => {
    await page.goto('/app/');
    await page.waitForURL(/\/app\/login$/);
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await page.getByRole('tab', { name: '注册' }).click();
    await page.getByLabel('手机号').fill(phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    const notice = await page.getByText(/沙盒模式验证码：\d{6}/).textContent();
    const code = /(\d{6})/.exec(notice!)![1];
    await page.getByLabel('短信验证码').fill(code);
    await page.getByLabel('密码').fill('worker-pass-1');
    await page.getByLabel('昵称（可选）').fill('小李');
    await screenshot(page, 'worker-signup');
    await page.getByRole('button', { name: '注册并登录' }).click();
    await page.getByRole('heading', { name: '附近任务' }).waitFor();
    // The session is the refresh token in storage and nothing else; the access token lives in memory.
    const stored = await page.evaluate<string[]>('Object.keys(localStorage)');
    expect(stored.sort()).toEqual(['legwork.app.refresh']);
    await workerId();
  });

  it('asks for consent to precise location before going on call; without it no position is sent', async () => {
    await page.getByRole('switch', { name: /接单/ }).click();
    // The server refused (403 consent_required): the consent screen shows its text, version 1, in Chinese.
    await page.getByRole('heading', { name: '您的精确位置' }).waitFor();
    await page.getByText(/保存 30 天/).waitFor();
    await page.getByText('本文本第 1 版').waitFor();
    await screenshot(page, 'worker-consent');
    expect(await page.getByRole('switch', { name: /接单/ }).isChecked()).toBe(false);
    // Not now: still off call, and nothing of the position reached the server.
    await page.getByRole('button', { name: '暂不' }).click();
    await page.getByText('离线：不会收到任务推送').waitFor();
    const none = await t.db.query(`SELECT 1 FROM position_reports WHERE worker_id = $1`, [await workerId()]);
    expect(none).toEqual([]);
    // The server's 403 is logged by chromium as a failed load; the worker saw a question, not an error.
    pageErrors.expect(/status of 403/);
    await page.getByRole('switch', { name: /接单/ }).click();
    await page.getByRole('button', { name: '同意并开始接单' }).click();
    await page.getByText('在线：正在接收附近的任务推送').waitFor();
    const consent = await one<{ version: number }>(
      `SELECT version FROM worker_consents WHERE worker_id = $1 AND withdrawn_at IS NULL`,
      [await workerId()],
    );
    expect(consent.version).toBe(1);
  });

  it('goes online with the phone position and receives a new task as a live offer with a countdown', async () => {
    const row = await one<{ latitude: number }>(
      `SELECT latitude FROM worker_availability WHERE worker_id = $1`,
      [await workerId()],
    );
    expect(row.latitude).toBeCloseTo(offset(here, 30).latitude, 5);

    taskId = await createTask(t, agent, {
      title: '拍摄面包店门头',
      description: '拍一张店门口的照片，需看得到营业时间。',
      location: { ...here, address: '南京东路 300 号' },
      task_type: 'photo',
    });
    const offer = page.getByRole('alertdialog', { name: '新任务推送' });
    await offer.waitFor();
    await expect(offer.getByText('拍摄面包店门头').isVisible()).resolves.toBe(true);
    await expect(offer.getByRole('timer').textContent()).resolves.toMatch(/剩余 \d+ 秒/);
    await screenshot(page, 'worker-offer');
    await offer.getByRole('button', { name: '接受' }).click();
    await page.getByRole('button', { name: '开始任务' }).waitFor();
    expect((await assignment(taskId)).status).toBe('accepted');
    await screenshot(page, 'worker-task');
  });

  it('starts, and a photo taken 300 m away is refused in words, its code under details, and changes nothing', async () => {
    await page.getByRole('button', { name: '开始任务' }).click();
    await page.getByRole('button', { name: '放弃任务' }).waitFor();
    await page.getByRole('button', { name: '开始任务' }).waitFor({ state: 'detached' });
    expect((await assignment(taskId)).status).toBe('in_progress');
    const escrowBefore = await balanceOf(t, `task:${taskId}:escrow`);
    const filesBefore = await t.storedFiles();

    // The photo field is a camera button: it opens the rear camera for one image, and the photo shows before it is
    // sent.
    expect(await page.getByRole('img', { name: '刚拍的照片' }).count()).toBe(0);
    pageErrors.expect(/Failed to load resource: the server responded with a status of 400/);
    const camera = await takePhoto(page, {
      name: 'far.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg({ gps: offset(here, 300) }),
    });
    expect(camera.multiple).toBe(false);
    expect(await camera.input.getAttribute('accept')).toBe('image/*');
    expect(await camera.input.getAttribute('capture')).toBe('environment');
    const preview = page.getByRole('img', { name: '刚拍的照片' });
    await preview.waitFor();
    // The preview shows the photo itself: the image decoded, not a broken one.
    await page.waitForFunction(
      `(() => { const img = document.querySelector('img[alt="刚拍的照片"]'); return img.complete && img.naturalWidth > 0; })()`,
    );
    await page.getByRole('button', { name: '重新拍照' }).waitFor();
    await page.getByLabel('结果', { exact: true }).fill('营业中');
    await page.getByRole('button', { name: '提交', exact: true }).click();
    const refusal = page.getByRole('alert');
    await refusal.getByText(/照片拍摄地点距任务 (29\d|30\d) 米，须在 100 米以内。/).waitFor();
    // Words only: the code and the request id wait under "详情" (details) for support.
    const code = refusal.getByText('错误码：photo_location_mismatch', { exact: false });
    expect(await code.isVisible()).toBe(false);
    await screenshot(page, 'worker-photo-refused');
    const details = refusal.getByRole('button', { name: '详情', expanded: false });
    await details.click();
    await code.waitFor();
    await refusal.getByText(/请求 [0-9a-f-]{36}/).waitFor();
    expect(await refusal.getByRole('button', { name: '详情' }).getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'worker-photo-refused-details');
    expect((await assignment(taskId)).status).toBe('in_progress');
    expect(await balanceOf(t, `task:${taskId}:escrow`)).toBe(escrowBefore);
    expect(await t.storedFiles()).toBe(filesBefore);
  });

  it('submits a photo with EXIF GPS 30 m away, with the device fix', async () => {
    await takePhoto(page, {
      name: 'shop.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg({ gps: offset(here, 30) }),
    });
    await page.getByText(/拍照时定位：±\d+ 米/).waitFor();
    await page.getByRole('button', { name: '提交', exact: true }).click();
    await page.getByText(/已提交，等待发布方审核。照片距任务 (29|30|31) 米。/).waitFor();
    const a = await assignment(taskId);
    expect(a.status).toBe('submitted');
    const sub = await one<{ device_location: { latitude: number } | null }>(
      `SELECT device_location FROM assignments WHERE id = $1`,
      [a.id],
    );
    expect(sub.device_location?.latitude).toBeCloseTo(offset(here, 30).latitude, 5);
  });

  it('shows the approval live, the earnings, and rates the agent', async () => {
    await feedback(t, agent, taskId, { accept_result: true, rating: 5, quality_score: 4.5 }).expect(200);
    const verdict = page.getByRole('heading', { name: /审核结果/ });
    await verdict.waitFor();
    await verdict.getByText('已通过').waitFor();
    await page.getByLabel('评分（0–5）').selectOption('5');
    await page.getByLabel('评价（可选）').fill('说明清楚');
    await page.getByRole('button', { name: '提交评价' }).click();
    await page.getByText('感谢评价！').waitFor();

    await page.getByRole('link', { name: '收入' }).click();
    await page.getByTestId('balance').getByText('45.00').waitFor();
    expect(await workerBalance(t, await workerId())).toBe(4500);
    await screenshot(page, 'worker-earnings');
  });

  it('requests a withdrawal to Alipay, which waits for review in the history until an operator approves it', async () => {
    await page.getByLabel('金额（元）').fill('20');
    await page.getByLabel('支付宝账号').fill('li@example.com');
    await page.getByLabel('真实姓名').fill('李四');
    await page.getByRole('button', { name: '申请提现' }).click();
    await page.getByText('审核中').waitFor();
    const id = await workerId();
    const w = await one<{ id: string; amount_cents: string; status: string }>(
      `SELECT id, amount_cents, status FROM withdrawals WHERE worker_id = $1`,
      [id],
    );
    expect({ amount: Number(w.amount_cents), status: w.status }).toEqual({
      amount: 2000,
      status: 'pending_review',
    });
    expect(await workerBalance(t, id)).toBe(2500);
    expect(await balanceOf(t, `worker:${id}:withdrawing`)).toBe(2000);
    await page.getByText(/提现中/).waitFor();
    // The history (GET /v1/worker/withdrawals) shows the request with its state, why it is reviewed and the
    // account masked.
    const item = page.getByRole('list', { name: '提现记录' }).getByTestId('withdrawal');
    await item.getByText('审核中').waitFor();
    await item.getByText('首次提现，需人工审核').waitFor();
    await item.getByText(/l\*\*\*@example\.com/).waitFor();
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, 'worker-withdrawal');

    // An operator approves it; opened again, the earnings screen shows what the approval led to. (Not a page reload:
    // that would also end the availability the next test switches off.)
    const admin = await createAdmin(t);
    const approved = await t.http
      .post(`/v1/admin/withdrawals/${w.id}/approve`)
      .set('Authorization', admin.bearer)
      .expect(200);
    const words: Record<string, string> = { processing: '处理中', completed: '已完成', failed: '未完成' };
    expect(Object.keys(words)).toContain(approved.body.status);
    await page.getByRole('link', { name: '我的任务' }).click();
    await page.getByRole('heading', { name: '我的任务' }).waitFor();
    await page.getByRole('link', { name: '收入' }).click();
    await item.getByText(words[approved.body.status]).waitFor();
    expect(await item.getByText('审核中').count()).toBe(0);
  });

  it('offline, lists tasks nearby with pay, distance, direction, deadline, skills and agent rating; opens one', async () => {
    await page.getByRole('link', { name: '附近任务' }).click();
    await page.getByRole('switch', { name: /接单/ }).click();
    await page.getByText('离线：不会收到任务推送').waitFor();
    // Offline, so these are not offered: they wait in the list. The worker stands 30 m north of `here`.
    await createTask(t, agent, {
      title: '核对超市营业时间',
      description: '拍下门口的营业时间牌，并记录今天是否营业。',
      location: { ...offset(here, 30, 400), address: '西藏中路 18 号' },
      budget_cents: 8000,
      task_type: 'photo',
      requirements: { skills: ['photography'] },
    });
    await createTask(t, agent, {
      title: '记录公交站候车人数',
      location: { ...offset(here, 230), address: '人民广场站' },
      budget_cents: 3000,
    });
    await page.getByRole('button', { name: '刷新' }).click();
    const cards = page.getByRole('list', { name: '附近任务' }).getByRole('link');
    await cards.nth(1).waitFor();
    // Sorted by pay (the default): the photo task first, 400 m east, needing photography, from an agent rated 5.
    const first = cards.nth(0);
    await first.getByText('核对超市营业时间').waitFor();
    await first.getByText('¥72.00').waitFor();
    await first.getByText(/距离 40\d 米（东）/).waitFor();
    await first.getByText(/截止 /).waitFor();
    await first.getByText('拍照').waitFor();
    await first.getByText('发布方评分 5.0（1 条）').waitFor();
    // Its record (product-decisions §19): one result decided, too few for a rejection rate.
    await first.getByText('该发布方 90 天内审核的结果不足 5 份，暂无驳回率；没有输掉申诉').waitFor();
    await screenshot(page, 'worker-nearby');
    await page.getByLabel('排序').selectOption('distance_asc');
    await cards
      .nth(0)
      .getByText(/距离 (19\d|20\d) 米（北）/)
      .waitFor();
    await page.getByLabel('排序').selectOption('payment_desc');
    await first.getByText('核对超市营业时间').waitFor();
    await first.click();
    await page.getByRole('heading', { name: '核对超市营业时间' }).waitFor();
    await page.getByText('拍下门口的营业时间牌，并记录今天是否营业。').waitFor();
    await page.getByText('西藏中路 18 号').waitFor();
    expect(await page.getByRole('link', { name: '在地图中打开' }).getAttribute('href')).toMatch(/^geo:-?\d/);
    await page.getByRole('button', { name: '接受任务' }).waitFor();
    await screenshot(page, 'worker-task-page');
  });

  it('accepts a task; abandoning it sits apart from the work and asks first, in the app’s own dialog', async () => {
    const spare = await createTask(t, agent, {
      title: '记录路口车流',
      location: { ...offset(here, 30, 100), address: '福州路口' },
      budget_cents: 2000,
    });
    await page.getByRole('link', { name: '附近任务' }).click();
    await page.getByRole('button', { name: '刷新' }).click();
    await page
      .getByRole('list', { name: '附近任务' })
      .getByRole('link', { name: /记录路口车流/ })
      .click();
    await page.getByRole('button', { name: '接受任务' }).click();
    const start = page.getByRole('button', { name: '开始任务' });
    await start.waitFor();
    expect((await assignment(spare)).status).toBe('accepted');

    // Not beside start at its size: below the submission form, and smaller.
    const abandon = page.getByRole('button', { name: '放弃任务' });
    const [abandonBox, startBox, submitBox] = await Promise.all(
      [abandon, start, page.getByRole('button', { name: '提交', exact: true })].map((b) => b.boundingBox()),
    );
    expect(abandonBox!.y).toBeGreaterThan(submitBox!.y + submitBox!.height);
    expect(abandonBox!.width).toBeLessThan(startBox!.width / 2);

    // Asked in a modal dialog whose safe answer has the focus; Escape and "继续做任务" both keep the task.
    const dialog = page.getByRole('alertdialog', { name: '放弃这个任务？' });
    await abandon.click();
    await dialog.getByText('放弃会降低信誉分，且无法撤销。').waitFor();
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('继续做任务');
    await screenshot(page, 'worker-abandon-confirm');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await abandon.click();
    await dialog.getByRole('button', { name: '继续做任务' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await assignment(spare)).status).toBe('accepted');

    await abandon.click();
    await dialog.getByRole('button', { name: '确认放弃' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: '记录路口车流' }).locator('..').getByText('已放弃').waitFor();
    expect((await assignment(spare)).status).toBe('abandoned');
    await abandon.waitFor({ state: 'detached' });
  });

  it('lists the task under my tasks and explains reputation on the profile; English is one switch away', async () => {
    await page.getByRole('link', { name: '我的任务' }).click();
    await page
      .getByRole('link', { name: /拍摄面包店门头/ })
      .getByText('已通过')
      .waitFor();
    await screenshot(page, 'worker-my-tasks');
    await page.getByRole('link', { name: '我的', exact: true }).click();
    await page.getByText(/信誉分 0–5 分/).waitFor();
    await screenshot(page, 'worker-profile');
    await page.getByLabel('语言').selectOption('en');
    await page.getByRole('heading', { name: 'Me' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.getByRole('link', { name: 'Nearby' }).click();
    await page.getByRole('heading', { name: 'Tasks nearby' }).waitFor();
    await page.getByRole('list', { name: 'Tasks nearby' }).getByText('¥72.00').waitFor();
    await screenshot(page, 'worker-nearby-en');
  });

  it('fits a 360 px screen, stays signed in across a reload, logs out, resets the password and logs in', async () => {
    await page.getByRole('link', { name: 'Me', exact: true }).click();
    await page.getByLabel('Language').selectOption('zh-CN');
    await page.setViewportSize({ width: 360, height: 740 });
    for (const [tab, heading] of [
      ['附近任务', '附近任务'],
      ['我的任务', '我的任务'],
      ['收入', '收入'],
      ['我的', '我的'],
    ]) {
      await page.getByRole('link', { name: tab, exact: true }).click();
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      // Nothing wider than the screen: no sideways scrolling on a small phone.
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    }
    // A reload drops the in-memory access token; the stored refresh token brings the session back silently.
    await page.reload();
    await page.getByRole('heading', { name: '我的', exact: true }).waitFor();
    await page.getByText(/信誉分 0–5 分/).waitFor();

    // A deep link to an assignment's page reads it afresh (GET /v1/worker/assignments/{id}) after the reload.
    await page.goto(`/app/mine/${(await assignment(taskId)).id}`);
    await page.getByRole('heading', { name: '我的提交' }).waitFor();
    await page
      .getByRole('heading', { name: /审核结果/ })
      .getByText('已通过')
      .waitFor();
    await page.getByRole('link', { name: '我的', exact: true }).click();

    const refreshToken = await page.evaluate<string | null>("localStorage.getItem('legwork.app.refresh')");
    expect(refreshToken).toEqual(expect.any(String));
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.waitForURL(/\/app\/login$/);
    expect(await page.evaluate<string[]>('Object.keys(localStorage)')).not.toContain('legwork.app.refresh');
    // Logging out revoked the session on the server (POST /v1/worker/logout): a copy of the token is refused.
    const reuse = await t.http.post('/v1/worker/refresh').send({ refresh_token: refreshToken }).expect(401);
    expect(reuse.body.error.code).toBe('invalid_token');

    await page.getByRole('tab', { name: '忘记密码' }).click();
    await page.getByLabel('手机号').fill(phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    const code = /(\d{6})/.exec((await page.getByText(/沙盒模式验证码：\d{6}/).textContent())!)![1];
    await page.getByLabel('短信验证码').fill(code);
    await page.getByLabel('新密码').fill('new-worker-pass-2');
    await page.getByRole('button', { name: '重置密码' }).click();
    await page.getByText('密码已重置，请用新密码登录。').waitFor();

    await page.getByLabel('手机号').fill(phone);
    await page.getByLabel('密码', { exact: true }).fill('new-worker-pass-2');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('heading', { name: '附近任务' }).waitFor();
  });

  it('had no page errors, console errors or CSP violations', () => {
    expect(pageErrors.unexpected()).toEqual([]);
    // The collector hears the page: the refusal the test provoked was logged by Chromium.
    expect(pageErrors.errors.some((e) => /status of 400/.test(e))).toBe(true);
  });
});
