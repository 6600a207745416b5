import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import * as z from 'zod';
import { idempotencyKeyFor } from '../idempotency';
import { ok, run } from '../results';
import { cancelOutput, uuid } from '../schemas';

export function registerCancelTask(server: McpServer, client: Legwork): void {
  server.registerTool(
    'cancel_task',
    {
      title: 'Cancel a task',
      description:
        'Cancels a task that is not finished. Open slots are refunded in full; a worker who already accepted ' +
        'gets 30 % of their slot as compensation and you get the rest back. Answers what was refunded. Cannot ' +
        'be undone; a submitted task should be reviewed instead.',
      inputSchema: z.object({ task_id: uuid('The task to cancel.') }),
      outputSchema: cancelOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ task_id }) =>
      run(async () => {
        const key = idempotencyKeyFor('cancel_task', { task_id });
        const cancelled = await client.tasks.cancel(task_id, { idempotencyKey: key });
        return ok({ ...cancelled, idempotency_key: key });
      }),
  );
}
