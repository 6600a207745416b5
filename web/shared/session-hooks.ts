import { useSyncExternalStore } from 'react';
import type { Session } from './auth';

/** Whether the session is signed in, re-rendering when it signs in or out (a refresh failing, another tab). */
export function useSignedIn(session: Session): boolean {
  return useSyncExternalStore(session.subscribe, session.snapshot);
}
