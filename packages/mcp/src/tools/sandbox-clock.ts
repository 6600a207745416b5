import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import { advanceTestClockRequestLimits, createTestClockRequestLimits } from '@legwork/sdk/types';
import * as z from 'zod';
import { ok, run } from '../results';
import { integer, text } from '../schemas';
import { need, SANDBOX_FIXTURES } from './tool';

/** sandbox_clock: test clocks that skip time for the tasks created on them (docs/sandbox.md). */
export function registerSandboxClock(server: McpServer, client: Legwork): void {
  server.registerTool(
    'sandbox_clock',
    {
      title: 'Test clocks (sandbox)',
      description:
        'Sandbox keys only. Test clocks let you skip time: create a clock, create tasks with test_clock = its ' +
        'clock_id, then advance it (by_seconds or to) to run deadlines, expiries and auto-approval at once in ' +
        'time order. list, get and remove manage clocks. Follow the effects with wait_for_task or get_task.',
      inputSchema: z.object({
        action: z.enum(['create', 'list', 'get', 'advance', 'remove']),
        clock_id: z.string().optional().describe('For get, advance and remove.'),
        name: text(createTestClockRequestLimits.name).optional().describe('For create.'),
        frozen_time: z.string().optional().describe('For create: the starting time (ISO 8601); default now.'),
        by_seconds: integer(advanceTestClockRequestLimits.by_seconds).optional().describe('For advance.'),
        to: z.string().optional().describe('For advance: the time to move to (ISO 8601).'),
      }),
      outputSchema: z.object({
        action: z.string(),
        clock: z.looseObject({ clock_id: z.string() }).optional(),
        clocks: z.array(z.looseObject({ clock_id: z.string() })).optional(),
        removed: z.looseObject({}).optional(),
      }),
      annotations: SANDBOX_FIXTURES,
    },
    ({ action, clock_id, name, frozen_time, by_seconds, to }) =>
      run(async () => {
        const clocks = client.sandbox.clocks;
        switch (action) {
          case 'create':
            return ok({ action, clock: await clocks.create({ name, frozen_time }) });
          case 'list':
            return ok({ action, clocks: (await clocks.list()).data });
          case 'get':
            return ok({ action, clock: await clocks.get(need(clock_id, 'clock_id', action)) });
          case 'advance': {
            const clock = await clocks.advance(need(clock_id, 'clock_id', action), { by_seconds, to });
            return ok({ action, clock });
          }
          case 'remove':
            return ok({ action, removed: await clocks.remove(need(clock_id, 'clock_id', action)) });
        }
      }),
  );
}
