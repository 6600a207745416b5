import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import * as z from 'zod';
import { ok, run } from '../results';
import { taskDetailOutput, uuid } from '../schemas';
import { markUntrusted } from '../untrusted';
import { READ_ONLY } from './tool';

export function registerGetTask(server: McpServer, client: Legwork): void {
  server.registerTool(
    'get_task',
    {
      title: 'One task',
      description:
        'A task’s status, progress, assignments (with each submission once made) and deadline. A worker who has ' +
        'not accepted (an offer) is named by a pseudonym of this task, anon_…, until they do. Each submission ' +
        'carries its risk, review_required and its photos’ signals (as get_results explains). To wait for a ' +
        'change use wait_for_task instead of calling this in a loop; for results use get_results.',
      inputSchema: z.object({ task_id: uuid('The task_id create_task answered.') }),
      outputSchema: taskDetailOutput,
      annotations: READ_ONLY,
    },
    ({ task_id }) => run(async () => ok(markUntrusted(await client.tasks.get(task_id)))),
  );
}
