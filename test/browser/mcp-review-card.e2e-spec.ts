import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createAgent, createWorker, type TestAgent } from '../support/actors';
import type { Frame } from 'playwright-core';
import {
  collectPageErrors,
  launchChromium,
  screenshot,
  withDiagnostics,
  type Browser,
  type Page,
} from '../support/browser';
import {
  createUploadTestApp,
  jpeg,
  offset,
  spot,
  submitWithPhoto,
  type UploadTestApp,
} from '../support/photos';
import { freePort } from '../support/process';
import { accept, act, createTask } from '../support/tasks';
import { expectReviewCard } from '../mcp/review-card';

/**
 * A minimal MCP Apps host (SEP-1865) as a web page on an origin of its own: it renders a card's HTML in a sandboxed
 * iframe (scripts only: an opaque origin), answers the view's `ui/initialize` with a host context, sends the tool's
 * input and result once the view says `ui/notifications/initialized`, and forwards the view's `tools/call` to the
 * MCP server, here through `window.mcpToolsCall`, which the test binds to the official MCP client in Node (a real
 * host proxies to its server connection the same way). Every message the view sent is kept in `window.fromView`.
 */
const HOST_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>host</title></head><body>
<script>
window.fromView = [];
window.openCard = function (html, toolInput, toolResult, locale) {
  var old = document.querySelector('iframe');
  if (old) old.remove();
  var frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('title', 'review card');
  frame.style.width = '760px';
  frame.style.height = '1400px';
  var reply = function (id, result) { frame.contentWindow.postMessage({ jsonrpc: '2.0', id: id, result: result }, '*'); };
  var notify = function (method, params) { frame.contentWindow.postMessage({ jsonrpc: '2.0', method: method, params: params }, '*'); };
  window.onmessage = function (event) {
    if (event.source !== frame.contentWindow) return;
    var msg = event.data;
    window.fromView.push(msg);
    if (msg.method === 'ui/initialize') {
      reply(msg.id, {
        protocolVersion: '2026-01-26',
        hostInfo: { name: 'legwork-test-host', version: '1' },
        hostCapabilities: { serverTools: {} },
        hostContext: { locale: locale, theme: 'light', displayMode: 'inline', platform: 'web' }
      });
    } else if (msg.method === 'ui/notifications/initialized') {
      notify('ui/notifications/tool-input', { arguments: toolInput });
      notify('ui/notifications/tool-result', toolResult);
    } else if (msg.method === 'tools/call') {
      window.mcpToolsCall(msg.params).then(function (result) { reply(msg.id, result); }, function (err) {
        frame.contentWindow.postMessage({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: String(err) } }, '*');
      });
    }
  };
  frame.srcdoc = html;
  document.body.appendChild(frame);
};
</script></body></html>`;

/**
 * The review card in a real browser: a real photo task with two real submissions, the card read from /mcp and fed
 * the real get_results answer by a host page; approve and reject clicked in the card reach the API through
 * review_submission, and the card's own Content Security Policy stops any other script, image or connection.
 */
describe('MCP Apps review card in Chromium', () => {
  let t: UploadTestApp;
  let base: string;
  let browser: Browser;
  let agent: TestAgent;
  let mcp: Client;
  let host: Server;
  let hostUrl: string;
  /** What the host page's server was asked for: the CSP check proves the card asked for nothing. */
  const hostRequests: string[] = [];
  const here = spot();
  const pages: { page: Page; errors: ReturnType<typeof collectPageErrors> }[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Upload links point at this port: the card loads the photos from here.
    t = await createUploadTestApp({ PUBLIC_BASE_URL: base });
    await t.app.listen(port, '127.0.0.1');
    browser = await launchChromium();
    agent = await createAgent(t, { balanceCents: 100_000 });
    mcp = new Client({ name: 'legwork-card-host', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: agent.key } },
      }),
    );
    host = createServer((req, res) => {
      if (req.url !== '/favicon.ico') hostRequests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOST_PAGE);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await browser?.close();
    await new Promise((resolve) => host?.close(resolve));
    await t?.close();
  });

  async function hostPage(): Promise<{ page: Page; errors: ReturnType<typeof collectPageErrors> }> {
    const context = await browser.newContext({ viewport: { width: 800, height: 1000 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = collectPageErrors(page);
    pages.push({ page, errors });
    await page.exposeFunction(
      'mcpToolsCall',
      (params: { name: string; arguments: Record<string, unknown> }) => mcp.callTool(params),
    );
    await page.goto(`${hostUrl}/host`);
    return { page, errors };
  }

  async function openCard(page: Page, taskId: string, locale: string): Promise<Frame> {
    const { html } = await expectReviewCard(mcp, [new URL(base).origin]);
    const result = await mcp.callTool({ name: 'get_results', arguments: { task_id: taskId } });
    await page.evaluate(
      ([h, input, r, l]) => (globalThis as unknown as HostWindow).openCard(h, input, r, l),
      [html, { task_id: taskId }, result, locale] as const,
    );
    const frame = await waitForFrame(page);
    return frame;
  }

  async function resultOf(taskId: string) {
    const res = await t.http.get(`/v1/tasks/${taskId}/result`).set('Authorization', agent.key).expect(200);
    return res.body as { submissions: { assignment_id: string; status: string; reason_code?: string }[] };
  }

  it(
    'shows photos, verification and typed answers; approve and reject call review_submission; the API records both',
    () =>
      withDiagnostics(pages, async () => {
        const taskId = await createTask(t, agent, {
          task_type: 'photo',
          location: { ...here, address: '88 Century Avenue' },
          max_workers: 2,
          budget_cents: 10_000,
          answer_schema: {
            type: 'object',
            properties: {
              queue: { type: 'integer', title: 'People queueing', minimum: 0, maximum: 50 },
              open: { type: 'boolean', title: 'Is it open?' },
            },
            required: ['queue', 'open'],
          },
        });
        const assignments: string[] = [];
        for (const [queue, open] of [
          [3, true],
          [7, false],
        ] as const) {
          const worker = await createWorker(t);
          const assignmentId = await accept(t, worker, taskId);
          expect((await act(t, worker, assignmentId, 'start')).status).toBe(200);
          const photo = await jpeg({ gps: offset(here, 30) });
          const sent = await submitWithPhoto(t, worker, assignmentId, photo, {
            resultData: JSON.stringify({ queue, open }),
          });
          expect([sent.status, sent.body]).toEqual([200, expect.anything()]);
          assignments.push(assignmentId);
        }

        const { page, errors } = await hostPage();
        const card = await openCard(page, taskId, 'en-US');
        await card.getByRole('heading', { name: 'Submissions to review' }).waitFor();
        const first = card.locator(`section[data-assignment="${assignments[0]}"]`);
        const second = card.locator(`section[data-assignment="${assignments[1]}"]`);
        await first.getByRole('heading', { name: /Waiting for your review/ }).waitFor();

        // The photo is shown (loaded from the API origin, which the policy allows) with its check in words.
        await first.getByRole('img', { name: 'Photo 1' }).waitFor();
        await card.waitForFunction(
          `(() => { const img = document.querySelector('section[data-assignment="${assignments[0]}"] img');
          return img !== null && img.complete && img.naturalWidth > 0; })()`,
        );
        await first.getByText(/m from the task/).waitFor();
        // The typed answers under their questions, marked as the worker's words.
        await first.getByText('People queueing').waitFor();
        expect(await first.locator('dd').allTextContents()).toEqual(['3', 'Yes']);
        expect(await second.locator('dd').allTextContents()).toEqual(['7', 'No']);
        await first.getByText(/Written by the worker/).waitFor();
        await screenshot(page, 'mcp-review-card');

        // Approve the first: the host forwards tools/call to the server; the card says so and shows it approved.
        await first.getByLabel('Rating (1–5)').selectOption('4');
        await first.getByLabel('Quality (0–5)').fill('4.2');
        await first.getByRole('button', { name: 'Approve and pay' }).click();
        await first.getByRole('status').filter({ hasText: 'Approved: the worker is paid.' }).waitFor();
        await first.getByRole('heading', { name: /Approved/ }).waitFor();
        expect(await first.getByRole('button', { name: 'Approve and pay' }).count()).toBe(0);

        // Reject the second with a reason and a message.
        await second.getByLabel('Reason').selectOption({ label: 'Poor quality' });
        await second.getByLabel('Message to the worker (optional)').fill('The sign is not readable.');
        await second.getByRole('button', { name: 'Reject and refund' }).click();
        await second.getByRole('status').filter({ hasText: 'Rejected: the slot is refunded.' }).waitFor();

        const after = await resultOf(taskId);
        expect(
          Object.fromEntries(
            after.submissions.map((s) => [s.assignment_id, [s.status, s.reason_code ?? null]]),
          ),
        ).toEqual({
          [assignments[0]]: ['approved', null],
          [assignments[1]]: ['rejected', 'poor_quality'],
        });
        const feedback = await t.db.query<{ rating: number | null; quality_score: string | null }[]>(
          `SELECT rating, quality_score FROM task_feedback WHERE task_id = $1 AND accept_result`,
          [taskId],
        );
        expect(feedback.map((f) => [f.rating, Number(f.quality_score)])).toEqual([[4, 4.2]]);

        // What the card asked the host for: the handshake, then exactly these tool calls, as MCP Apps defines them.
        const calls = (await page.evaluate(() => (globalThis as unknown as HostWindow).fromView))
          .filter((m) => m.method === 'tools/call')
          .map((m) => m.params);
        expect(calls).toEqual([
          {
            name: 'review_submission',
            arguments: {
              task_id: taskId,
              assignment_id: assignments[0],
              accept: true,
              rating: 4,
              quality_score: 4.2,
            },
          },
          { name: 'get_results', arguments: { task_id: taskId } },
          {
            name: 'review_submission',
            arguments: {
              task_id: taskId,
              assignment_id: assignments[1],
              accept: false,
              reason_code: 'poor_quality',
              feedback_text: 'The sign is not readable.',
            },
          },
          { name: 'get_results', arguments: { task_id: taskId } },
        ]);

        // In Chinese when the host's locale is Chinese.
        const zh = await openCard(page, taskId, 'zh-CN');
        await zh.getByRole('heading', { name: '待审核的提交' }).waitFor();
        await zh.getByRole('heading', { name: /已通过/ }).waitFor();
        await zh.getByRole('heading', { name: /已拒绝/ }).waitFor();
        expect(errors.unexpected()).toEqual([]);
      }),
    120_000,
  );

  it(
    'the card’s policy blocks any other script, image or connection (securitypolicyviolation, nothing fetched)',
    () =>
      withDiagnostics(pages, async () => {
        const taskId = await createTask(t, agent, { location: here });
        const { page, errors } = await hostPage();
        const card = await openCard(page, taskId, 'en-US');
        // The card's own script ran under the policy: it rendered get_results' answer (a tool error before any
        // submission) in words.
        await card.getByText(/No worker has submitted a result yet/).waitFor();
        const before = hostRequests.length;
        // Run in the card's document (as its own code would run): a string, since the test code has no DOM types.
        const outcome = await card.evaluate(`(async () => {
        const violations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          violations.push(e.effectiveDirective + ' ' + e.blockedURI));
        const inline = document.createElement('script');
        inline.textContent = 'window.injected = true;';
        document.body.appendChild(inline);
        const external = document.createElement('script');
        external.src = ${JSON.stringify(hostUrl + '/evil.js')};
        document.body.appendChild(external);
        const pixel = document.createElement('img');
        pixel.src = ${JSON.stringify(hostUrl + '/pixel.png')};
        document.body.appendChild(pixel);
        const fetched = await fetch(${JSON.stringify(base + '/livez')}).then(() => 'fetched', () => 'refused');
        await new Promise((resolve) => setTimeout(resolve, 500));
        return { violations: violations.sort(), injected: window.injected ?? false, fetched };
      })()`);
        expect(outcome).toEqual({
          violations: [
            `connect-src ${base}/livez`,
            `img-src ${hostUrl}/pixel.png`,
            `script-src-elem ${hostUrl}/evil.js`,
            'script-src-elem inline',
          ],
          injected: false,
          fetched: 'refused',
        });
        expect(hostRequests.slice(before)).toEqual([]);
        // Chromium reports each blocked load on the console and as a failed request: these, and nothing else.
        errors.expect(/Content Security Policy/);
        errors.expect(/^requestfailed: \S+\/(evil\.js|pixel\.png) csp$/);
        expect(errors.unexpected()).toEqual([]);
      }),
    60_000,
  );
});

interface HostWindow {
  openCard(html: string, input: object, result: unknown, locale: string): void;
  fromView: { method?: string; params?: unknown }[];
}

async function waitForFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe[title="review card"]');
  for (;;) {
    const frame = await handle.contentFrame();
    if (frame) return frame;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
