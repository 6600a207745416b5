import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';

/**
 * What both MCP specs (Streamable HTTP and stdio) check through the official client, so the two transports are held
 * to one expectation: the tool list and a whole task with a simulated worker.
 */
export const CORE_TOOL_NAMES = [
  'cancel_task',
  'create_task',
  'create_top_up',
  'get_account',
  'get_results',
  'get_task',
  'list_tasks',
  'quote_task',
  'review_submission',
  'send_message',
  'wait_for_task',
];
export const SANDBOX_TOOL_NAMES = [...CORE_TOOL_NAMES, 'sandbox_clock', 'sandbox_workers'].sort();

// Tool answers are read as plain JSON, as a host does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Structured = Record<string, any>;

/** Calls a tool and answers its structured content, failing with the tool's error text if it reported one. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  options: Parameters<Client['callTool']>[1] = {},
): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args }, options);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent as Structured;
}

/** Calls a tool that must fail, and answers its error (code, message and the API's fields). */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  const text = textOf(result);
  return JSON.parse(text.slice(text.indexOf('\n') + 1)) as Structured;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** Every tool listed has the parts a host relies on. */
export async function expectToolList(client: Client, names: string[]): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(names);
  for (const tool of tools) {
    expect([tool.name, typeof tool.description, tool.description!.length > 80]).toEqual([
      tool.name,
      'string',
      true,
    ]);
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.outputSchema?.type).toBe('object');
    expect(tool.annotations).toEqual(
      expect.objectContaining({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
      }),
    );
    // Credentials are never tool arguments.
    expect(Object.keys(tool.inputSchema.properties ?? {}).filter((k) => /key$|secret|token/.test(k))).toEqual(
      ['create_task', 'create_top_up', 'send_message'].includes(tool.name) ? ['idempotency_key'] : [],
    );
  }
}

export function taskArgs(): Record<string, unknown> {
  return {
    title: 'Photograph the storefront',
    description: 'One photo of the shop front with its opening hours.',
    location: { latitude: 31.2304, longitude: 121.4737, max_distance_meters: 2000 },
    budget_cents: 5000,
    deadline_at: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    task_type: 'photo',
  };
}

/**
 * quote → create (and its retry) → wait (times out with progress while nobody works on it) → a simulated worker →
 * wait until submitted → results (worker content marked untrusted) → review. The agent must hold 5000 cents.
 */
export async function runTaskFlow(client: Client): Promise<{ taskId: string; progress: number }> {
  const args = taskArgs();
  const quote = await call(client, 'quote_task', args);
  expect(quote).toMatchObject({ can_create: true, total_to_hold_cents: 5000 });

  const created = await call(client, 'create_task', args);
  expect(created).toMatchObject({ status: 'pending', cost_breakdown: { total_cents: 5000 } });
  const taskId = created.task_id as string;
  // A host retrying the same call gets the same task, not a second one.
  const retried = await call(client, 'create_task', args);
  expect([retried.task_id, retried.idempotency_key]).toEqual([taskId, created.idempotency_key]);

  // Nobody works on it yet: the wait times out, reporting progress meanwhile.
  const progress: unknown[] = [];
  const idle = await call(
    client,
    'wait_for_task',
    { task_id: taskId, timeout_s: 2 },
    { onprogress: (p) => progress.push(p) },
  );
  expect(idle).toMatchObject({
    task_id: taskId,
    status: 'pending',
    events: [],
    timed_out: true,
    cursor: null,
  });
  expect(progress.length).toBeGreaterThan(0);
  expect(progress[0]).toMatchObject({ progress: expect.any(Number), total: 2 });

  const added = await call(client, 'sandbox_workers', {
    action: 'add',
    persona: 'reliable',
    near_task: { task_id: taskId, distance_m: 50 },
  });
  expect(added.worker.persona).toBe('reliable');

  const seen: string[] = [];
  let since: string | undefined;
  let status = 'pending';
  // A bound, not a speed check: on a loaded machine the simulated worker's jobs can lag well behind its 4 s of steps.
  const until = Date.now() + 90_000;
  while (status !== 'submitted' && Date.now() < until) {
    const waited = await call(
      client,
      'wait_for_task',
      { task_id: taskId, timeout_s: 20, ...(since ? { since } : {}) },
      { onprogress: (p) => progress.push(p) },
    );
    seen.push(...(waited.events as { event: string }[]).map((e) => e.event));
    since = waited.cursor ?? since;
    status = waited.status;
  }
  expect(status).toBe('submitted');
  expect(seen).toEqual(expect.arrayContaining(['task.assigned', 'task.submitted']));

  const results = await call(client, 'get_results', { task_id: taskId });
  const [submission] = results.submissions;
  expect(submission.status).toBe('submitted');
  expect(submission.data).toMatchObject({
    untrusted: true,
    source: 'worker',
    content: { observed: true },
  });

  const verdict = { task_id: taskId, accept: true, rating: 5, quality_score: 4.5 };
  const review = await call(client, 'review_submission', verdict);
  expect(review).toMatchObject({ status: 'completed', assignment_ids: [submission.assignment_id] });
  // A host retrying the call (its answer lost) gets the first answer again, as the description promises, not an
  // error that nothing is left to review: the API replays it, and the worker is paid once.
  expect(await call(client, 'review_submission', verdict)).toEqual(review);
  const done = await call(client, 'get_task', { task_id: taskId });
  expect(done.status).toBe('completed');
  // The completion is the last event; after it, a wait answers at once that the task has ended.
  const last = await call(client, 'wait_for_task', { task_id: taskId, since, timeout_s: 50 });
  expect(last.events.map((e: { event: string }) => e.event)).toContain('task.completed');
  const after = await call(client, 'wait_for_task', { task_id: taskId, since: last.cursor, timeout_s: 50 });
  expect(after).toMatchObject({ status: 'completed', events: [], timed_out: false, cursor: last.cursor });
  return { taskId, progress: progress.length };
}
