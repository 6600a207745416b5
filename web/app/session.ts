import { useSyncExternalStore } from 'react';
import { createApi } from '../shared/api';
import { Session } from '../shared/auth';

/** The worker's session and API client, one of each for the app. */
export const session = new Session('/v1/worker/refresh', 'legwork.app.refresh', '/v1/worker/logout');
export const api = createApi(session);

/** Whether the worker is signed in, re-rendering when that changes (the routes' guard, the frame's live socket). */
export function useSignedIn(): boolean {
  return useSyncExternalStore(session.subscribe, session.snapshot);
}
