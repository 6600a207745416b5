import { pathsV1WorkerTasksMyTasksGetParametersQueryStatusValues as STATUSES } from '@legwork/sdk/types';
import { unwrap, type Schemas } from '../shared/api';
import { api } from './session';

export type MyTask = Schemas['MyTaskItem'];
export type MyFilter = Exclude<(typeof STATUSES)[number], 'offered'>;
/** The list's filters: the API's statuses but offers, which the worker answers on their own screen. */
export const MY_FILTERS = STATUSES.filter((s): s is MyFilter => s !== 'offered');

export async function loadMyTasks(status: MyFilter | null, offset = 0) {
  return unwrap(
    api.GET('/v1/worker/tasks/my-tasks', {
      params: { query: { limit: 100, offset, ...(status ? { status } : {}) } },
    }),
  );
}

export type AssignmentDetail = Schemas['WorkerAssignmentDetail'];

/** One assignment of the worker's with its task, submission and verdict (a reload or a deep link reads it afresh). */
export async function loadAssignment(assignmentId: string): Promise<AssignmentDetail> {
  return unwrap(
    api.GET('/v1/worker/assignments/{assignment_id}', { params: { path: { assignment_id: assignmentId } } }),
  );
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
