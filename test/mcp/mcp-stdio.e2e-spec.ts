import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Legwork } from '@legwork/sdk';
import { registerAgent } from '../support/agents';
import { agentBalance } from '../support/balances';
import { startPaymentRig, type PaymentRig } from '../support/payment-rig';
import { call, callError, expectToolList, runTaskFlow, SANDBOX_TOOL_NAMES } from './mcp-flow';
import { expectReviewCard } from './review-card';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'packages', 'mcp', 'dist', 'cli.js');

function newest(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((max, e) => {
    const path = join(dir, e.name);
    return Math.max(max, e.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }, 0);
}

/**
 * The command a host runs is the compiled one (packages/mcp/dist/cli.js, its `bin`), so it is built here when its
 * sources (or the SDK's) are newer than it: `npm run build` makes it too.
 */
function buildCliIfStale(): void {
  const sources = Math.max(
    newest(join(ROOT, 'packages', 'mcp', 'src')),
    newest(join(ROOT, 'packages', 'sdk', 'src')),
  );
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= sources) return;
  const built = spawnSync('npm', ['run', 'build', '-w', '@legwork/sdk', '-w', '@legwork/mcp'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`building legwork-mcp failed:\n${built.stdout}\n${built.stderr}`);
}

/**
 * legwork-mcp, the stdio command, spawned as a host spawns it (LEGWORK_API_KEY, LEGWORK_BASE_URL) against the real
 * app listening on a port, through the official client's stdio transport.
 */
describe('MCP over stdio (legwork-mcp)', () => {
  let rig: PaymentRig;
  beforeAll(async () => {
    buildCliIfStale();
    rig = await startPaymentRig({ JOBS_IN_PROCESS: 'true' });
  }, 180_000);
  afterAll(() => rig.close());

  async function spawnClient(env: Record<string, string>): Promise<Client> {
    const client = new Client({ name: 'legwork-e2e', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI],
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'pipe',
    });
    await client.connect(transport);
    return client;
  }

  // The whole flow with a simulated worker: its bound is generous for a loaded machine, not a speed check.
  it('lists the twelve tools and runs a task with a simulated worker', async () => {
    const agent = await registerAgent(rig.t);
    const client = await spawnClient({ LEGWORK_API_KEY: agent.apiKey, LEGWORK_BASE_URL: rig.baseUrl });
    try {
      await expectToolList(client, SANDBOX_TOOL_NAMES);
      const missing = await callError(client, 'get_results', {
        task_id: '7d6f5d0e-5a4b-4c3d-9e2f-1a0b9c8d7e6f',
      });
      expect(missing.error).toMatchObject({ code: 'task_not_found', status: 404 });

      await new Legwork({ apiKey: agent.apiKey, baseUrl: rig.baseUrl }).sandbox.balance.fund({
        amount_cents: 10_000,
      });
      expect(await call(client, 'get_account')).toMatchObject({ balance_cents: 10_000, mode: 'sandbox' });
      const { progress } = await runTaskFlow(client);
      expect(progress).toBeGreaterThan(0);
      expect(await agentBalance(rig.t, agent.id)).toBe(5_000);
    } finally {
      await client.close();
    }
  }, 150_000);

  it('examples/mcp/mcp.json starts the server as a host would, and its HTTP entry names /mcp with a bearer key', async () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'examples', 'mcp', 'mcp.json'), 'utf8')) as {
      mcpServers: Record<
        string,
        {
          command?: string;
          args?: string[];
          env?: Record<string, string>;
          url?: string;
          headers?: Record<string, string>;
        }
      >;
    };
    const { legwork: stdio, 'legwork-http': http } = config.mcpServers;
    expect(stdio.command).toBe('node');
    expect(existsSync(join(ROOT, stdio.args![0]))).toBe(true);
    expect(Object.keys(stdio.env!).sort()).toEqual(['LEGWORK_API_KEY', 'LEGWORK_BASE_URL']);
    expect(new URL(http.url!).pathname).toBe('/mcp');
    expect(http.headers!.Authorization).toMatch(/^Bearer lw_test_/);

    // The entry as written (command, args from the checkout's root, env with a real key and this server's URL).
    const agent = await registerAgent(rig.t);
    const client = new Client({ name: 'example-host', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: stdio.command!,
        args: stdio.args,
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          ...stdio.env,
          LEGWORK_API_KEY: agent.apiKey,
          LEGWORK_BASE_URL: rig.baseUrl,
        },
        stderr: 'pipe',
      }),
    );
    try {
      await expectToolList(client, SANDBOX_TOOL_NAMES);
    } finally {
      await client.close();
    }
  });

  it('serves the review card too, its images allowed from the API origin and LEGWORK_PHOTO_ORIGINS', async () => {
    const agent = await registerAgent(rig.t);
    const client = await spawnClient({
      LEGWORK_API_KEY: agent.apiKey,
      LEGWORK_BASE_URL: `${rig.baseUrl}/`,
      LEGWORK_PHOTO_ORIGINS: ' https://photos.example.com/bucket , https://cdn.example.com',
    });
    try {
      await expectReviewCard(client, [
        new URL(rig.baseUrl).origin,
        'https://photos.example.com',
        'https://cdn.example.com',
      ]);
    } finally {
      await client.close();
    }
  });

  it('without LEGWORK_API_KEY, says so on stderr and exits 1 (stdout, the protocol channel, stays empty)', () => {
    const run = spawnSync(process.execPath, [CLI], {
      env: { PATH: process.env.PATH ?? '' },
      input: '',
      encoding: 'utf8',
    });
    expect([run.status, run.stdout, run.stderr]).toEqual([1, '', expect.stringContaining('LEGWORK_API_KEY')]);
  });

  it('a wrong key: the tools are listed, and each call is a tool error saying the key is invalid', async () => {
    const client = await spawnClient({
      LEGWORK_API_KEY: 'lw_test_notarealkey000000000000000000',
      LEGWORK_BASE_URL: rig.baseUrl,
    });
    try {
      const refused = await callError(client, 'get_account', {});
      expect(refused.error).toMatchObject({ code: 'invalid_api_key', status: 401 });
    } finally {
      await client.close();
    }
  });
});
