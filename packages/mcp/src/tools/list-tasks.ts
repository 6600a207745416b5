import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import {
  pathsV1TasksGetParametersQueryLimits as query,
  pathsV1TasksGetParametersQueryStatusValues,
} from '@legwork/sdk/types';
import * as z from 'zod';
import { ok, run } from '../results';
import { integer, taskListOutput } from '../schemas';
import { READ_ONLY } from './tool';

export function registerListTasks(server: McpServer, client: Legwork): void {
  server.registerTool(
    'list_tasks',
    {
      title: 'List your tasks',
      description:
        'Your tasks, newest first, optionally by status (e.g. submitted = results waiting for your review). ' +
        'Page with starting_after = next_cursor. Use get_task for one task’s detail.',
      inputSchema: z.object({
        status: z.enum(pathsV1TasksGetParametersQueryStatusValues).optional(),
        limit: integer(query.limit).optional().describe('Default 20.'),
        starting_after: z.uuid().optional().describe('next_cursor of the previous page.'),
      }),
      outputSchema: taskListOutput,
      annotations: READ_ONLY,
    },
    (args) => run(async () => ok(await client.tasks.list(args))),
  );
}
