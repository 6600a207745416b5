import { Tokens } from '../../src/auth/tokens';
import type { TestAgent, TestWorker } from './actors';
import type { TestApp } from './app';

export const HOUR = 3_600_000;

/** The two agent surfaces: where creation and cancellation live on each. */
export const SURFACES = {
  v1: {
    name: '/v1',
    base: '/v1/tasks',
    create: (t: TestApp) => t.http.post('/v1/tasks/create'),
    cancel: (t: TestApp, id: string) => t.http.post(`/v1/tasks/${id}/cancel`),
  },
  api: {
    name: '/api/v1',
    base: '/api/v1/tasks',
    create: (t: TestApp) => t.http.post('/api/v1/tasks'),
    cancel: (t: TestApp, id: string) => t.http.delete(`/api/v1/tasks/${id}`),
  },
} as const;
export type Surface = (typeof SURFACES)[keyof typeof SURFACES];

/** A valid creation body; deadline one day ahead of the test clock. */
export function taskBody(t: TestApp, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Photograph the storefront',
    description: 'Two photos: the storefront and the opening hours sign.',
    location: { latitude: 31.2304, longitude: 121.4737, address: '88 Century Avenue' },
    budget_cents: 5000,
    deadline_at: new Date(t.clock.now().getTime() + 24 * HOUR).toISOString(),
    // Not `photo`: a photo task needs a located photo (location-proof.e2e-spec.ts), which most tests do not send.
    task_type: 'data_collection',
    ...over,
  };
}

export async function createTask(
  t: TestApp,
  agent: TestAgent,
  over: Record<string, unknown> = {},
  surface: Surface = SURFACES.v1,
): Promise<string> {
  const res = await surface.create(t).set('Authorization', agent.key).send(taskBody(t, over));
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.task_id as string;
}

export async function accept(t: TestApp, worker: TestWorker, taskId: string): Promise<string> {
  const res = await t.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', worker.bearer);
  if (res.status !== 200) throw new Error(`accept failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.assignment_id as string;
}

export function act(t: TestApp, worker: TestWorker, assignmentId: string, action: 'start' | 'abandon') {
  return t.http.post(`/v1/worker/assignments/${assignmentId}/${action}`).set('Authorization', worker.bearer);
}

export function submit(
  t: TestApp,
  worker: TestWorker,
  assignmentId: string,
  body: Record<string, unknown> = { result_data: { storefront: 'open', photos_taken: 2 } },
) {
  return t.http
    .post(`/v1/worker/assignments/${assignmentId}/submit`)
    .set('Authorization', worker.bearer)
    .send(body);
}

export function feedback(t: TestApp, agent: TestAgent, taskId: string, body: Record<string, unknown>) {
  return t.http
    .post(`/v1/tasks/${taskId}/feedback`)
    .set('Authorization', agent.key)
    .send({ rating: 5, quality_score: 4.5, ...body });
}

export async function taskStatus(t: TestApp, agent: TestAgent, taskId: string): Promise<string> {
  const res = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
  return res.body.status as string;
}

export async function eventsOf(t: TestApp, taskId: string): Promise<string[]> {
  const rows: { name: string }[] = await t.db.query(
    `SELECT name FROM events WHERE task_id = $1 ORDER BY created_at, name`,
    [taskId],
  );
  return rows.map((r) => r.name);
}

/** Access tokens live 15 minutes of test-clock time: after moving the clock, a worker logs in again. */
export async function relogin(t: TestApp, worker: TestWorker): Promise<void> {
  const pair = await t.app.get(Tokens).issuePair('worker', worker.id);
  worker.jwt = pair.access_token;
  worker.bearer = `Bearer ${pair.access_token}`;
}
