import type { McpServer } from '@modelcontextprotocol/server';
import { LegworkSpendCapError, type Legwork } from '@legwork/sdk';
import * as z from 'zod';
import { idempotencyKeyFor } from '../idempotency';
import { ok, toolError } from '../results';
import { createdTaskOutput, idempotencyKey, taskBody } from '../schemas';
import { decided, overCap } from '../spend-approval';
import type { ToolOptions } from './tool';

export function registerCreateTask(server: McpServer, client: Legwork, options: ToolOptions): void {
  server.registerTool(
    'create_task',
    {
      title: 'Post a task',
      description:
        'Posts a task for real people near the location and moves its whole cost (budget_cents × max_workers) ' +
        'from your balance into escrow. Quote first (quote_task). Then call wait_for_task with the task_id to ' +
        'follow it. A retried call with the same arguments (or the same idempotency_key) returns the same task ' +
        'instead of paying twice; to post two identical tasks on purpose, give each its own idempotency_key. ' +
        "Over the key's spend cap, the host is asked to open a page where the person approves this one task.",
      inputSchema: taskBody.extend({
        idempotency_key: idempotencyKey
          .optional()
          .describe('Optional; by default derived from the arguments.'),
        spend_approval_id: z
          .uuid()
          .optional()
          .describe(
            "Only after a person approved this exact task over the spend cap at the approval page's URL " +
              '(the id at its end); otherwise leave it out.',
          ),
      }),
      outputSchema: createdTaskOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ idempotency_key, spend_approval_id, ...body }, ctx) => {
      let approval = spend_approval_id;
      try {
        // A call again after the approval page: the state names the approval the person decided on.
        const state = ctx.mcpReq.requestState<string>();
        approval =
          typeof state === 'string'
            ? await decided(client, state, ctx.mcpReq.inputResponses, options.stopping)
            : spend_approval_id;
        const withApproval = approval ? { ...body, spend_approval_id: approval } : body;
        const key = idempotencyKeyFor('create_task', withApproval, idempotency_key);
        const task = await client.tasks.create(withApproval, { idempotencyKey: key });
        return ok({ ...task, idempotency_key: key });
      } catch (err) {
        if (err instanceof LegworkSpendCapError && !approval) {
          try {
            return await overCap(server, client, body, err);
          } catch (inner) {
            return toolError(inner);
          }
        }
        return toolError(err);
      }
    },
  );
}
