import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import { ok, run } from '../results';
import { accountOutput } from '../schemas';
import { READ_ONLY, type ToolOptions } from './tool';

export function registerGetAccount(server: McpServer, client: Legwork, options: ToolOptions): void {
  server.registerTool(
    'get_account',
    {
      title: 'Account and balance',
      description:
        'Your Legwork account: available balance (CNY cents, escrow not counted), tier, rate limits, how many ' +
        'tasks may be open at once, and whether this is sandbox or live. Use it first, and before creating tasks; ' +
        'if the balance is short, create_top_up.',
      outputSchema: accountOutput,
      annotations: READ_ONLY,
    },
    () =>
      run(async () =>
        ok({ ...(await client.account.retrieve()), mode: options.sandbox ? 'sandbox' : 'live' }),
      ),
  );
}
