import { useEffect, useRef } from 'react';

/** Live events of the agent's room, re-dispatched by the shell (components/Shell.tsx) for the screens. */
export const liveEvents = new EventTarget();

export interface LiveDetail {
  name: string;
  payload: { task_id?: string; data?: Record<string, unknown> } | null;
}

/** Calls `onEvent` for each live event whose name passes `filter` (a prefix such as "task." or a predicate). */
export function useLiveEvents(filter: (detail: LiveDetail) => boolean, onEvent: () => void): void {
  const latest = useRef({ filter, onEvent });
  latest.current = { filter, onEvent };
  useEffect(() => {
    const listener = (e: Event) => {
      const detail = (e as CustomEvent<LiveDetail>).detail;
      if (latest.current.filter(detail)) latest.current.onEvent();
    };
    liveEvents.addEventListener('event', listener);
    return () => liveEvents.removeEventListener('event', listener);
  }, []);
}

/** Whole days in UTC as the stats endpoints take them (YYYY-MM-DD). */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
