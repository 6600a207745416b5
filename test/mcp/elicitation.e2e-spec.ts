import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Legwork } from '@legwork/sdk';
import { registerAgent, type RegisteredAgent } from '../support/agents';
import { agentBalance } from '../support/balances';
import {
  collectPageErrors,
  desktopContext,
  launchChromium,
  requireWebBuild,
  type Browser,
  type Page,
} from '../support/browser';
import { startPaymentRig, type PaymentRig } from '../support/payment-rig';
import { callError, taskArgs, textOf } from './mcp-flow';

/**
 * Approval over the spend cap by URL elicitation (product-decisions §21): an MCP client that supports URL elicitation
 * is asked by create_task to open the console's approval page; here "opening" it is Chromium, signed in to the
 * console, where the person approves (the task is created, once) or declines (nothing changes). A client without
 * URL elicitation gets a tool error saying what a person must do.
 */
describe('MCP create_task over the spend cap: approval by URL elicitation', () => {
  let rig: PaymentRig;
  let browser: Browser;
  let page: Page;
  let agent: RegisteredAgent;
  const opened: string[] = [];

  beforeAll(async () => {
    requireWebBuild();
    rig = await startPaymentRig();
    browser = await launchChromium();
    agent = await registerAgent(rig.t);
    await new Legwork({ apiKey: agent.apiKey, baseUrl: rig.baseUrl }).sandbox.balance.fund({
      amount_cents: 50_000,
    });
    const [key] = (
      await rig.t.http
        .get('/v1/agent/api-keys')
        .set('Authorization', `Bearer ${agent.accessToken}`)
        .expect(200)
    ).body;
    await rig.t.http
      .patch(`/v1/agent/api-keys/${key.id}`)
      .set('Authorization', `Bearer ${agent.accessToken}`)
      .send({ spend_caps: { daily_cents: 1_000 }, approval_ceiling_cents: 20_000 })
      .expect(200);
    page = await (await desktopContext(browser, rig.baseUrl)).newPage();
    collectPageErrors(page);
    await page.goto('/console/login');
    await page.getByLabel('Email').fill(agent.email);
    await page.getByLabel('Password').fill(agent.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await rig?.close();
  });

  /** A client that opens URL elicitations in the signed-in browser, where the person does `decision`. */
  async function elicitingClient(decision: 'Approve this task' | 'Decline'): Promise<Client> {
    const client = new Client(
      { name: 'legwork-elicitation-e2e', version: '1.0.0' },
      // URL elicitation reaches a client of the stateless endpoint in the 2026-07-28 era (server/discover, then
      // input_required results); a 2025-era client is treated as one without it (the last test).
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: 'auto' } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { mode?: string; url?: string };
      expect(params.mode).toBe('url');
      const url = new URL(params.url!);
      opened.push(url.pathname);
      await page.goto(url.pathname);
      await page.getByRole('heading', { name: 'Approve a task over the spend cap' }).waitFor();
      await page.getByRole('button', { name: decision }).click();
      await page
        .getByRole('status')
        .filter({ hasText: decision === 'Decline' ? 'Declined' : 'Approved' })
        .waitFor();
      return { action: 'accept' };
    });
    await connect(client, true);
    return client;
  }

  async function connect(client: Client, withKey: boolean): Promise<void> {
    const headers: Record<string, string> = withKey ? { Authorization: `Bearer ${agent.apiKey}` } : {};
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${rig.baseUrl}/mcp`), { requestInit: { headers } }),
    );
  }

  async function taskCount(): Promise<number> {
    const [{ n }]: { n: number }[] = await rig.t.db.query(
      `SELECT count(*)::int AS n FROM tasks WHERE agent_id = $1`,
      [agent.id],
    );
    return n;
  }

  it('approved in the console, the over-cap task is created once; the link used again does nothing', async () => {
    const client = await elicitingClient('Approve this task');
    try {
      const result = await client.callTool({ name: 'create_task', arguments: taskArgs() });
      expect([result.isError ?? false, textOf(result as never).slice(0, 200)]).toEqual([
        false,
        expect.any(String),
      ]);
      const task = result.structuredContent as { task_id: string };
      expect(await taskCount()).toBe(1);
      expect(await agentBalance(rig.t, agent.id)).toBe(45_000);
      const approvalId = opened.at(-1)!.split('/').pop()!;
      const [approval]: { status: string; task_id: string }[] = await rig.t.db.query(
        `SELECT status, task_id FROM spend_approvals WHERE id = $1`,
        [approvalId],
      );
      expect(approval).toEqual({ status: 'used', task_id: task.task_id });

      // The link opened again: the decision is shown, no buttons, and approving by hand is refused.
      await page.goto(opened.at(-1)!);
      await page.getByRole('status').filter({ hasText: 'Approved and used' }).waitFor();
      expect(await page.getByRole('button', { name: 'Approve this task' }).count()).toBe(0);
      const again = await rig.t.http
        .post(`/v1/spend-approvals/${approvalId}/approve`)
        .set('Authorization', `Bearer ${agent.accessToken}`);
      expect([again.status, again.body.error?.code]).toEqual([409, 'invalid_state']);
      // Creating with the used approval again is over the cap: nothing changes.
      const reuse = await rig.t.http
        .post('/v1/tasks/create')
        .set('Authorization', `Bearer ${agent.apiKey}`)
        .send({ ...taskArgs(), spend_approval_id: approvalId });
      expect([reuse.status, reuse.body.error?.code]).toEqual([402, 'spend_cap_exceeded']);
      expect(await taskCount()).toBe(1);
      expect(await agentBalance(rig.t, agent.id)).toBe(45_000);
    } finally {
      await client.close();
    }
  });

  it('declined in the console: a tool error, and nothing is created or held', async () => {
    const client = await elicitingClient('Decline');
    try {
      const result = await client.callTool({
        name: 'create_task',
        arguments: { ...taskArgs(), title: 'A second over-cap task' },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result as never)).toContain('spend_approval_declined');
      expect(await taskCount()).toBe(1);
      expect(await agentBalance(rig.t, agent.id)).toBe(45_000);
    } finally {
      await client.close();
    }
  });

  it('a client without URL elicitation gets a tool error that says what a person must do', async () => {
    const client = new Client({ name: 'legwork-plain-e2e', version: '1.0.0' });
    await connect(client, true);
    const before = await taskCount();
    try {
      const err = await callError(client, 'create_task', { ...taskArgs(), title: 'No elicitation' });
      expect(err).toMatchObject({
        error: {
          code: 'spend_cap_exceeded',
          status: 402,
          period: 'daily',
          cap_cents: 1_000,
          approval_url: expect.stringMatching(/\/console\/approvals\/[0-9a-f-]{36}$/),
        },
        hint: expect.stringContaining('approval_url'),
      });
      expect(err.error.message).toContain('raise the spend cap');
      expect(await taskCount()).toBe(before);
    } finally {
      await client.close();
    }
  });
});
