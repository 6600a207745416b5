import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import { idempotencyKeyFor } from '../idempotency';
import { ok, run } from '../results';
import { createdTaskOutput, idempotencyKey, taskBody } from '../schemas';

export function registerCreateTask(server: McpServer, client: Legwork): void {
  server.registerTool(
    'create_task',
    {
      title: 'Post a task',
      description:
        'Posts a task for real people near the location and moves its whole cost (budget_cents × max_workers) ' +
        'from your balance into escrow. Quote first (quote_task). Then call wait_for_task with the task_id to ' +
        'follow it. A retried call with the same arguments (or the same idempotency_key) returns the same task ' +
        'instead of paying twice; to post two identical tasks on purpose, give each its own idempotency_key.',
      inputSchema: taskBody.extend({
        idempotency_key: idempotencyKey
          .optional()
          .describe('Optional; by default derived from the arguments.'),
      }),
      outputSchema: createdTaskOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ idempotency_key, ...body }) =>
      run(async () => {
        const key = idempotencyKeyFor('create_task', body, idempotency_key);
        const task = await client.tasks.create(body, { idempotencyKey: key });
        return ok({ ...task, idempotency_key: key });
      }),
  );
}
