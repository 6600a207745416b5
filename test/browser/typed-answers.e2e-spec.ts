import { createAgent, createWorker, type TestAgent, type TestWorker } from '../support/actors';
import {
  desktopContext,
  launchChromium,
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
import { accept, createTask, submit } from '../support/tasks';
import { waitFor } from '../support/waiters';

/**
 * Typed answers in real browsers (product-decisions §17). The worker app on a 390×844 phone in Chinese renders a
 * task's answer_schema as a form (a number pad, choices, a date picker, a camera button per photo field), explains
 * a wrong value before anything is sent, keeps the draft across a reload (IndexedDB), waits while offline
 * ("等待发送") and sends by itself when the connection returns. The console builds a schema in New task with the
 * worker's form previewed, creates the task, and shows the answers as a table. Workers and agents are fixtures
 * signed in by a refresh token in storage (the sign-in screens have their own browser tests).
 */
describe('typed answers in the worker app and the console', () => {
  let t: UploadTestApp;
  let base: string;
  let browser: Browser;
  let agent: TestAgent;
  let worker: TestWorker;
  const here = spot();
  const pages: OpenedPage[] = [];

  beforeAll(async () => {
    requireWebBuild();
    t = await createUploadTestApp();
    base = await listen(t);
    browser = await launchChromium();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
    worker = await createWorker(t);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signedIn = (context: BrowserContext, who: 'worker' | 'agent', id: string) =>
    openSignedIn(pages, t, context, who, id);

  const assignmentRow = async (id: string) =>
    (
      await t.db.query<{ status: string; result_data: Record<string, unknown> | null }[]>(
        `SELECT status, result_data FROM assignments WHERE id = $1`,
        [id],
      )
    )[0];

  it('a worker fills a number, a choice, a date and a photo; a wrong value is explained; offline waits, then sends', () =>
    withDiagnostics(pages, async () => {
      const taskId = await createTask(t, agent, {
        title: '面包店排队情况',
        description: '数一下排队人数，拍一张门头。',
        location: { ...here, address: '南京东路 300 号' },
        task_type: 'photo',
        answer_schema: {
          type: 'object',
          properties: {
            queue: { type: 'integer', minimum: 0, maximum: 200, title: '排队人数' },
            kind: { type: 'string', enum: ['面包店', '咖啡馆', '其他'], title: '店铺类型' },
            day: { type: 'string', format: 'date', title: '营业日期' },
            storefront: { type: 'string', format: 'photo', title: '门头照片' },
          },
          required: ['queue', 'kind', 'day', 'storefront'],
        },
      });
      const assignmentId = await accept(t, worker, taskId);
      const context = await phoneContext(browser, base, offset(here, 30), { locale: 'zh-CN' });
      const { page, errors } = await signedIn(context, 'worker', worker.id);
      await page.goto(`/app/mine/${assignmentId}`);
      await page.getByRole('heading', { name: '需要回答的问题' }).waitFor();

      // Native inputs: a number pad, a date picker, radios for a few choices, a camera button for the photo.
      const queue = page.getByLabel('排队人数（必填）');
      expect(await queue.getAttribute('inputmode')).toBe('numeric');
      expect(await page.getByLabel('营业日期（必填）').getAttribute('type')).toBe('date');
      await page.getByText('范围 0 至 200。').waitFor();
      await queue.fill('500');
      await page.getByRole('radio', { name: '面包店' }).check();
      await page.getByLabel('营业日期（必填）').fill('2030-06-01');
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: '拍照：门头照片' }).click(),
      ]);
      expect(await chooser.element().getAttribute('capture')).toBe('environment');
      await chooser.setFiles({
        name: 'front.jpg',
        mimeType: 'image/jpeg',
        buffer: await jpeg({ gps: offset(here, 30) }),
      });
      await page.getByRole('img', { name: '门头照片 的照片' }).waitFor();

      // 500 is over the maximum: said in words at the field, and nothing is sent.
      await page.getByRole('button', { name: '提交', exact: true }).click();
      await page.getByText('不能大于 200。').waitFor();
      await page.getByText('有 1 处需要修改，修改后再提交。').waitFor();
      expect(await queue.getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, 'worker-answer-invalid');
      expect((await assignmentRow(assignmentId)).status).toBe('accepted');

      // The draft survives a reload (IndexedDB), the photo with it.
      await queue.fill('12');
      await page.waitForTimeout(300);
      await page.reload();
      await page.getByText('已恢复上次未提交的填写内容。').waitFor();
      expect(await page.getByLabel('排队人数（必填）').inputValue()).toBe('12');
      expect(await page.getByRole('radio', { name: '面包店' }).isChecked()).toBe(true);
      await page.getByRole('img', { name: '门头照片 的照片' }).waitFor();

      // Offline: the sending waits, said as "等待发送", and nothing reaches the API.
      errors.expect(/ERR_INTERNET_DISCONNECTED/);
      await context.setOffline(true);
      await page.getByRole('button', { name: '提交', exact: true }).click();
      await page.getByText('等待发送：网络恢复后会自动提交。').waitFor();
      await screenshot(page, 'worker-answer-waiting');
      expect((await assignmentRow(assignmentId)).status).toBe('accepted');

      // Back online: it goes out by itself, typed as the schema asks, the photo as its upload URL.
      await context.setOffline(false);
      await page.getByText('已提交，等待发布方审核。').waitFor();
      const row = await assignmentRow(assignmentId);
      expect(row.status).toBe('submitted');
      expect(row.result_data).toMatchObject({ queue: 12, kind: '面包店', day: '2030-06-01' });
      expect(row.result_data!.storefront).toMatch(/^http.*\/uploads\//);
      await page.getByText('排队人数').first().waitFor();
      await screenshot(page, 'worker-answer-sent');
      expect(errors.unexpected()).toEqual([]);
      await context.close();
    }));

  it('a draft of answers does not outlive its assignment: abandoning the task drops it from the phone', () =>
    withDiagnostics(pages, async () => {
      const taskId = await createTask(t, agent, {
        title: '面包店排队情况（放弃）',
        location: here,
        answer_schema: {
          type: 'object',
          properties: { queue: { type: 'integer', minimum: 0, title: '排队人数' } },
          required: ['queue'],
        },
      });
      const assignmentId = await accept(t, worker, taskId);
      const context = await phoneContext(browser, base, offset(here, 30), { locale: 'zh-CN' });
      const { page, errors } = await signedIn(context, 'worker', worker.id);
      await page.goto(`/app/mine/${assignmentId}`);
      await page.getByLabel('排队人数（必填）').fill('7');
      // The drafts IndexedDB holds for this assignment (0 or 1), read in the page.
      const drafts = () =>
        page.evaluate<number>(`new Promise((resolve, reject) => {
          const open = indexedDB.open('legwork-answers');
          open.onerror = () => reject(new Error(String(open.error)));
          open.onsuccess = () => {
            const count = open.result.transaction('drafts').objectStore('drafts').count(${JSON.stringify(assignmentId)});
            count.onsuccess = () => { resolve(count.result); open.result.close(); };
          };
        })`);
      await waitFor(async () => (await drafts()) === 1, 'the draft kept in IndexedDB');

      await page.getByRole('button', { name: '放弃任务' }).click();
      await page.getByRole('button', { name: '确认放弃' }).click();
      await page.getByText('已放弃').first().waitFor();
      expect((await assignmentRow(assignmentId)).status).toBe('abandoned');
      await waitFor(async () => (await drafts()) === 0, 'the draft dropped once the task was abandoned');
      expect(errors.unexpected()).toEqual([]);
      await context.close();
    }));

  it('an agent builds a schema with the preview, creates the task and reads the answers table', () =>
    withDiagnostics(pages, async () => {
      const context = await desktopContext(browser, base, { locale: 'en-US' });
      const { page, errors } = await signedIn(context, 'agent', agent.id);
      await page.goto('/console/tasks/new');
      await page.getByLabel('Title').fill('Is the bakery open?');
      await page.getByLabel('What the worker should do').fill('Check the door and count the queue.');
      await page.getByLabel('Latitude').fill(String(here.latitude));
      await page.getByLabel('Longitude').fill(String(here.longitude));
      await page.getByLabel('Task type').selectOption('verification');
      await page.getByRole('checkbox', { name: 'Photography' }).uncheck();

      await page.getByRole('button', { name: 'Add a question' }).click();
      const q1 = page.getByRole('group', { name: 'Question 1' });
      await q1.getByLabel('Question', { exact: true }).fill('Is it open?');
      await q1.getByLabel('Field name').fill('open');
      await page.getByRole('button', { name: 'Add a question' }).click();
      const q2 = page.getByRole('group', { name: 'Question 2' });
      await q2.getByLabel('Question', { exact: true }).fill('People queueing');
      await q2.getByLabel('Field name').fill('queue');
      await q2.getByLabel('Answer type').selectOption('integer');
      await q2.getByLabel('Maximum').fill('200');
      await q2.getByLabel('Required', { exact: true }).uncheck();

      // The preview is the worker's form: a yes-or-no and a number pad.
      const preview = page.getByRole('region', { name: "Worker's form (preview)" });
      await preview
        .getByRole('group', { name: 'Is it open? (required)' })
        .getByRole('radio', { name: 'Yes' })
        .waitFor();
      expect(await preview.getByLabel('People queueing').getAttribute('inputmode')).toBe('numeric');
      await screenshot(page, 'console-answer-schema');

      await page.getByRole('button', { name: 'Get a quote' }).click();
      await page.getByRole('button', { name: /Create the task and hold/ }).click();
      await page.waitForURL(/\/console\/tasks\/[0-9a-f-]{36}$/);
      const taskId = /tasks\/([0-9a-f-]{36})$/.exec(page.url())![1];
      const stored = await t.db.query<{ answer_schema: { properties: Record<string, unknown> } }[]>(
        `SELECT answer_schema FROM tasks WHERE id = $1`,
        [taskId],
      );
      expect(stored[0].answer_schema.properties).toEqual({
        open: { type: 'boolean', title: 'Is it open?' },
        queue: { type: 'integer', maximum: 200, title: 'People queueing' },
      });
      await page.getByText('No answers yet.').waitFor();

      const assignmentId = await accept(t, worker, taskId);
      await submit(t, worker, assignmentId, { result_data: { open: true, queue: 7 } }).expect(200);
      await page.reload();
      const table = page.getByRole('region', { name: 'Answers' }).getByRole('table');
      await table.getByRole('columnheader', { name: 'People queueing' }).waitFor();
      const cells = await table.getByRole('row').nth(1).getByRole('cell').allTextContents();
      expect(cells.slice(2)).toEqual(['Yes', '7']);
      await screenshot(page, 'console-answers-table');

      // The task list exports the answers: CSV with a BOM, a column per field.
      await page.goto('/console/tasks');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export answers (CSV)' }).click(),
      ]);
      const chunks: Buffer[] = [];
      for await (const chunk of (await download.createReadStream()) as AsyncIterable<Buffer>)
        chunks.push(chunk);
      const csv = Buffer.concat(chunks).toString('utf8');
      expect(csv.charCodeAt(0)).toBe(0xfeff);
      const [header, ...rows] = csv.slice(1).trim().split(/\r?\n/);
      expect(header.split(',')).toEqual(expect.arrayContaining(['open', 'queue']));
      expect(rows.some((r) => r.includes('true') && r.includes('7'))).toBe(true);
      expect(errors.unexpected()).toEqual([]);
      await context.close();
    }));
});
