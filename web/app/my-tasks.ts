import { unwrap, type Schemas } from '../shared/api';
import { ApiError } from '../shared/errors';
import { api } from './session';

export type MyTask = Schemas['MyTaskItem'];
export const MY_FILTERS = ['accepted', 'in_progress', 'submitted', 'completed', 'failed'] as const;
export type MyFilter = (typeof MY_FILTERS)[number];

export async function loadMyTasks(status: MyFilter | null, offset = 0) {
  return unwrap(
    api.GET('/v1/worker/tasks/my-tasks', {
      params: { query: { limit: 100, offset, ...(status ? { status } : {}) } },
    }),
  );
}

/** One assignment of the worker's (the API lists them; it has no single read), paging until it is found. */
export async function loadAssignment(assignmentId: string): Promise<MyTask> {
  for (let offset = 0; ; offset += 100) {
    const page = await loadMyTasks(null, offset);
    const found = page.tasks.find((task) => task.assignment_id === assignmentId);
    if (found) return found;
    if (offset + page.tasks.length >= page.total || page.tasks.length === 0) {
      throw new ApiError(404, 'assignment_not_found', 'Assignment not found.');
    }
  }
}

/** Reloads when a live event concerns this assignment or task. */
export function concerns(payload: unknown, task: { assignment_id: string; task_id: string }): boolean {
  const p = payload as { task_id?: string; data?: { assignment_id?: string; task_id?: string } } | null;
  return (
    p?.data?.assignment_id === task.assignment_id ||
    p?.task_id === task.task_id ||
    p?.data?.task_id === task.task_id
  );
}
