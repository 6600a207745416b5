import { pathsV1WorkerTasksAvailableGetParametersQuerySort_byValues } from '@legwork/sdk/types';
import { unwrap } from '../shared/api';
import { availability } from './availability';
import { currentFix, type Fix } from './geo';
import { api } from './session';
import { lastNearby } from './task-store';

export type { NearbyTask } from './task-store';
export const SORTS = pathsV1WorkerTasksAvailableGetParametersQuerySort_byValues;
export type Sort = (typeof SORTS)[number];

/** Loads available tasks around a position (the switch's last fix, else a one-off fix, else none). */
export async function loadNearby(sort: Sort, km: number, fix: Fix | null) {
  const answer = await unwrap(
    api.GET('/v1/worker/tasks/available', {
      params: {
        query: {
          sort_by: sort,
          max_distance_km: km,
          limit: 50,
          ...(fix ? { latitude: fix.latitude, longitude: fix.longitude } : {}),
        },
      },
    }),
  );
  for (const task of answer.tasks) lastNearby.set(task.task_id, task);
  return answer;
}

export async function positionForList(): Promise<Fix | null> {
  const known = availability.snapshot().fix;
  if (known) return known;
  try {
    return await currentFix();
  } catch {
    return null;
  }
}
