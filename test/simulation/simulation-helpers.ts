import type { TestAgent } from '../support/actors';
import type { TestApp } from '../support/app';
import type { Point } from '../support/photos';

export { expectError } from '../support/errors';

export const HOUR = 3_600_000;

/** A photo task at `at`, deadline `hours` ahead of the app's clock. */
export function photoTask(
  t: TestApp,
  at: Point,
  over: Record<string, unknown> = {},
  hours = 24,
): Record<string, unknown> {
  return {
    title: 'Photograph the storefront',
    description: 'One photo of the storefront with the opening hours sign.',
    location: { ...at, address: 'Sandbox Street 1', max_distance_meters: 2000 },
    budget_cents: 5000,
    deadline_at: new Date(t.clock.now().getTime() + hours * HOUR).toISOString(),
    task_type: 'photo',
    ...over,
  };
}

export async function createTaskAt(
  t: TestApp,
  agent: TestAgent,
  at: Point,
  over: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.http
    .post('/v1/tasks/create')
    .set('Authorization', agent.key)
    .send(photoTask(t, at, over));
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.task_id as string;
}

export async function simulatedWorker(
  t: TestApp,
  agent: TestAgent,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await t.http.post('/v1/sandbox/workers').set('Authorization', agent.key).send(body);
  if (res.status !== 201)
    throw new Error(`simulated worker failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.worker_id as string;
}

export interface AssignmentRow {
  id: string;
  worker_id: string;
  status: string;
}

export async function assignmentsOf(t: TestApp, taskId: string): Promise<AssignmentRow[]> {
  return t.db.query(
    `SELECT id, worker_id, status FROM assignments WHERE task_id = $1 ORDER BY created_at, id`,
    [taskId],
  );
}

export async function taskEvents(t: TestApp, taskId: string): Promise<string[]> {
  const rows: { name: string }[] = await t.db.query(
    `SELECT name FROM events WHERE task_id = $1 AND name LIKE 'task.%' ORDER BY seq`,
    [taskId],
  );
  return rows.map((r) => r.name);
}

export async function reputationOf(t: TestApp, workerId: string): Promise<number> {
  const [row]: { reputation: string }[] = await t.db.query(`SELECT reputation FROM workers WHERE id = $1`, [
    workerId,
  ]);
  return Number(row.reputation);
}

/**
 * Polls `check` every `intervalMs` until it returns a value. For checks made through the API: a registered agent has
 * the free tier's 100 requests a minute, so API polling must be gentle.
 */
export async function poll<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 15_000,
  intervalMs = 500,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
