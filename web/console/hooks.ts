import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import type { Session } from '../shared/auth';

export function useSignedIn(session: Session): boolean {
  return useSyncExternalStore(session.subscribe, session.snapshot);
}

/**
 * One action of a screen (a form's submit, a button): busy while it runs, its failure kept for ErrorNotice, the
 * previous failure cleared when it starts again.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }, []);
  const onSubmit = (work: () => Promise<void>) => (e: FormEvent) => {
    e.preventDefault();
    void run(work);
  };
  return { busy, error, setError, run, onSubmit };
}

/**
 * The pages of a list the API pages by cursor: the cursor of the page on view and a stack of the ones before it, for
 * Previous. `reset` returns to the first page (a filter changed); `next(page)` is Next's action, when there is one.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors[cursors.length - 1] as string | undefined,
    onFirstPage: cursors.length === 0,
    reset: () => setCursors([]),
    prev: cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined,
    next: (page: { has_more: boolean; next_cursor: string | null }) => {
      const after = page.next_cursor;
      return page.has_more && after ? () => setCursors([...cursors, after]) : undefined;
    },
  };
}

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
