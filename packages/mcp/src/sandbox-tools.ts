import type { Legwork } from '@legwork/sdk';
import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { LegworkError } from '@legwork/sdk';
import { ok, run } from './results';
import { markUntrusted } from './untrusted';

const SKILLS = [
  'photography',
  'delivery',
  'data_entry',
  'surveying',
  'translation',
  'quality_inspection',
  'driving',
  'other',
] as const;
const PERSONAS = ['reliable', 'slow', 'abandons', 'declines_offers', 'photo_too_far', 'no_exif'] as const;

const workerFields = {
  name: z.string().max(100).optional(),
  persona: z
    .enum(PERSONAS)
    .optional()
    .describe('Preset behaviour: reliable submits a good result; the others fail in the way they say.'),
  near_task: z
    .object({ task_id: z.uuid(), distance_m: z.number().int().min(0).max(100_000) })
    .optional()
    .describe('Put the worker this far from one of your tasks (it then gets offered the task).'),
  location: z
    .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
    .optional(),
  skills: z.array(z.enum(SKILLS)).optional(),
  reputation: z.number().min(0).max(5).optional(),
  behavior: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Overrides of the persona: accept_after_s, outcome, data, photo... (see docs/sandbox.md).'),
};

function need<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined) {
    throw new LegworkError(`${field} is required for action ${action}.`, {
      status: 400,
      code: 'validation_error',
    });
  }
  return value;
}

/** sandbox_workers and sandbox_clock: the sandbox that runs whole tasks with no person involved (docs/sandbox.md). */
export function registerSandboxTools(server: McpServer, client: Legwork): void {
  server.registerTool(
    'sandbox_workers',
    {
      title: 'Simulated workers (sandbox)',
      description:
        'Sandbox keys only. Adds, lists, reads, changes or removes simulated workers that accept and do your ' +
        'sandbox tasks by themselves, so you can try the whole flow with no person involved. Typical use: after ' +
        'create_task, add a worker with persona "reliable" and near_task {task_id, distance_m: 50}, then ' +
        'wait_for_task. get shows the worker’s latest steps (activity).',
      inputSchema: z.object({
        action: z.enum(['add', 'list', 'get', 'update', 'remove']),
        worker_id: z.uuid().optional().describe('For get, update and remove.'),
        ...workerFields,
      }),
      outputSchema: z.object({
        action: z.string(),
        worker: z.looseObject({ worker_id: z.string() }).optional(),
        workers: z.array(z.looseObject({ worker_id: z.string() })).optional(),
        removed: z.looseObject({}).optional(),
      }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    ({ action, worker_id, ...fields }) =>
      run(async () => {
        const workers = client.sandbox.workers;
        switch (action) {
          case 'add':
            return ok(markUntrusted({ action, worker: await workers.create(fields) }));
          case 'list':
            return ok(markUntrusted({ action, workers: (await workers.list()).data }));
          case 'get':
            return ok(
              markUntrusted({ action, worker: await workers.get(need(worker_id, 'worker_id', action)) }),
            );
          case 'update':
            return ok(
              markUntrusted({
                action,
                worker: await workers.update(need(worker_id, 'worker_id', action), fields),
              }),
            );
          case 'remove':
            return ok({ action, removed: await workers.remove(need(worker_id, 'worker_id', action)) });
        }
      }),
  );

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
        name: z.string().max(100).optional().describe('For create.'),
        frozen_time: z.string().optional().describe('For create: the starting time (ISO 8601); default now.'),
        by_seconds: z.number().int().min(1).max(2_592_000).optional().describe('For advance.'),
        to: z.string().optional().describe('For advance: the time to move to (ISO 8601).'),
      }),
      outputSchema: z.object({
        action: z.string(),
        clock: z.looseObject({ clock_id: z.string() }).optional(),
        clocks: z.array(z.looseObject({ clock_id: z.string() })).optional(),
        removed: z.looseObject({}).optional(),
      }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
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
          case 'advance':
            return ok({
              action,
              clock: await clocks.advance(need(clock_id, 'clock_id', action), { by_seconds, to }),
            });
          case 'remove':
            return ok({ action, removed: await clocks.remove(need(clock_id, 'clock_id', action)) });
        }
      }),
  );
}
