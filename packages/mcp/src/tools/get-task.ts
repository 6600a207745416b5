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
        'change use wait_for_task instead of calling this in a loop; for results use get_results. `messages` ' +
        'holds the threads with the workers (the worker’s words marked untrusted); answer with send_message.',
      inputSchema: z.object({ task_id: uuid('The task_id create_task answered.') }),
      outputSchema: taskDetailOutput,
      annotations: READ_ONLY,
    },
    ({ task_id }) =>
      run(async () => {
        const task = await client.tasks.get(task_id);
        return ok(markUntrusted({ ...task, messages: await threadsOf(client, task_id) }));
      }),
  );
}

/** The most threads whose messages get_task reads (the busiest first); the rest by GET .../messages. */
const THREADS_READ = 10;

/** The task's threads that hold messages, with their messages (reading them marks them read, as the console does). */
async function threadsOf(client: Legwork, taskId: string) {
  const { threads } = await client.tasks.messages(taskId);
  const busy = threads
    .filter((t) => t.message_count > 0)
    .sort((a, b) => b.unread_count - a.unread_count)
    .slice(0, THREADS_READ);
  return Promise.all(
    busy.map(async (t) => {
      const { messages } = await client.tasks.messages(taskId, { assignment_id: t.assignment_id });
      return { assignment_id: t.assignment_id, unread_count: t.unread_count, messages: messages ?? [] };
    }),
  );
}
