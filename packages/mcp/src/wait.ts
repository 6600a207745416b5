import type { Legwork, WebhookEvent } from '@legwork/sdk';
import type { ServerContext } from '@modelcontextprotocol/server';
import { LegworkError } from '@legwork/sdk';
import type { Schemas } from '@legwork/sdk/types';
import { markUntrusted } from './untrusted';

export const MAX_WAIT_S = 50;

/** Statuses after which a task has no more events to wait for (typed by the API's, so a renamed one fails to compile). */
const ENDED: readonly Schemas['TaskResponse']['status'][] = ['completed', 'failed', 'cancelled'];

/**
 * Long-polls one task's events for wait_for_task. It returns as soon as the task has events after `since` (all of
 * its events when `since` is omitted), at once when the task has ended, or after timeout_s (at most 50, so an answer always comes before the 60 s
 * request timeout most MCP clients use). Between polls it sends a progress notification when the client gave a
 * progressToken. Polls start 1 s apart and slow to 5 s, so a 50 s wait costs about a dozen API requests against the
 * agent's rate limit.
 */
export async function waitForTask(
  client: Legwork,
  args: { task_id: string; since?: string; timeout_s?: number },
  ctx: ServerContext,
  opts: { stopping?: AbortSignal } = {},
) {
  const timeoutS = Math.min(args.timeout_s ?? 30, MAX_WAIT_S);
  const started = Date.now();
  const deadline = started + timeoutS * 1000;
  const token = ctx.mcpReq._meta?.progressToken;
  const signal = ctx.mcpReq.signal;
  // The client cancelled (nobody reads the answer), or the server is leaving (answer now, the client calls again).
  const stop = opts.stopping ? AbortSignal.any([signal, opts.stopping]) : signal;
  // A wrong task id is a tool error at once, not a 50 s wait; an ended task has nothing more to wait for.
  const ended = ENDED.includes((await client.tasks.get(args.task_id, { signal })).status);
  let interval = 1000;
  let lastProgress = 0;
  for (;;) {
    const fresh = await eventsAfter(client, args.task_id, args.since, signal);
    const now = Date.now();
    if (fresh.length > 0 || ended || now >= deadline || stop.aborted) {
      const task = await client.tasks.get(args.task_id, { signal });
      const timedOut = fresh.length === 0 && !ENDED.includes(task.status);
      return markUntrusted({
        task_id: task.task_id,
        status: task.status,
        events: fresh,
        cursor: fresh.length > 0 ? fresh[fresh.length - 1].event_id : (args.since ?? null),
        timed_out: timedOut,
        next_step: nextStep(task.status, timedOut),
      });
    }
    if (token !== undefined) {
      // progress must grow with every notification of a token.
      lastProgress = Math.max(lastProgress + 0.1, Math.round((now - started) / 100) / 10);
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: lastProgress,
          total: timeoutS,
          message: `Waiting for the next event of task ${args.task_id} (${Math.round((now - started) / 1000)} s of ${timeoutS} s).`,
        },
      });
    }
    await sleep(Math.min(interval, Math.max(0, deadline - Date.now())), stop);
    interval = Math.min(interval + 1000, 5000);
  }
}

/** The task's events after `since`, oldest first (the API lists newest first). */
async function eventsAfter(
  client: Legwork,
  taskId: string,
  since: string | undefined,
  signal: AbortSignal,
): Promise<WebhookEvent[]> {
  const newer: WebhookEvent[] = [];
  let found = since === undefined;
  for await (const e of client.events.list({ task_id: taskId, limit: 100 }, { signal })) {
    if (e.event_id === since) {
      found = true;
      break;
    }
    newer.push(e);
  }
  if (!found) {
    throw new LegworkError(
      'since is not an event of this task: pass the cursor a wait_for_task call answered.',
      {
        status: 400,
        code: 'validation_error',
      },
    );
  }
  return newer.reverse();
}

function nextStep(status: string, timedOut: boolean): string {
  if (status === 'submitted')
    return 'A result awaits your review: call get_results, then review_submission to approve or reject it.';
  if (status === 'completed') return 'The task is done: get_results shows the approved results.';
  if (status === 'cancelled' || status === 'failed') return 'The task has ended; nothing more will happen.';
  return timedOut
    ? 'Nothing new yet: call wait_for_task again with the same since (cursor).'
    : 'Call wait_for_task again with since = cursor to wait for what happens next.';
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
