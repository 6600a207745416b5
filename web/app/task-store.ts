import type { Schemas } from '../shared/api';

export type NearbyTask = Schemas['AvailableTaskItem'];

/**
 * The tasks of the last nearby list, by id: the task page opens from the list without a second request (the worker
 * API lists available tasks; it has no single-task read), and reloads the list when opened directly.
 */
export const lastNearby = new Map<string, NearbyTask>();
