import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import { ok, run } from '../results';
import { quoteOutput, taskBody } from '../schemas';
import { READ_ONLY } from './tool';

export function registerQuoteTask(server: McpServer, client: Legwork): void {
  server.registerTool(
    'quote_task',
    {
      title: 'Price a task',
      description:
        'Prices a task without creating it: the cost split (worker payout, platform fee), whether your balance ' +
        'covers it (can_create), the refund policy in numbers, the auto-approval delay and roughly how many ' +
        'eligible workers are online nearby: at least workers.eligible_online (0, 1, 5, 20 or 100) within ' +
        'workers.radius_meters (2 km at least) of the place’s 500 m square, so read 5 as "5 to 19"; in the sandbox, ' +
        'workers.simulated_online counts your own simulated workers in reach exactly. Use it before create_task ' +
        'with the same arguments; nothing is held or created. Quotes have a budget of their own (20 a minute by ' +
        'default): do not poll it.',
      inputSchema: taskBody,
      outputSchema: quoteOutput,
      annotations: READ_ONLY,
    },
    (args) => run(async () => ok(await client.tasks.quote(args))),
  );
}
