import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import {
  behaviorInputLimits,
  behaviorInputOutcomeValues,
  createSandboxWorkerRequestLimits as workerLimits,
  createSandboxWorkerRequestPersonaValues,
  createSandboxWorkerRequestSkillsValues,
  nearTaskLimits,
  photoBehaviorInputExifValues,
  photoBehaviorInputLimits,
  sandboxPointLimits,
} from '@legwork/sdk/types';
import * as z from 'zod';
import { ok, run } from '../results';
import { integer, number, text } from '../schemas';
import { markUntrusted } from '../untrusted';
import { need, SANDBOX_FIXTURES } from './tool';

/** Strict, as the API is: a field it does not know is refused rather than dropped. */
const behavior = z.strictObject({
  accept_after_s: integer(behaviorInputLimits.accept_after_s).optional(),
  start_after_s: integer(behaviorInputLimits.start_after_s).optional(),
  submit_after_s: integer(behaviorInputLimits.submit_after_s).optional(),
  outcome: z.enum(behaviorInputOutcomeValues).optional(),
  photo: z
    .strictObject({
      distance_m: integer(photoBehaviorInputLimits.distance_m),
      exif: z.enum(photoBehaviorInputExifValues),
    })
    .nullable()
    .optional()
    .describe('null submits without a photo.'),
  data: z.record(z.string(), z.unknown()).optional().describe('The result_data submitted.'),
});

const workerFields = {
  name: text(workerLimits.name).optional(),
  persona: z
    .enum(createSandboxWorkerRequestPersonaValues)
    .optional()
    .describe('Preset behaviour: reliable submits a good result; the others fail in the way they say.'),
  near_task: z
    .object({ task_id: z.uuid(), distance_m: integer(nearTaskLimits.distance_m) })
    .optional()
    .describe('Put the worker this far from one of your tasks (it then gets offered the task).'),
  location: z
    .object({
      latitude: number(sandboxPointLimits.latitude),
      longitude: number(sandboxPointLimits.longitude),
    })
    .optional(),
  skills: z
    .array(z.enum(createSandboxWorkerRequestSkillsValues))
    .max(workerLimits.skills.maxItems)
    .optional(),
  reputation: number(workerLimits.reputation).optional(),
  behavior: behavior
    .optional()
    .describe(
      'Overrides of the persona: when to accept, start and submit, the outcome, the photo, the data.',
    ),
};

/** sandbox_workers: simulated workers that do sandbox tasks with no person involved (docs/sandbox.md). */
export function registerSandboxWorkers(server: McpServer, client: Legwork): void {
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
      annotations: SANDBOX_FIXTURES,
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
          case 'update': {
            const worker = await workers.update(need(worker_id, 'worker_id', action), fields);
            return ok(markUntrusted({ action, worker }));
          }
          case 'remove':
            return ok({ action, removed: await workers.remove(need(worker_id, 'worker_id', action)) });
        }
      }),
  );
}
