import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import * as z from 'zod';
import { ok, run } from '../results';
import { uuid, waitOutput } from '../schemas';
import { MAX_WAIT_S, waitForTask } from '../wait';
import { READ_ONLY, type ToolOptions } from './tool';

export function registerWaitForTask(server: McpServer, client: Legwork, options: ToolOptions): void {
  server.registerTool(
    'wait_for_task',
    {
      title: 'Wait for a task to change',
      description:
        `Waits (long-poll, up to timeout_s ≤ ${MAX_WAIT_S} s) for the task’s next events: assigned, started, ` +
        'submitted, completed, cancelled, expired... Returns at once when there are events after `since` (the ' +
        'whole history when since is omitted), with the new events, the task status and a cursor. Call again ' +
        'with since = cursor to wait for the next change. When status is submitted, call get_results and ' +
        'review_submission. Sends progress notifications while waiting if you pass a progressToken.',
      inputSchema: z.object({
        task_id: uuid('The task to follow.'),
        since: z.string().optional().describe('The cursor of the previous wait_for_task answer.'),
        timeout_s: z
          .number()
          .int()
          .min(1)
          .max(MAX_WAIT_S)
          .optional()
          .describe(`How long to wait for a new event, 1 to ${MAX_WAIT_S} s (default 30).`),
      }),
      outputSchema: waitOutput,
      annotations: READ_ONLY,
    },
    (args, ctx) => run(async () => ok(await waitForTask(client, args, ctx, options))),
  );
}
